//! `opinion admin review` with the flight product's operations: a ticket whose debit's
//! answer was lost is listed and shown with its ticket, and resolving it settles the
//! ticket in the same step (found applied: refunded by the money worker, since the
//! ticket never flew; found not applied: rejected with no money moved).

use serde_json::{Value, json};

use crate::admin_settlement::{admin, admin_fails};
use crate::flight_support::{boarding_flight, enable_flight, flight_player, spawn_flight_app};
use crate::helpers::{TestApp, json_with_status};
use crate::simulator_support::operate;

const PLAYER: &str = "dewi";

/// An enabled operator's player whose next debit is applied but answered by a dropped
/// connection; returns the ticket it bought (in review) and the simulated user's id.
async fn ticket_in_review(app: &TestApp) -> (Value, String) {
    enable_flight(app, &app.operator).await;
    let body = json!({"externalUserId": PLAYER, "currency": "IDR", "startingBalance": "100000"});
    let user = json_with_status(
        app.post("/api/operator/simulator/users", &app.operator.key, &body)
            .await,
        201,
    )
    .await;
    let user_id = user["id"].as_str().expect("id").to_owned();
    let faults = json!({"operation": "inject_faults", "faults": [{"kind": "dropped_connection"}]});
    operate(app, &app.operator.key, &user_id, &faults).await;
    let session = flight_player(app, &app.operator, PLAYER).await;
    boarding_flight(app, &session).await;
    let order = json!({"clientTicketId": "t-1", "stake": "10000"});
    let ticket = json_with_status(app.post("/api/player/flight/tickets", &session, &order).await, 200).await;
    assert_eq!(ticket["status"], "review", "{ticket}");
    (ticket, user_id)
}

async fn balance(app: &TestApp) -> String {
    let wallet = json_with_status(
        app.get(&format!("/api/operator/simulator/wallets/{PLAYER}"), &app.operator.key)
            .await,
        200,
    )
    .await;
    wallet["balance"].as_str().expect("balance").to_owned()
}

/// The purchase operation in review, from `review list`.
async fn operation_in_review(app: &TestApp, ticket: &Value) -> String {
    let listed = admin(app, &["review", "list"]).await;
    let operations = listed["data"].as_array().expect("data");
    assert_eq!(operations.len(), 1, "{listed}");
    let operation = &operations[0];
    assert_eq!(operation["flow"], "flight_ticket_purchase", "{operation}");
    assert_eq!(operation["ticketId"], ticket["id"], "{operation}");
    assert_eq!(operation["flightId"], ticket["flightId"], "{operation}");
    operation["id"].as_str().expect("id").to_owned()
}

#[tokio::test]
async fn a_flight_debit_found_applied_is_resolved_with_its_ticket_and_refunded() {
    let app = spawn_flight_app().await;
    let (ticket, _) = ticket_in_review(&app).await;
    assert_eq!(balance(&app).await, "90000", "the dropped debit was applied");
    let operation = operation_in_review(&app, &ticket).await;

    let shown = admin(&app, &["review", "show", "--operation", &operation]).await;
    assert_eq!(shown["ticket"]["id"], ticket["id"], "{shown}");
    assert_eq!(shown["ticket"]["status"], "review", "{shown}");

    let resolved = admin(
        &app,
        &[
            "review",
            "resolve",
            "--operation",
            &operation,
            "--applied",
            "--remote-reference",
            "sim-tx-1",
            "--by",
            "Ana",
            "--note",
            "the simulator's log shows the debit",
        ],
    )
    .await;
    assert_eq!(resolved["operation"]["state"], "resolved_applied", "{resolved}");
    assert_eq!(resolved["ticket"]["status"], "refunding", "{resolved}");
    assert_eq!(resolved["ticket"]["refundReason"], "review", "{resolved}");

    app.flight.run_money_pass().await.expect("money pass");
    assert_eq!(balance(&app).await, "100000", "the stake came back once");
    let after = admin(&app, &["review", "list"]).await;
    assert_eq!(after["data"], json!([]), "{after}");
    let again = admin_fails(
        &app,
        &[
            "review",
            "resolve",
            "--operation",
            &operation,
            "--not-applied",
            "--by",
            "Ana",
            "--note",
            "second thoughts",
        ],
    )
    .await;
    assert!(again.contains("cannot take a staff resolution"), "{again}");
}

#[tokio::test]
async fn a_flight_debit_found_not_applied_rejects_its_ticket() {
    let app = spawn_flight_app().await;
    let (ticket, _) = ticket_in_review(&app).await;
    let operation = operation_in_review(&app, &ticket).await;

    let resolved = admin(
        &app,
        &[
            "review",
            "resolve",
            "--operation",
            &operation,
            "--not-applied",
            "--by",
            "Ana",
            "--note",
            "no such entry in the wallet's log",
        ],
    )
    .await;
    assert_eq!(resolved["operation"]["state"], "resolved_not_applied", "{resolved}");
    assert_eq!(resolved["ticket"]["status"], "rejected", "{resolved}");
    app.flight.run_money_pass().await.expect("money pass");
    assert_eq!(
        balance(&app).await,
        "90000",
        "no refund follows a finding of not applied"
    );
}
