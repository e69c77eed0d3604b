//! The flight product's operator reads over HTTP: flights as anyone may see them (and
//! straight into the operator's verification script), the operator's own tickets with
//! their frozen share, the overview, the flight wallet operations and the CSV exports.

use opinion_testkit::{FlightOperationSeed, TicketSeed, ulid_at};
use serde_json::{Value, json};

use crate::fairness_script::run_verifier;
use crate::flight_reads_seed::*;
use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::trading_seed::at;

/// The rows of a CSV export, after checking its answer.
async fn csv_of(app: &TestApp, path: &str, key: &str) -> (Vec<String>, Vec<csv::StringRecord>) {
    let response = app.get(path, key).await;
    assert_eq!(response.status().as_u16(), 200);
    let content_type = response.headers()["content-type"].to_str().expect("text").to_owned();
    assert_eq!(content_type, "text/csv; charset=utf-8");
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .expect("text")
        .to_owned();
    assert!(disposition.starts_with("attachment"), "{disposition}");
    let body = response.text().await.expect("body");
    let mut reader = csv::Reader::from_reader(body.as_bytes());
    let header = reader.headers().expect("header").iter().map(str::to_owned).collect();
    let rows = reader
        .records()
        .collect::<Result<Vec<_>, _>>()
        .expect("well-formed CSV");
    (header, rows)
}

