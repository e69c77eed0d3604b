//! Statement corrections end to end: `opinion admin flight correct` signs a correction
//! chained after the statement, the report reads show the balance after it, the
//! corrections list serves it with its signed document (filtered by report, another
//! operator's never shown), its event carries exactly the documented data, and `opinion
//! admin statement verify` and the Python script verify it and catch its tampering.

use diesel::QueryableByName;
use diesel::sql_types::Text;
use diesel_async::RunQueryDsl;
use serde_json::{Value, json};

use crate::admin_settlement::{admin, admin_fails};
use crate::flight_db::connect;
use crate::flight_office_reports::{finalize_october, given_two_periods};
use crate::flight_office_verify::{export_to, published_keys, run_python, scratch};
use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};

const CORRECTIONS: &str = "/api/operator/flight/statement-corrections";

#[derive(QueryableByName)]
struct EventData {
    #[diesel(sql_type = Text)]
    data: String,
}

/// The `data` of every stored event of `event_type`, oldest first.
pub async fn events_data(app: &TestApp, event_type: &str) -> Vec<Value> {
    let mut conn = connect(app).await;
    let rows: Vec<EventData> =
        diesel::sql_query("SELECT data::text AS data FROM webhook_events WHERE event_type = $1 ORDER BY id")
            .bind::<Text, _>(event_type)
            .load(&mut conn)
            .await
            .expect("events");
    rows.iter()
        .map(|row| serde_json::from_str(&row.data).expect("JSON"))
        .collect()
}

/// `opinion admin flight correct` of the first operator's `report` by `change`.
pub async fn correct(app: &TestApp, report: &str, change: &str) -> Value {
    let operator = app.operator.id.to_string();
    admin(
        app,
        &[
            "flight",
            "correct",
            "--operator",
            &operator,
            "--report",
            report,
            "--amount-change",
            change,
            "--reason",
            "a reviewed ticket resolved as not applied",
            "--by",
            "Ana",
        ],
    )
    .await
}

fn path(file: &std::path::Path) -> &str {
    file.to_str().expect("a UTF-8 path")
}

