//! The staging simulator plays the flight product over HTTP: an IDR simulated user buys a
//! ticket on the next boarding flight, cashes it out or loses it, through the same use
//! cases as a player's page, its money moving in the simulated wallet; faults on the
//! debit end as the engine decides (review, refund, refusal); a user in another currency
//! and an operator not enabled are refused; bad input is a 400 that runs nothing.

use serde_json::{Value, json};

use crate::flight_support::{enable_flight, spawn_flight_app, spawn_flight_app_boarding};
use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::simulator_support::{connect, operate, step};

/// Creates a simulated user whose wallet is in `currency` and answers its id.
async fn user_in(app: &TestApp, external_user_id: &str, currency: &str, balance: i64) -> String {
    let body = json!({
        "externalUserId": external_user_id,
        "currency": currency,
        "startingBalance": balance.to_string(),
    });
    let user = json_with_status(
        app.post("/api/operator/simulator/users", &app.operator.key, &body)
            .await,
        201,
    )
    .await;
    user["id"].as_str().expect("id").to_owned()
}

/// The simulated wallet of `external_user_id`: its balance and its log, newest first.
async fn wallet(app: &TestApp, external_user_id: &str) -> Value {
    let path = format!("/api/operator/simulator/wallets/{external_user_id}");
    json_with_status(app.get(&path, &app.operator.key).await, 200).await
}

/// The operator's read of one ticket.
async fn ticket(app: &TestApp, id: &str) -> Value {
    let path = format!("/api/operator/flight/tickets/{id}");
    json_with_status(app.get(&path, &app.operator.key).await, 200).await
}

fn ids(report: &Value, name: &str) -> Value {
    step(report, name)["ids"].clone()
}

fn amount(value: &Value) -> i64 {
    value
        .as_str()
        .and_then(|text| text.parse().ok())
        .expect("an integer string")
}

#[tokio::test]
async fn an_idr_simulated_user_buys_a_ticket_and_cashes_it_out_with_its_payout_in_the_wallet() {
    let app = spawn_flight_app().await;
    enable_flight(&app, &app.operator).await;
    let user = user_in(&app, "sim-rina", "IDR", 100_000).await;
    let mut balance = 100_000;
    // A flight crashing at 1.01x or below takes the ticket before any cash-out can win.
    for attempt in 0..5 {
        let body = json!({"operation": "buy_ticket", "stake": "10000", "clientTicketId": format!("rina-{attempt}")});
        let bought = operate(&app, &app.operator.key, &user, &body).await;
        assert_eq!(bought["completed"], true, "{bought:#}");
        assert_eq!(ids(&bought, "launch")["product"], "flight");
        let ticket_ids = ids(&bought, "buy_ticket");
        assert_eq!(ticket_ids["status"], "active", "{bought:#}");
        assert_eq!(ticket_ids["flightId"], ids(&bought, "wait_for_boarding")["flightId"]);
        balance -= 10_000;
        assert_eq!(amount(&ids(&bought, "wallet")["balance"]), balance);

        let body = json!({"operation": "cash_out", "ticketId": ticket_ids["ticketId"]});
        let cashed = operate(&app, &app.operator.key, &user, &body).await;
        let cash_out = step(&cashed, "cash_out");
        if cash_out["outcome"] == "failed" {
            assert_eq!(cash_out["ids"]["code"], "flight_crashed", "{cashed:#}");
            continue;
        }
        assert_eq!(cashed["completed"], true, "{cashed:#}");
        let payout = amount(&cash_out["ids"]["payout"]);
        assert!(payout >= 10_100, "at least 1.01x: {cashed:#}");
        assert_eq!(ids(&cashed, "settle")["status"], "cashed_out");
        balance += payout;
        assert_eq!(amount(&ids(&cashed, "wallet")["balance"]), balance, "paid at once");

        let read = ticket(&app, ticket_ids["ticketId"].as_str().expect("id")).await;
        assert_eq!(read["status"], "cashed_out", "{read:#}");
        assert_eq!(read["cashOutMultiplier"], cash_out["ids"]["cashOut"], "{read:#}");
        let log = wallet(&app, "sim-rina").await["log"].clone();
        assert_eq!(log[0]["flow"], "flight_ticket_payout", "{log:#}");
        assert_eq!(log[0]["idempotencyKey"], cash_out["ids"]["payoutIdempotencyKey"]);
        assert_eq!(log[0]["currency"], "IDR");
        assert_eq!(log[1]["flow"], "flight_ticket_purchase", "{log:#}");
        assert_eq!(log[1]["idempotencyKey"], ticket_ids["idempotencyKey"]);
        return;
    }
    panic!("five flights in a row crashed at 1.01x or below");
}

