//! The HTML pages over HTTP: readable, escaped, served with a restrictive policy; the
//! trade page and the trade history share a path shape and the id's prefix decides; the
//! signed portfolio link opens a page without an API key until it is tampered with.

use opinion_testkit::PositionSeed;
use reqwest::Response;
use serde_json::json;

use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};
use crate::trading_seed::*;

const QUESTION: &str = "<script>alert(\"q\")</script> Will it rain?";
const SNEAKY: &str = "<script>alert(1)</script>";

fn id(prefix: &str, bits: u128) -> String {
    format!("{prefix}_{}", ulid::Ulid(bits).to_string().to_lowercase())
}

/// Reads a page after checking its status, media type and policy.
async fn page(response: Response) -> String {
    assert_eq!(response.status().as_u16(), 200);
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    assert_eq!(header("content-type").as_deref(), Some("text/html; charset=utf-8"));
    let policy = header("content-security-policy").expect("policy");
    assert!(policy.starts_with("default-src 'none'"), "{policy}");
    assert!(!policy.contains("unsafe"), "{policy}");
    assert_eq!(header("referrer-policy").as_deref(), Some("no-referrer"));
    response.text().await.expect("body")
}

fn assert_escaped(body: &str) {
    assert!(!body.contains("<script"), "unescaped markup in {body}");
    assert!(body.contains("&lt;script&gt;"), "{body}");
}

/// A market with a hostile question, a hostile player and `alice`, each with a trade.
async fn world(app: &TestApp) -> (u128, u128) {
    let mut seed = seeder(app).await;
    seed.market(&market(1, QUESTION, at(0))).await;
    let market = market_id(1, at(0));
    let sneaky = user(&app.operator, 1, SNEAKY, at(1));
    let alice = user(&app.operator, 2, "alice", at(1));
    let view = user(&app.operator, 3, "view", at(1));
    for player in [&sneaky, &alice, &view] {
        seed.user(player).await;
        seed.position(&PositionSeed {
            operator: bits(&app.operator),
            user: player.id,
            market,
            yes_shares: 10,
            yes_cost_basis: 6,
            no_shares: 0,
            no_cost_basis: 0,
            realized_pnl: 0,
            updated_at: at(10),
        })
        .await;
    }
    let bought = trade(&app.operator, 1, &sneaky, market, at(10));
    seed.trade(&bought).await;
    seed.wallet_operation(&buy_operation(&bought, SNEAKY)).await;
    seed.trade(&trade(&app.operator, 2, &view, market, at(20))).await;
    (market, bought.id)
}

#[tokio::test]
async fn pages_are_readable_and_escape_every_value() {
    let app = spawn_app().await;
    let (market, trade) = world(&app).await;
    let key = app.key_with(&["users:read", "trades:read"]).await;

    let portfolio = app
        .request(reqwest::Method::GET, "/api/operator/users/portfolio-view", Some(&key))
        .query(&[("externalUserId", SNEAKY)])
        .send()
        .await
        .expect("sent");
    let body = page(portfolio).await;
    assert_escaped(&body);
    assert!(body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{body}");
    assert!(body.contains("0.06 USD"), "the cost basis in major units: {body}");

    let body = page(
        app.get(&format!("/api/operator/trades/{}/view", id("trd", trade)), &key)
            .await,
    )
    .await;
    assert_escaped(&body);
    assert!(body.contains("wallet-ref-1") && body.contains("buy:trd_"), "{body}");

    let history = format!("/api/operator/trades/{}/alice", id("mkt", market));
    let body = page(app.get(&history, &key).await).await;
    assert_escaped(&body);
    assert!(body.contains("No trades in this market."), "{body}");
}

#[tokio::test]
async fn the_id_prefix_tells_a_trade_page_from_the_history_of_a_player_called_view() {
    let app = spawn_app().await;
    let other = app.new_operator("Other").await;
    let (market, trade) = world(&app).await;
    let key = app.key_with(&["trades:read"]).await;

    let history = page(
        app.get(&format!("/api/operator/trades/{}/view", id("mkt", market)), &key)
            .await,
    )
    .await;
    assert!(history.contains("Trades of view in one market"), "{history}");
    assert!(history.contains("buy yes"), "{history}");
    let trade_page = page(
        app.get(&format!("/api/operator/trades/{}/view", id("trd", trade)), &key)
            .await,
    )
    .await;
    assert!(
        trade_page.contains(&format!("Trade {}", id("trd", trade))),
        "{trade_page}"
    );

    let wrong_kind = format!("/api/operator/trades/{}/view", id("usr", trade));
    assert_problem(app.get(&wrong_kind, &key).await, 400, "invalid_id").await;
    let nobody = format!("/api/operator/trades/{}/nobody", id("mkt", market));
    assert_problem(app.get(&nobody, &key).await, 404, "not_found").await;
    let their_key = app.key_of(&other, &["trades:read"]).await;
    let theirs = format!("/api/operator/trades/{}/alice", id("mkt", market));
    assert_problem(app.get(&theirs, &their_key).await, 404, "not_found").await;
    let their_view = format!("/api/operator/trades/{}/view", id("trd", trade));
    assert_problem(app.get(&their_view, &their_key).await, 404, "not_found").await;
}

#[tokio::test]
async fn a_signed_link_opens_the_portfolio_without_a_key_until_tampered_with() {
    let app = spawn_app().await;
    let other = app.new_operator("Other").await;
    world(&app).await;
    let launcher = app.key_with(&["launch:write"]).await;

    let link = json_with_status(
        app.post(
            "/api/operator/users/portfolio-view",
            &launcher,
            &json!({"externalUserId": "alice", "expiresInSeconds": 600}),
        )
        .await,
        201,
    )
    .await;
    let url = link["url"].as_str().expect("url");
    assert!(
        url.starts_with(&format!("{}/views/portfolio?token=", app.address)),
        "{url}"
    );
    assert!(link["expiresAt"].as_str().is_some_and(|t| t.ends_with('Z')));
    let body = page(app.client.get(url).send().await.expect("sent")).await;
    assert!(body.contains("Portfolio of alice"), "{body}");

    let tampered = format!("{}x", url);
    assert_problem(
        app.client.get(&tampered).send().await.expect("sent"),
        401,
        "view_link_invalid",
    )
    .await;
    let bare = format!("{}/views/portfolio", app.address);
    assert_problem(app.client.get(&bare).send().await.expect("sent"), 400, "invalid_query").await;

    let refusals = [
        (json!({"externalUserId": "nobody"}), 404, "not_found"),
        (
            json!({"externalUserId": "alice", "expiresInSeconds": 5}),
            400,
            "validation_failed",
        ),
        (json!({"externalUserId": "alice", "colour": "red"}), 400, "invalid_body"),
    ];
    for (body, status, code) in refusals {
        assert_problem(
            app.post("/api/operator/users/portfolio-view", &launcher, &body).await,
            status,
            code,
        )
        .await;
    }
    let theirs = app.key_of(&other, &["users:read"]).await;
    let refused = app
        .post(
            "/api/operator/users/portfolio-view",
            &theirs,
            &json!({"externalUserId": "alice"}),
        )
        .await;
    assert_problem(refused, 404, "not_found").await;
}