#[tokio::test]
async fn a_correction_is_signed_chained_listed_announced_and_moves_the_reports_balance() {
    let app = spawn_app().await;
    given_two_periods(&app).await;
    let report = finalize_october(&app).await;
    let operator = app.operator.id.to_string();

    let issued = correct(&app, "2026-10", "-1500").await;
    let id = issued["correctionId"].as_str().expect("id").to_owned();
    assert!(id.starts_with("fsc_"), "{issued}");
    assert_eq!(issued["reportId"], report.as_str());
    assert_eq!(issued["issuedBy"], "Ana");
    let document = &issued["document"]["document"];
    assert_eq!(document["type"], "flight_statement_correction");
    assert_eq!(document["proofVersion"], 5);
    assert_eq!(document["amountChange"], json!({"amount": "-1500", "currency": "IDR"}));
    assert_eq!(
        document["amountDueBefore"],
        json!({"amount": "4500", "currency": "IDR"})
    );
    assert_eq!(document["amountDue"], json!({"amount": "3000", "currency": "IDR"}));
    assert_eq!(document["direction"], "operator_to_platform");
    assert_eq!(document["sequence"], 2);
    assert_eq!(document["statementSequence"], 1);

    let key = app.key_with(&["flight_settlements:read"]).await;
    let read = json_with_status(
        app.get(&format!("/api/operator/flight/settlement-reports/{report}"), &key)
            .await,
        200,
    )
    .await;
    assert_eq!(read["amountDue"], "4500", "the statement's own figures never change");
    assert_eq!(
        read["balance"],
        json!({
            "corrections": "-1500",
            "correctedAmountDue": "3000",
            "correctedDirection": "operator_to_platform",
            "paidToPlatform": "0",
            "paidToOperator": "0",
            "remainingDue": "3000",
            "remainingDirection": "operator_to_platform",
        })
    );
    let listed = json_with_status(app.get("/api/operator/flight/settlement-reports", &key).await, 200).await;
    let october = listed["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|r| r["period"] == "2026-10")
        .expect("october");
    assert_eq!(october["balance"]["remainingDue"], "3000");
    let open = listed["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|r| r["status"] == "open")
        .expect("an open report");
    assert_eq!(open["balance"], Value::Null);

    let page = json_with_status(app.get(CORRECTIONS, &key).await, 200).await;
    let item = &page["data"][0];
    assert_eq!(item["id"], id.as_str());
    assert_eq!(item["amountChange"], "-1500");
    assert_eq!(item["currency"], "IDR");
    assert_eq!(item["sequence"], 2);
    assert_eq!(item["document"], issued["document"]);
    assert_eq!(page["hasMore"], false);
    let filtered = json_with_status(app.get(&format!("{CORRECTIONS}?reportId={report}"), &key).await, 200).await;
    assert_eq!(filtered["data"].as_array().map(Vec::len), Some(1));
    let unknown = json_with_status(
        app.get(&format!("{CORRECTIONS}?reportId=fsr_01jdz3qv6mz8x5c0a2t5d4e7h7"), &key)
            .await,
        200,
    )
    .await;
    assert_eq!(unknown["data"], json!([]));
    assert_problem(
        app.get(&format!("{CORRECTIONS}?reportId=nope"), &key).await,
        400,
        "validation_failed",
    )
    .await;
    assert_problem(
        app.get(&format!("{CORRECTIONS}?period=2026-10"), &key).await,
        400,
        "invalid_query",
    )
    .await;
    let other = app.new_operator("Other").await;
    let theirs = app.key_of(&other, &["flight_settlements:read"]).await;
    let none = json_with_status(app.get(CORRECTIONS, &theirs).await, 200).await;
    assert_eq!(none["data"], json!([]));
    let narrow = app.key_with(&["flight:read"]).await;
    assert_problem(app.get(CORRECTIONS, &narrow).await, 403, "insufficient_scope").await;

    let events = events_data(&app, "mini_app.flight.statement_correction.issued").await;
    assert_eq!(
        events,
        [json!({
            "correctionId": id,
            "reportId": report,
            "statementHash": read["statementHash"],
            "amountChange": "-1500",
            "currency": "IDR",
            "reason": "a reviewed ticket resolved as not applied",
            "issuedAt": document["issuedAt"],
        })]
    );

    let refused = admin_fails(
        &app,
        &[
            "flight",
            "correct",
            "--operator",
            &operator,
            "--report",
            "2026-11",
            "--amount-change",
            "10",
            "--reason",
            "why",
            "--by",
            "Ana",
        ],
    )
    .await;
    assert!(refused.contains("open"), "{refused}");
    let zero = admin_fails(
        &app,
        &[
            "flight",
            "correct",
            "--operator",
            &operator,
            "--report",
            &report,
            "--amount-change",
            "0",
            "--reason",
            "why",
            "--by",
            "Ana",
        ],
    )
    .await;
    assert!(zero.contains("amountChange"), "{zero}");
    let elsewhere = admin_fails(
        &app,
        &[
            "flight",
            "correct",
            "--operator",
            &other.id.to_string(),
            "--report",
            &report,
            "--amount-change",
            "10",
            "--reason",
            "why",
            "--by",
            "Ana",
        ],
    )
    .await;
    assert!(elsewhere.contains("not found"), "{elsewhere}");
    assert_eq!(
        events_data(&app, "mini_app.flight.statement_correction.issued")
            .await
            .len(),
        1
    );
}

#[tokio::test]
async fn a_listed_correction_verifies_after_its_statement_and_its_tampering_is_caught() {
    let app = spawn_app().await;
    given_two_periods(&app).await;
    let report = finalize_october(&app).await;
    correct(&app, &report, "250").await;
    let dir = scratch("corrections");
    let keys = published_keys(&app, &dir).await;
    let statement = export_to(&app, &report, "", &dir, "october.json").await;
    let key = app.key_with(&["flight_settlements:read"]).await;
    let page = json_with_status(app.get(CORRECTIONS, &key).await, 200).await;
    let listed = dir.join("correction.json");
    std::fs::write(&listed, serde_json::to_vec(&page["data"][0]).expect("JSON")).expect("written");

    let verified = admin(
        &app,
        &["statement", "verify", path(&listed), "--previous", path(&statement)],
    )
    .await;
    assert_eq!(verified["type"], "flight_statement_correction");
    assert_eq!(verified["lines"], "none named");
    assert_eq!(verified["chain"], "follows the previous document");
    assert_eq!(verified["amends"], page["data"][0]["statementHash"]);

    let mut changed = page["data"][0].clone();
    changed["document"]["document"]["amountChange"]["amount"] = "-250".into();
    let tampered = dir.join("tampered.json");
    std::fs::write(&tampered, serde_json::to_vec(&changed).expect("JSON")).expect("written");
    let refused = admin_fails(&app, &["statement", "verify", path(&tampered)]).await;
    assert!(refused.contains("signature: the signature does not match"), "{refused}");
    let out_of_order = admin_fails(
        &app,
        &["statement", "verify", path(&statement), "--previous", path(&listed)],
    )
    .await;
    assert!(out_of_order.contains("chain:"), "{out_of_order}");

    for (file, ok) in [(&listed, true), (&tampered, false)] {
        let output = run_python(&[path(file), "--keys", path(&keys), "--previous", path(&statement)]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.success(), ok, "{stdout}");
        assert_eq!(stdout.contains("FAIL"), !ok, "{stdout}");
    }
    std::fs::remove_dir_all(dir).ok();
}
