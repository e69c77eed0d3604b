//! Settlement reports read over HTTP: open reports computed from the tickets (with what
//! keeps them from being finalized), finalized ones with their signed statement, each
//! addressed by id or period, another operator's never found, and the export whose
//! ticket-lines CSV hashes to the statement's `linesSha256`, byte for byte.

use opinion_testkit::{TermsSeed, UserSeed, ulid_at};
use serde_json::Value;
use sha2::{Digest, Sha256};
use time::macros::datetime;

use crate::admin_settlement::admin;
use crate::flight_reads_seed::{Chain, given_flights, given_player, lost_ticket, this_month};
use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::trading_seed::{bits, seeder};

const REPORTS: &str = "/api/operator/flight/settlement-reports";

/// Three lost October tickets (10 000 each at 15%: a share of 4 500) and one of the
/// current month; the first operator's player.
pub async fn given_two_periods(app: &TestApp) -> UserSeed {
    let mut seed = seeder(app).await;
    given_flights(&mut seed, &Chain::new(), 3).await;
    let terms = ulid_at(datetime!(2026-09-01 00:00 UTC), 901) + bits(&app.operator);
    seed.flight_terms(&TermsSeed {
        operator: bits(&app.operator),
        id: terms,
        share_bps: 1_500,
        effective_from: datetime!(2026-09-01 00:00 UTC),
    })
    .await;
    let player = given_player(&mut seed, &app.operator, 1, "p-1").await;
    for n in 0..3u16 {
        let bought = datetime!(2026-10-10 12:00 UTC) + time::Duration::minutes(i64::from(n));
        seed.flight_ticket(&lost_ticket(&player, terms, 1, 100 + n, bought))
            .await;
    }
    seed.flight_ticket(&lost_ticket(&player, terms, 2, 200, this_month().1))
        .await;
    player
}

/// `opinion admin flight finalize` of October for the first operator: its report id.
pub async fn finalize_october(app: &TestApp) -> String {
    let operator = app.operator.id.to_string();
    let finalized = admin(
        app,
        &["flight", "finalize", "--operator", &operator, "--period", "2026-10"],
    )
    .await;
    finalized["reportId"].as_str().expect("a report id").to_owned()
}

/// The body of an export of `path`, as bytes.
pub async fn export_bytes(app: &TestApp, path: &str, key: &str) -> (String, Vec<u8>) {
    let response = app.get(path, key).await;
    assert_eq!(response.status(), 200, "{path}");
    let content_type = response.headers()["content-type"].to_str().expect("ascii").to_owned();
    (content_type, response.bytes().await.expect("body").to_vec())
}

