//! Visibility modes over HTTP: reading and setting the mode, `allowlist` hiding the
//! markets nobody showed from the operator's lists and its players until the switch
//! allows them, `all` showing everything while keeping the choices, and the refusals.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::trading_seed::*;
use crate::trading_support::player;

const MODE: &str = "/api/operator/markets/visibility-mode";

async fn set_mode(app: &TestApp, key: &str, body: &Value) -> reqwest::Response {
    app.request(Method::PUT, MODE, Some(key))
        .json(body)
        .send()
        .await
        .expect("request")
}

async fn offered(app: &TestApp, session: &str) -> Vec<String> {
    let response = app
        .request(Method::GET, "/api/player/markets", Some(session))
        .send()
        .await
        .expect("request");
    ids(&json_with_status(response, 200).await)
}

#[tokio::test]
async fn allowlist_hides_untouched_markets_everywhere_until_the_switch_shows_them() {
    let app = spawn_app().await;
    let other = app.new_operator("Other").await;
    let mut seed = seeder(&app).await;
    let (m1, m2) = (market_id(1, at(1)), market_id(2, at(2)));
    seed.market(&market(1, "One?", at(1))).await;
    seed.market(&market(2, "Two?", at(2))).await;
    let writer = app.key_with(&["markets:write", "markets:read"]).await;
    let session = player(&app, "p-1").await;

    let read = json_with_status(app.get(MODE, &writer).await, 200).await;
    assert_eq!(
        read,
        json!({"mode": "blocklist", "updatedAt": null}),
        "the default mode"
    );
    assert_eq!(offered(&app, &session).await, [mkt(m2), mkt(m1)]);

    let changed = json_with_status(set_mode(&app, &writer, &json!({"mode": "allowlist"})).await, 200).await;
    assert_eq!(changed["mode"], "allowlist");
    assert_eq!(changed["changedMarkets"], 2, "both untouched markets are hidden");
    assert!(changed["updatedAt"].is_string());
    assert_eq!(offered(&app, &session).await, Vec::<String>::new());
    let visible = json_with_status(app.get("/api/operator/markets?visibility=visible", &writer).await, 200).await;
    assert_eq!(ids(&visible), Vec::<String>::new());
    let theirs = json_with_status(
        app.get("/api/operator/markets?visibility=visible", &other.key).await,
        200,
    )
    .await;
    assert_eq!(ids(&theirs), [mkt(m2), mkt(m1)], "another operator's mode is its own");

    let path = format!("/api/operator/markets/{}/visibility", mkt(m1));
    let shown = json_with_status(app.post(&path, &writer, &json!({"visible": true})).await, 200).await;
    assert_eq!(
        (shown["hidden"].clone(), shown["visibilityChoice"].clone()),
        (json!(false), json!("shown"))
    );
    assert_eq!(offered(&app, &session).await, [mkt(m1)]);

    let all = json_with_status(set_mode(&app, &writer, &json!({"mode": "all"})).await, 200).await;
    assert_eq!(all["changedMarkets"], 1, "only the market nobody showed appears");
    assert_eq!(offered(&app, &session).await, [mkt(m2), mkt(m1)]);
    let hide = format!("/api/operator/markets/{}/visibility", mkt(m2));
    let kept = json_with_status(app.post(&hide, &writer, &json!({"visible": false})).await, 200).await;
    assert_eq!(
        (kept["hidden"].clone(), kept["visibilityChoice"].clone()),
        (json!(false), json!("hidden")),
        "`all` keeps the choice without applying it"
    );
    let back = json_with_status(set_mode(&app, &writer, &json!({"mode": "blocklist"})).await, 200).await;
    assert_eq!(back["changedMarkets"], 1, "the kept choice now hides the market");
    assert_eq!(offered(&app, &session).await, [mkt(m1)]);

    let again = json_with_status(set_mode(&app, &writer, &json!({"mode": "blocklist"})).await, 200).await;
    assert_eq!(again["changedMarkets"], 0);
}

#[tokio::test]
async fn a_bad_mode_or_a_missing_scope_is_refused() {
    let app = spawn_app().await;
    let writer = app.key_with(&["markets:write"]).await;
    let reader = app.key_with(&["markets:read"]).await;
    let problem = assert_problem(
        set_mode(&app, &writer, &json!({"mode": "some"})).await,
        400,
        "validation_failed",
    )
    .await;
    assert_eq!(problem["field"], "mode");
    assert_problem(
        set_mode(&app, &writer, &json!({"mode": "all", "extra": 1})).await,
        400,
        "invalid_body",
    )
    .await;
    assert_problem(set_mode(&app, &writer, &json!({})).await, 400, "invalid_body").await;
    assert_problem(
        set_mode(&app, &reader, &json!({"mode": "all"})).await,
        403,
        "insufficient_scope",
    )
    .await;
    assert_problem(app.get(MODE, &writer).await, 403, "insufficient_scope").await;
    let read = json_with_status(app.get(MODE, &reader).await, 200).await;
    assert_eq!(read["mode"], "blocklist", "nothing was written");
}
