//! The flight product's wallet operations share the wallet engine's table with
//! Opinion's, but not Opinion's reads: `GET /api/operator/balance-operations` lists
//! Opinion's flows only, and platform staff's review list shows a flight operation with
//! its flight and ticket (resolving one is `admin_review_flight.rs`).

use opinion_testkit::FlightOperationSeed;
use serde_json::json;

use crate::admin_settlement::admin;
use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::trading_seed::*;

/// A flight ticket purchase of `player`, waiting for manual review; its operation id.
async fn given_flight_operation(app: &TestApp) -> String {
    let mut seed = seeder(app).await;
    let player = user(&app.operator, 1, "player-1", at(1));
    seed.user(&player).await;
    let traded = market_id(2, at(2));
    seed.market(&market(2, "Will it rain?", at(2))).await;
    let bought = trade(&app.operator, 3, &player, traded, at(3));
    seed.trade(&bought).await;
    seed.wallet_operation(&buy_operation(&bought, "player-1")).await;
    let id = opinion_testkit::ulid_at(at(5), 5);
    seed.flight_wallet_operation(&FlightOperationSeed {
        operator: bits(&app.operator),
        id,
        user: player.id,
        external_user_id: "player-1".into(),
        flow: "flight_ticket_purchase",
        flight: opinion_testkit::ulid_at(at(4), 4),
        ticket: opinion_testkit::ulid_at(at(5), 6),
        amount: 25_000,
        metadata: json!({"flightId": "flt_x", "ticketId": "tkt_x", "autoCashOut": "none"}),
        state: "manual_review",
        created_at: at(5),
    })
    .await;
    format!("wop_{}", ulid::Ulid(id).to_string().to_lowercase())
}

#[tokio::test]
async fn balance_operations_list_opinions_operations_only() {
    let app = spawn_app().await;
    let flight = given_flight_operation(&app).await;
    let key = app.key_with(&["balance_operations:read"]).await;

    let listed = json_with_status(app.get("/api/operator/balance-operations", &key).await, 200).await;
    let flows: Vec<&str> = listed["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter_map(|operation| operation["flow"].as_str())
        .collect();
    assert_eq!(flows, ["buy"], "{listed:#}");
    assert!(!listed.to_string().contains(&flight), "{listed:#}");
    let in_review = json_with_status(
        app.get("/api/operator/balance-operations?state=manual_review", &key)
            .await,
        200,
    )
    .await;
    assert_eq!(in_review["data"], json!([]));
    let problem = assert_problem(
        app.get("/api/operator/balance-operations?flow=flight_ticket_purchase", &key)
            .await,
        400,
        "validation_failed",
    )
    .await;
    assert_eq!(problem["field"], "flow");
}

#[tokio::test]
async fn staff_see_a_flight_operation_in_review_with_its_flight_and_ticket() {
    let app = spawn_app().await;
    let flight = given_flight_operation(&app).await;

    let listed = admin(&app, &["review", "list"]).await;
    let operation = listed["data"]
        .as_array()
        .expect("data")
        .iter()
        .find(|operation| operation["id"] == flight.as_str())
        .cloned()
        .unwrap_or_else(|| panic!("{flight} is not listed: {listed:#}"));
    assert_eq!(operation["flow"], "flight_ticket_purchase");
    assert_eq!(operation["currency"], "IDR");
    assert!(
        operation["ticketId"].as_str().is_some_and(|id| id.starts_with("tkt_")),
        "{operation}"
    );
    assert!(
        operation["flightId"].as_str().is_some_and(|id| id.starts_with("flt_")),
        "{operation}"
    );
    assert!(operation.get("marketId").is_none(), "{operation}");
}