#[tokio::test]
async fn a_flight_played_to_a_target_it_does_not_reach_loses_the_stake() {
    let app = spawn_flight_app().await;
    enable_flight(&app, &app.operator).await;
    let user = user_in(&app, "sim-budi", "IDR", 50_000).await;
    let body = json!({"operation": "play_flight", "stake": "5000", "cashOutAt": "100.00"});
    let played = operate(&app, &app.operator.key, &user, &body).await;
    assert_eq!(played["completed"], true, "{played:#}");
    let bought = ids(&played, "buy_ticket");
    assert_eq!(
        bought["autoCashOut"],
        Value::Null,
        "cashed out by hand, not automatically"
    );
    let settled = ids(&played, "settle");
    let balance = amount(&ids(&played, "wallet")["balance"]);
    if played["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .any(|s| s["step"] == "crashed")
    {
        assert_eq!(settled["status"], "lost", "{played:#}");
        assert_eq!(balance, 45_000);
        let read = ticket(&app, bought["ticketId"].as_str().expect("id")).await;
        assert_eq!(read["status"], "lost", "{read:#}");
    } else {
        // One flight in a hundred reaches 100.00x: then the play wins at least that.
        assert_eq!(settled["status"], "cashed_out", "{played:#}");
        assert!(balance >= 45_000 + 500_000, "{played:#}");
    }
}

#[tokio::test]
async fn faults_on_the_debit_end_in_review_refund_or_refusal_as_the_engine_decides() {
    let app = spawn_flight_app_boarding(1_000).await;
    enable_flight(&app, &app.operator).await;
    let timeout = user_in(&app, "sim-timeout", "IDR", 50_000).await;
    let slow = user_in(&app, "sim-slow", "IDR", 50_000).await;
    let poor = user_in(&app, "sim-poor", "IDR", 50_000).await;
    let buy = |faults: Value| json!({"operation": "buy_ticket", "stake": "10000", "faults": faults});
    let key = app.operator.key.clone();
    // Held past the adapter's 2 s timeout, then applied: nobody knows, staff review it.
    let held = buy(json!([{"kind": "timeout"}]));
    // Answered after the one-second boarding closed: the ticket never flies.
    let answered_late = buy(json!([{"kind": "slow_answer", "delayMs": 1500}]));
    let declined = buy(json!([{"kind": "insufficient_funds"}]));
    let (timed_out, late, refused) = tokio::join!(
        operate(&app, &key, &timeout, &held),
        operate(&app, &key, &slow, &answered_late),
        operate(&app, &key, &poor, &declined),
    );

    assert_eq!(ids(&timed_out, "queue_faults")["faults"], "timeout");
    assert_eq!(ids(&timed_out, "buy_ticket")["status"], "review", "{timed_out:#}");

    assert_eq!(ids(&late, "buy_ticket")["status"], "refunding", "{late:#}");
    let refund = ids(&late, "settle");
    assert_eq!(refund["status"], "refunded", "{late:#}");
    assert_eq!(amount(&ids(&late, "wallet")["balance"]), 50_000, "the stake came back");
    let log = wallet(&app, "sim-slow").await["log"].clone();
    assert_eq!(log[0]["flow"], "flight_ticket_refund", "{log:#}");
    assert_eq!(log[0]["idempotencyKey"], refund["refundIdempotencyKey"]);

    assert_eq!(ids(&refused, "buy_ticket")["status"], "rejected", "{refused:#}");
    assert_eq!(amount(&ids(&refused, "wallet")["balance"]), 50_000);

    let timed_out_wallet = wallet(&app, "sim-timeout").await;
    assert_eq!(timed_out_wallet["log"][0]["fault"]["kind"], "timeout");
    let read = ticket(&app, ids(&timed_out, "buy_ticket")["ticketId"].as_str().expect("id")).await;
    assert_eq!(read["status"], "review", "{read:#}");
}

#[tokio::test]
async fn only_an_idr_simulated_user_plays_and_only_for_an_enabled_operator() {
    let app = spawn_app().await;
    connect(&app, &app.operator.key, 2_000).await;
    let usd = user_in(&app, "sim-usd", "USD", 50_000).await;
    for body in [
        json!({"operation": "launch_flight"}),
        json!({"operation": "buy_ticket", "stake": "10000", "faults": [{"kind": "timeout"}]}),
        json!({"operation": "cash_out", "ticketId": "tkt_01JD0000000000000000000000"}),
        json!({"operation": "play_flight", "stake": "10000", "cashOutAt": "2.00"}),
    ] {
        let path = format!("/api/operator/simulator/users/{usd}/operations");
        assert_problem(
            app.post(&path, &app.operator.key, &body).await,
            409,
            "simulated_user_not_idr",
        )
        .await;
    }
    let untouched = json_with_status(
        app.get(&format!("/api/operator/simulator/users/{usd}"), &app.operator.key)
            .await,
        200,
    )
    .await;
    assert_eq!(untouched["pendingFaults"], json!([]), "nothing queued: {untouched:#}");

    let idr = user_in(&app, "sim-idr", "IDR", 50_000).await;
    let body = json!({"operation": "buy_ticket", "stake": "10000"});
    let report = operate(&app, &app.operator.key, &idr, &body).await;
    assert_eq!(report["completed"], false);
    let launch = step(&report, "launch");
    assert_eq!(launch["outcome"], "failed");
    assert_eq!(launch["ids"]["code"], "product_not_enabled");
    assert_eq!(report["steps"].as_array().map(Vec::len), Some(1), "{report:#}");
    assert_eq!(wallet(&app, "sim-idr").await["log"], json!([]));
}

#[tokio::test]
async fn hostile_flight_operations_are_refused_whole_before_anything_runs() {
    let app = spawn_app().await;
    let user = user_in(&app, "sim-hostile", "IDR", 50_000).await;
    let path = format!("/api/operator/simulator/users/{user}/operations");
    let long_id = "x".repeat(65);
    let cases = [
        (json!({"operation": "buy_ticket"}), "stake"),
        (json!({"operation": "buy_ticket", "stake": "-5"}), "stake"),
        (json!({"operation": "buy_ticket", "stake": "10000.5"}), "stake"),
        (json!({"operation": "buy_ticket", "stake": "1e4"}), "stake"),
        (
            json!({"operation": "buy_ticket", "stake": "99999999999999999999999"}),
            "stake",
        ),
        (
            json!({"operation": "buy_ticket", "stake": "10000", "autoCashOut": "2"}),
            "autoCashOut",
        ),
        (
            json!({"operation": "buy_ticket", "stake": "10000", "autoCashOut": "-1.00"}),
            "autoCashOut",
        ),
        (
            json!({"operation": "buy_ticket", "stake": "10000", "clientTicketId": long_id}),
            "clientTicketId",
        ),
        (
            json!({"operation": "buy_ticket", "stake": "10000", "clientTicketId": "with space"}),
            "clientTicketId",
        ),
        (
            json!({"operation": "buy_ticket", "stake": "10000", "clientTicketId": ""}),
            "clientTicketId",
        ),
        (json!({"operation": "cash_out"}), "ticketId"),
        (
            json!({"operation": "cash_out", "ticketId": "mkt_01JD0000000000000000000000"}),
            "ticketId",
        ),
        (json!({"operation": "cash_out", "ticketId": "tkt_nope"}), "ticketId"),
        (json!({"operation": "play_flight", "stake": "10000"}), "cashOutAt"),
        (
            json!({"operation": "play_flight", "stake": "10000", "cashOutAt": "1.00"}),
            "cashOutAt",
        ),
        (
            json!({"operation": "play_flight", "stake": "10000", "cashOutAt": "100.01"}),
            "cashOutAt",
        ),
        (
            json!({"operation": "play_flight", "stake": "10000", "cashOutAt": "abc"}),
            "cashOutAt",
        ),
        (json!({"operation": "fly"}), "operation"),
    ];
    for (body, field) in cases {
        let refused = assert_problem(
            app.post(&path, &app.operator.key, &body).await,
            400,
            "validation_failed",
        )
        .await;
        assert_eq!(refused["field"], field, "{body}: {refused:#}");
    }
    for body in [
        json!({"operation": "buy_ticket", "stake": 10000}),
        json!({"operation": "buy_ticket", "stake": "10000", "flightId": "flt_1"}),
        json!({"operation": "cash_out", "ticketId": ["tkt_1"]}),
        json!({"operation": "buy_ticket", "stake": "10000", "faults": [{"kind": "meteor"}]}),
    ] {
        assert_problem(app.post(&path, &app.operator.key, &body).await, 400, "invalid_body").await;
    }
    let other = app.new_operator("Other").await;
    let body = json!({"operation": "buy_ticket", "stake": "10000"});
    assert_problem(app.post(&path, &other.key, &body).await, 404, "not_found").await;
    let user_now = json_with_status(
        app.get(&format!("/api/operator/simulator/users/{user}"), &app.operator.key)
            .await,
        200,
    )
    .await;
    assert_eq!(user_now["pendingFaults"], json!([]), "{user_now:#}");
    assert_eq!(wallet(&app, "sim-hostile").await["log"], json!([]));
}