/// The JSON of a list item as the CSV writes it: strings as they are, numbers as text,
/// null as an empty field.
fn as_csv_field(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[tokio::test]
async fn flights_show_their_fairness_data_once_crashed_and_a_page_verifies() {
    let app = spawn_app().await;
    let chain = Chain::new();
    given_flights(&mut crate::trading_seed::seeder(&app).await, &chain, 3).await;
    let key = app.key_with(&["flight:read"]).await;

    let page = json_with_status(app.get("/api/operator/flight/flights", &key).await, 200).await;
    let flights = page["data"].as_array().expect("data");
    let numbers: Vec<u64> = flights.iter().filter_map(|flight| flight["number"].as_u64()).collect();
    assert_eq!(numbers, [4, 3, 2, 1]);
    let flying = &flights[0];
    assert_eq!(flying["phase"], "in_flight");
    assert_eq!(
        (&flying["crashPoint"], &flying["seed"], &flying["crashedAt"]),
        (&Value::Null, &Value::Null, &Value::Null)
    );
    assert!(
        !page.to_string().contains(&chain.seed(4).to_hex()),
        "flight 4's seed leaked"
    );
    let crashed = &flights[1];
    assert_eq!(crashed["crashPoint"], chain.crash_point(3).as_str());
    assert_eq!(crashed["seed"], chain.seed(3).to_hex().as_str());
    assert_eq!(crashed["commitment"], chain.commitment().as_str());
    assert_eq!(crashed["salt"], SALT);
    assert_eq!(crashed["chainLength"], 10);
    assert!(crashed["crashedAt"].is_string());

    let output = run_verifier(
        &["--commitment", &chain.commitment(), "--salt", SALT],
        &page.to_string(),
    );
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for number in 1..=3 {
        assert!(stdout.contains(&format!("OK   flight {number}:")), "{stdout}");
    }
    assert!(stdout.contains("SKIP flight 4"), "{stdout}");

    let one = json_with_status(
        app.get(&format!("/api/operator/flight/flights/{}", flight_id(2)), &key)
            .await,
        200,
    )
    .await;
    assert_eq!(one["crashPoint"], chain.crash_point(2).as_str());
    assert_eq!(one["operatorTotals"]["tickets"], 0);
    assert_eq!(one["operatorTotals"]["currency"], "IDR");

    let (header, rows) = csv_of(&app, "/api/operator/flight/flights/export", &key).await;
    assert_eq!(header.first().map(String::as_str), Some("id"));
    assert_eq!(rows.len(), 4);
    for (row, flight) in rows.iter().zip(flights) {
        for (column, field) in header.iter().zip(row.iter()) {
            assert_eq!(field, as_csv_field(&flight[column.as_str()]), "{column}");
        }
    }
    let windowed = json_with_status(
        app.get(
            &format!(
                "/api/operator/flight/flights?from={}&to={}",
                "2026-11-22T10:02:00Z", "2026-11-22T10:04:00Z"
            ),
            &key,
        )
        .await,
        200,
    )
    .await;
    let numbers: Vec<u64> = windowed["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter_map(|f| f["number"].as_u64())
        .collect();
    assert_eq!(numbers, [3, 2]);
}

#[tokio::test]
async fn tickets_are_the_operators_own_with_their_frozen_share_and_export_like_the_list() {
    let app = spawn_app().await;
    let (mut seed, _chain, player, terms) = given_game(&app).await;
    let cashed_out = TicketSeed {
        status: "cashed_out",
        cash_out: Some(200),
        payout: Some(20_000),
        ..lost_ticket(&player, terms, 3, 2, at(181))
    };
    seed.flight_ticket(&lost_ticket(&player, terms, 1, 1, at(61))).await;
    seed.flight_ticket(&cashed_out).await;
    let other = app.new_operator("Other operator").await;
    let other_terms = given_terms(&mut seed, &other).await;
    let stranger = given_player(&mut seed, &other, 2, "p-1").await;
    let foreign = lost_ticket(&stranger, other_terms, 1, 3, at(62));
    seed.flight_ticket(&foreign).await;
    let key = app.key_with(&["flight:read", "flight_terms:read"]).await;

    let page = json_with_status(app.get("/api/operator/flight/tickets", &key).await, 200).await;
    let tickets = page["data"].as_array().expect("data");
    assert_eq!(tickets.len(), 2, "{page:#}");
    let newest = &tickets[0];
    assert_eq!(newest["id"], ticket_id(cashed_out.id).as_str());
    assert_eq!(newest["shareBps"], 1500);
    assert_eq!(newest["stake"], "10000");
    assert_eq!(newest["currency"], "IDR");
    assert_eq!(newest["autoCashOut"], "2.00");
    assert_eq!(newest["status"], "cashed_out");
    assert_eq!(newest["cashOutMultiplier"], "2.00");
    assert_eq!(newest["payout"], "20000");
    assert_eq!(newest["refundReason"], Value::Null);
    assert_eq!(newest["flightId"], flight_id(3).as_str());

    let filtered = json_with_status(
        app.get(
            &format!(
                "/api/operator/flight/tickets?flightId={}&externalUserId=p-1&status=lost",
                flight_id(1)
            ),
            &key,
        )
        .await,
        200,
    )
    .await;
    assert_eq!(filtered["data"].as_array().map(Vec::len), Some(1), "{filtered:#}");
    let first = json_with_status(app.get("/api/operator/flight/tickets?limit=1", &key).await, 200).await;
    let cursor = first["nextCursor"].as_str().expect("a next page");
    let second = json_with_status(
        app.get(&format!("/api/operator/flight/tickets?limit=1&cursor={cursor}"), &key)
            .await,
        200,
    )
    .await;
    assert_eq!(second["data"][0]["id"], tickets[1]["id"]);
    assert_eq!(second["hasMore"], false);

    let detail = json_with_status(
        app.get(
            &format!("/api/operator/flight/tickets/{}", ticket_id(cashed_out.id)),
            &key,
        )
        .await,
        200,
    )
    .await;
    assert_eq!(detail["shareBps"], 1500);
    assert_eq!(detail["flight"]["id"], flight_id(3).as_str());
    assert_problem(
        app.get(&format!("/api/operator/flight/tickets/{}", ticket_id(foreign.id)), &key)
            .await,
        404,
        "not_found",
    )
    .await;

    let (header, rows) = csv_of(&app, "/api/operator/flight/tickets/export", &key).await;
    assert_eq!(rows.len(), 2);
    for (row, ticket) in rows.iter().zip(tickets) {
        for (column, field) in header.iter().zip(row.iter()) {
            assert_eq!(field, as_csv_field(&ticket[column.as_str()]), "{column}");
        }
    }
    let (_, lost) = csv_of(&app, "/api/operator/flight/tickets/export?status=lost", &key).await;
    assert_eq!(lost.len(), 1);
}

#[tokio::test]
async fn a_large_ticket_export_is_complete_and_newest_first() {
    const TICKETS: u16 = 5_000;
    let app = spawn_app().await;
    let (mut seed, _chain, player, terms) = given_game(&app).await;
    for n in 1..=TICKETS {
        let bought = at(61) + time::Duration::milliseconds(i64::from(n));
        seed.flight_ticket(&lost_ticket(&player, terms, 1, n, bought)).await;
    }
    let key = app.key_with(&["flight:read", "flight_terms:read"]).await;

    let (_, rows) = csv_of(&app, "/api/operator/flight/tickets/export", &key).await;
    let ids: Vec<&str> = rows.iter().map(|row| row.get(0).expect("id")).collect();
    let expected: Vec<String> = (1..=TICKETS)
        .rev()
        .map(|n| ticket_id(ulid_at(at(61) + time::Duration::milliseconds(i64::from(n)), n)))
        .collect();
    assert_eq!(ids.len(), usize::from(TICKETS));
    assert!(
        ids.iter().zip(&expected).all(|(id, want)| id == want),
        "out of order or incomplete"
    );
}

#[tokio::test]
async fn the_overview_sums_the_operators_money_and_hides_the_live_crash_point() {
    let app = spawn_app().await;
    let (mut seed, chain, player, terms) = given_game(&app).await;
    let cashed_out = TicketSeed {
        status: "cashed_out",
        cash_out: Some(346),
        payout: Some(34_600),
        ..lost_ticket(&player, terms, 1, 1, at(61))
    };
    let refunded = TicketSeed {
        status: "refunded",
        auto_cash_out: None,
        refund_reason: Some("boarding_closed"),
        stake: 5_000,
        ..lost_ticket(&player, terms, 2, 3, at(121))
    };
    seed.flight_ticket(&cashed_out).await;
    seed.flight_ticket(&lost_ticket(&player, terms, 1, 2, at(62))).await;
    seed.flight_ticket(&refunded).await;
    let key = app.key_with(&["flight:read"]).await;

    let window = "from=2026-11-22T10:00:00Z&to=2026-11-22T11:00:00Z";
    let overview = json_with_status(
        app.get(&format!("/api/operator/flight/overview?{window}"), &key).await,
        200,
    )
    .await;
    assert_eq!(overview["enabled"], false);
    assert_eq!(overview["terms"]["shareBps"], 1500);
    assert_eq!(overview["terms"]["currency"], "IDR");
    assert_eq!(
        overview["totals"],
        json!({"tickets": 3, "players": 1, "unsettledTickets": 0, "stakes": "25000", "payouts": "34600",
               "refunds": "5000", "ggr": "-14600", "currency": "IDR"})
    );
    assert_eq!(overview["window"]["from"], "2026-11-22T10:00:00Z");
    let live = &overview["liveFlight"];
    assert_eq!(live["number"], 4);
    assert_eq!((&live["crashPoint"], &live["seed"]), (&Value::Null, &Value::Null));
    assert!(!overview.to_string().contains(&chain.seed(4).to_hex()));
    assert!(overview.get("productionAuthorized").is_none());

    let current = json_with_status(app.get("/api/operator/flight/overview", &key).await, 200).await;
    assert!(
        current["window"]["from"]
            .as_str()
            .is_some_and(|from| from.ends_with("-01T00:00:00Z")),
        "{current}"
    );
}

#[tokio::test]
async fn flight_wallet_operations_list_the_flight_flows_only() {
    let app = spawn_app().await;
    let (mut seed, _chain, player, terms) = given_game(&app).await;
    let ticket = lost_ticket(&player, terms, 1, 1, at(61));
    seed.flight_ticket(&ticket).await;
    let operation = |n: u16, flow: &'static str, state: &'static str| FlightOperationSeed {
        operator: player.operator,
        id: ulid_at(at(61 + i64::from(n)), 700 + n),
        user: player.id,
        external_user_id: "p-1".into(),
        flow,
        flight: flight_bits(1),
        ticket: ticket.id,
        amount: 10_000,
        metadata: json!({"flightId": flight_id(1), "ticketId": ticket_id(ticket.id), "autoCashOut": "2.00"}),
        state,
        created_at: at(61 + i64::from(n)),
    };
    seed.flight_wallet_operation(&operation(1, "flight_ticket_purchase", "applied"))
        .await;
    seed.flight_wallet_operation(&operation(2, "flight_ticket_payout", "manual_review"))
        .await;
    let key = app.key_with(&["flight:read", "balance_operations:read"]).await;

    let page = json_with_status(app.get("/api/operator/flight/wallet-operations", &key).await, 200).await;
    let flows: Vec<&str> = page["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter_map(|o| o["flow"].as_str())
        .collect();
    assert_eq!(flows, ["flight_ticket_payout", "flight_ticket_purchase"]);
    let first = &page["data"][1];
    assert_eq!(first["currency"], "IDR");
    assert_eq!(first["ticketId"], ticket_id(ticket.id).as_str());
    assert_eq!(first["flightId"], flight_id(1).as_str());
    assert!(first.get("marketId").is_none());
    let in_review = json_with_status(
        app.get(
            &format!(
                "/api/operator/flight/wallet-operations?state=manual_review&ticketId={}&includeSteps=true",
                ticket_id(ticket.id)
            ),
            &key,
        )
        .await,
        200,
    )
    .await;
    assert_eq!(in_review["data"].as_array().map(Vec::len), Some(1));
    assert!(in_review["data"][0]["steps"].is_array());
    let opinion = json_with_status(app.get("/api/operator/balance-operations", &key).await, 200).await;
    assert_eq!(opinion["data"], json!([]));
}

#[tokio::test]
async fn delivery_evidence_lists_the_flight_events_deliveries_only() {
    let app = spawn_app().await;
    let endpoint = crate::webhooks_support::register(
        &app,
        &app.operator,
        "https://receiver.example.invalid/",
        &["mini_app.flight.ticket.lost", "mini_app.webhook_endpoint.disabled"],
    )
    .await;
    crate::webhooks_support::emit_events(&app, 1).await;
    let endpoint_bits = endpoint
        .id
        .strip_prefix("whe_")
        .and_then(|id| ulid::Ulid::from_string(&id.to_uppercase()).ok())
        .expect("an endpoint id")
        .0;
    let now = time::OffsetDateTime::now_utc();
    crate::trading_seed::seeder(&app)
        .await
        .event_delivery(&opinion_testkit::DeliverySeed {
            operator: app.operator.id.as_u128(),
            endpoint: endpoint_bits,
            event: ulid_at(now, 1),
            delivery: ulid_at(now, 2),
            event_type: "mini_app.flight.ticket.lost",
            created_at: now,
        })
        .await;
    let key = app.key_with(&["flight:read", "webhooks:read"]).await;

    let all = json_with_status(
        app.get("/api/operator/webhooks/deliveries", &app.operator.key).await,
        200,
    )
    .await;
    assert!(all["data"].as_array().is_some_and(|data| data.len() >= 2), "{all:#}");
    let evidence = json_with_status(app.get("/api/operator/flight/webhook-deliveries", &key).await, 200).await;
    let types: Vec<&str> = evidence["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter_map(|d| d["eventType"].as_str())
        .collect();
    assert_eq!(types, ["mini_app.flight.ticket.lost"]);
    assert_eq!(evidence["data"][0]["endpointId"], endpoint.id.as_str());
    let lost = json_with_status(
        app.get(
            "/api/operator/flight/webhook-deliveries?eventType=mini_app.flight.ticket.lost&status=pending",
            &key,
        )
        .await,
        200,
    )
    .await;
    assert_eq!(lost["data"].as_array().map(Vec::len), Some(1));
}
