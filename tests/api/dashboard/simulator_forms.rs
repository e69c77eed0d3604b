//! The simulator's forms send each operation's and scenario's own fields: a slow answer
//! with its delay, the flight operations' fields, `connect_wallet`'s time limit and
//! `trade_batch`'s users; a refusal comes back beside its field with nothing queued, and
//! a member without `simulator:write` runs nothing.

use serde_json::json;

use super::support::{member, page, post, refused_beside, sign_in, token_of};
use crate::helpers::{TestApp, json_with_status, spawn_app};
use crate::simulator_support::simulated_user;

/// The simulated user's queued faults as the API shows them.
async fn queued(app: &TestApp, id: &str) -> serde_json::Value {
    let path = format!("/api/operator/simulator/users/{id}");
    json_with_status(app.get(&path, &app.operator.key).await, 200).await["pendingFaults"].clone()
}

#[tokio::test]
async fn operations_send_their_own_fields_and_a_refusal_queues_nothing() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    member(&app, "reader@example.com", &["simulator:read"]).await;
    let user = simulated_user(&app, &app.operator.key, "sim-1", 5_000).await;
    let id = user["id"].as_str().expect("id").to_owned();
    let path = format!("/dashboard/simulator/users/{id}");
    let cookie = sign_in(&app, "admin@example.com").await;
    let (_, form) = page(&app, &path, &cookie).await;
    let token = token_of(&form);
    for field in [
        "stake",
        "autoCashOut",
        "clientTicketId",
        "ticketId",
        "cashOutAt",
        "delayMs",
    ] {
        assert!(form.contains(&format!("name=\"{field}\"")), "{field}");
    }
    assert!(form.contains("value=\"slow_answer\""));

    let refused = post(
        &app,
        &path,
        &cookie,
        &[
            ("operation", "inject_faults"),
            ("faults", "slow_answer"),
            ("_token", &token),
        ],
    )
    .await;
    assert_eq!(refused.status(), 400);
    let body = refused.text().await.expect("body");
    assert!(
        body.contains("<fieldset class=\"field invalid\" id=\"faults\">"),
        "slow_answer needs its delay: {body}"
    );
    assert_eq!(queued(&app, &id).await, json!([]), "nothing queued");

    let injected = post(
        &app,
        &path,
        &cookie,
        &[
            ("operation", "inject_faults"),
            ("faults", "slow_answer"),
            ("faults", "timeout"),
            ("delayMs", "250"),
            ("stake", "not read by inject_faults"),
            ("_token", &token),
        ],
    )
    .await;
    assert_eq!(injected.status(), 200, "another operation's field is not sent");
    assert_eq!(
        queued(&app, &id).await,
        json!([{"kind": "slow_answer", "delayMs": 250}, {"kind": "timeout"}])
    );

    let ticket = post(
        &app,
        &path,
        &cookie,
        &[("operation", "buy_ticket"), ("stake", "ten rupiah"), ("_token", &token)],
    )
    .await;
    assert_eq!(ticket.status(), 400);
    let body = ticket.text().await.expect("body");
    assert!(
        refused_beside(&body, "stake"),
        "the stake is sent to buy_ticket: {body}"
    );
    assert!(body.contains("value=\"ten rupiah\""), "kept as typed");
    let cash_out = post(
        &app,
        &path,
        &cookie,
        &[
            ("operation", "cash_out"),
            ("ticketId", "not-a-ticket"),
            ("_token", &token),
        ],
    )
    .await;
    assert_eq!(cash_out.status(), 400);
    assert!(refused_beside(&cash_out.text().await.expect("body"), "ticketId"));

    let reader = sign_in(&app, "reader@example.com").await;
    let (_, read_only) = page(&app, &path, &reader).await;
    assert!(
        !read_only.contains("name=\"delayMs\""),
        "no operation form without simulator:write"
    );
    let denied = post(
        &app,
        &path,
        &reader,
        &[("operation", "clear_faults"), ("_token", &token_of(&read_only))],
    )
    .await;
    assert_eq!(denied.status(), 403);
    assert!(denied.text().await.expect("body").contains("simulator:write"));
    assert_eq!(
        queued(&app, &id).await.as_array().map(Vec::len),
        Some(2),
        "nothing cleared"
    );
}

#[tokio::test]
async fn scenarios_send_the_time_limit_and_the_ticked_users() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    let user = simulated_user(&app, &app.operator.key, "sim-1", 5_000).await;
    let id = user["id"].as_str().expect("id").to_owned();
    let cookie = sign_in(&app, "admin@example.com").await;
    let (_, simulator) = page(&app, "/dashboard/simulator", &cookie).await;
    assert!(
        simulator.contains(&format!("name=\"users\" value=\"{id}\"")),
        "a box per simulated user"
    );
    let token = token_of(&simulator);

    let refused = post(
        &app,
        "/dashboard/simulator/scenarios",
        &cookie,
        &[
            ("scenario", "connect_wallet"),
            ("timeoutMs", "soon"),
            ("_token", &token),
        ],
    )
    .await;
    assert_eq!(refused.status(), 400);
    assert!(refused_beside(&refused.text().await.expect("body"), "timeoutMs"));
    let adapter = app.get("/api/operator/wallet-adapter", &app.operator.key).await;
    assert_eq!(adapter.status(), 404, "nothing connected");

    let connected = post(
        &app,
        "/dashboard/simulator/scenarios",
        &cookie,
        &[
            ("scenario", "connect_wallet"),
            ("timeoutMs", "4321"),
            ("_token", &token),
        ],
    )
    .await;
    assert_eq!(connected.status(), 200);
    let adapter = json_with_status(app.get("/api/operator/wallet-adapter", &app.operator.key).await, 200).await;
    assert_eq!(adapter["timeoutMs"], 4321, "the time limit typed");

    let market = opinion_core::MarketId::from_u128(1).to_string();
    let batch = post(
        &app,
        "/dashboard/simulator/scenarios",
        &cookie,
        &[
            ("scenario", "trade_batch"),
            ("marketId", &market),
            ("outcome", "yes"),
            ("shares", "10"),
            ("users", "not-a-user"),
            ("_token", &token),
        ],
    )
    .await;
    assert_eq!(batch.status(), 400);
    let body = batch.text().await.expect("body");
    assert!(
        body.contains("<fieldset class=\"field invalid\" id=\"users\">"),
        "the users ticked are sent to trade_batch: {body}"
    );
}