#[tokio::test]
async fn open_reports_are_computed_on_read_and_a_finalized_one_carries_its_signed_statement() {
    let app = spawn_app().await;
    given_two_periods(&app).await;
    let key = app.key_with(&["flight_settlements:read"]).await;

    let listed = json_with_status(app.get(REPORTS, &key).await, 200).await;
    let periods: Vec<&str> = listed["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|report| report["period"].as_str().expect("period"))
        .collect();
    assert_eq!(periods, [this_month().0.as_str(), "2026-10"]);
    let current = &listed["data"][0];
    assert_eq!(current["status"], "open");
    assert_eq!(current["id"], Value::Null);
    assert_eq!(current["blockers"][0]["code"], "period_open");
    let october = &listed["data"][1];
    assert_eq!(october["status"], "open");
    assert_eq!(october["blockers"], serde_json::json!([]));
    assert_eq!(october["ticketCount"], 3);
    assert_eq!(october["share"], "4500");
    assert_eq!(october["amountDue"], "4500");
    assert_eq!(october["direction"], "operator_to_platform");
    assert_eq!(october["dueDate"], "2026-11-16");
    assert_eq!(october["statementHash"], Value::Null);
    assert_problem(
        app.get(&format!("{REPORTS}/2026-10/export"), &key).await,
        409,
        "report_not_finalized",
    )
    .await;

    let report_id = finalize_october(&app).await;
    let by_id = json_with_status(app.get(&format!("{REPORTS}/{report_id}"), &key).await, 200).await;
    let by_period = json_with_status(app.get(&format!("{REPORTS}/2026-10"), &key).await, 200).await;
    assert_eq!(by_id, by_period);
    assert_eq!(by_id["status"], "finalized");
    assert_eq!(by_id["id"], report_id.as_str());
    assert_eq!(by_id["share"], "4500", "what was open is what was signed");
    assert_eq!(by_id["statement"]["document"]["reportId"], report_id.as_str());
    assert!(by_id["statementHash"].as_str().is_some_and(|hash| hash.len() == 64));
    let listed = json_with_status(app.get(&format!("{REPORTS}?limit=1"), &key).await, 200).await;
    assert_eq!(listed["hasMore"], true);
    let cursor = listed["nextCursor"].as_str().expect("a cursor");
    let next = json_with_status(app.get(&format!("{REPORTS}?limit=1&cursor={cursor}"), &key).await, 200).await;
    assert_eq!(next["data"][0]["id"], report_id.as_str());
    assert_eq!(next["hasMore"], false);
    assert!(
        next["data"][0].get("statement").is_none(),
        "a list item has no statement"
    );
}

#[tokio::test]
async fn the_export_serves_the_signed_statement_and_exactly_the_hashed_lines() {
    let app = spawn_app().await;
    given_two_periods(&app).await;
    let key = app.key_with(&["flight_settlements:read"]).await;
    let report_id = finalize_october(&app).await;
    let path = format!("{REPORTS}/{report_id}/export");

    let (content_type, whole) = export_bytes(&app, &path, &key).await;
    assert!(content_type.starts_with("application/json"), "{content_type}");
    let whole: Value = serde_json::from_slice(&whole).expect("one JSON document");
    let lines = whole["lines"].as_str().expect("the CSV as a string");
    let statement = &whole["statement"];
    assert_eq!(
        format!("{:x}", Sha256::digest(lines.as_bytes())),
        statement["document"]["linesSha256"].as_str().expect("hash")
    );
    assert!(lines.starts_with("ticketId,flightId,externalUserId,"), "{lines}");
    assert_eq!(lines.matches("\r\n").count(), 4, "a header and three lines: {lines}");

    let (content_type, csv) = export_bytes(&app, &format!("{path}?part=lines"), &key).await;
    assert!(content_type.starts_with("text/csv"), "{content_type}");
    assert_eq!(csv, lines.as_bytes());
    let (_, alone) = export_bytes(&app, &format!("{REPORTS}/2026-10/export?part=statement"), &key).await;
    let alone: Value = serde_json::from_slice(&alone).expect("JSON");
    assert_eq!(&alone, statement);
    let detail = json_with_status(app.get(&format!("{REPORTS}/{report_id}"), &key).await, 200).await;
    assert_eq!(&detail["statement"], statement);
}

#[tokio::test]
async fn another_operators_report_is_not_found_and_bad_addresses_are_refused() {
    let app = spawn_app().await;
    given_two_periods(&app).await;
    let report_id = finalize_october(&app).await;
    let other = app.new_operator("Other").await;
    let other_key = app.key_of(&other, &["flight_settlements:read"]).await;
    for path in [
        format!("{REPORTS}/{report_id}"),
        format!("{REPORTS}/{report_id}/export"),
    ] {
        assert_problem(app.get(&path, &other_key).await, 404, "not_found").await;
    }
    let listed = json_with_status(app.get(REPORTS, &other_key).await, 200).await;
    assert_eq!(listed["data"], serde_json::json!([]), "no ticket, no report");

    let key = app.key_with(&["flight_settlements:read"]).await;
    assert_problem(app.get(&format!("{REPORTS}/2099-01"), &key).await, 404, "not_found").await;
    for bad in ["2026-13", "october", "tkt_01jd8c7d3t0000000000000000"] {
        assert_problem(app.get(&format!("{REPORTS}/{bad}"), &key).await, 400, "invalid_id").await;
    }
    assert_problem(app.get(&format!("{REPORTS}?page=2"), &key).await, 400, "invalid_query").await;
    assert_problem(
        app.get(&format!("{REPORTS}/2026-10/export?part=all"), &key).await,
        400,
        "invalid_query",
    )
    .await;
    assert_problem(
        app.get(REPORTS, &app.key_with(&["flight:read"]).await).await,
        403,
        "insufficient_scope",
    )
    .await;
}
