//! The wallet worker pays redemptions end to end: a market resolved with players'
//! positions, the operator's `FakeWallet` configured through the API, one worker pass,
//! and the payouts credited once each with their one key and metadata; money owed that
//! the wallet refuses, or that cannot be sent within the retry limit, goes to staff.

use opinion_app::opinion::settlement::{NewMarket, WorkerSettings};
use opinion_core::MarketId;
use opinion_market::Resolution;
use opinion_testkit::{FakeWallet, Fault, PositionSeed};
use opinion_wallet::{RefusalCode, RetryLimit};
use reqwest::Method;
use serde_json::json;
use time::{Duration, OffsetDateTime};

use crate::helpers::{TestApp, json_with_status, spawn_app};
use crate::trading_seed::{T0, bits, pool, seeder, user};

/// The players and the YES shares they hold on the market.
pub const HOLDINGS: [(&str, i64); 2] = [("p-1", 40), ("p-2", 25)];

/// A wallet in the operator's currency, configured through the API, with both players'
/// accounts open (1000 minor units each).
pub async fn given_wallet(app: &TestApp) -> FakeWallet {
    let wallet = FakeWallet::start_in("USD").await;
    let saved = app
        .request(Method::PUT, "/api/operator/wallet-adapter", Some(&app.operator.key))
        .json(&json!({"baseUrl": wallet.url()}))
        .send()
        .await
        .expect("request");
    let saved = json_with_status(saved, 201).await;
    wallet.set_secret(saved["signingSecret"].as_str().expect("signingSecret"));
    for (player, _) in HOLDINGS {
        wallet.set_balance(player, 1_000);
    }
    wallet
}

/// An open market on which the app's operator's players hold `HOLDINGS`.
pub async fn given_positions(app: &TestApp, market: MarketId) {
    let mut seeder = seeder(app).await;
    let outstanding = HOLDINGS.iter().map(|(_, yes)| yes).sum();
    seeder
        .pool(&pool(&app.operator, market.as_u128(), outstanding, 0, false))
        .await;
    for (n, (player, yes)) in (1_u16..).zip(HOLDINGS) {
        let player = user(&app.operator, n, player, T0);
        seeder.user(&player).await;
        seeder
            .position(&PositionSeed::yes(
                bits(&app.operator),
                player.id,
                market.as_u128(),
                yes,
                T0,
            ))
            .await;
    }
}

#[tokio::test]
async fn a_wallet_pass_pays_each_redemption_once_with_its_key_and_metadata() {
    let app = spawn_app().await;
    let wallet = given_wallet(&app).await;
    let market = app
        .settlement
        .create_market(NewMarket {
            question: "Will it rain tomorrow?".into(),
            rules: "YES if the national weather service reports rain.".into(),
            close_at: OffsetDateTime::now_utc() + Duration::days(1),
            liquidity: 1_000,
            fee_bps: 0,
        })
        .await
        .expect("market");
    given_positions(&app, market.id).await;
    let resolved = app
        .settlement
        .resolve_market(market.id, Resolution::Yes)
        .await
        .expect("resolved");
    assert_eq!(
        (
            resolved.resolutions[0].redemption_count,
            resolved.resolutions[0].payout_total
        ),
        (2, 65)
    );
    assert!(wallet.ledger().is_empty(), "the resolution only prepares the payouts");

    let pass = app.settlement.run_wallet_pass().await.expect("pass");
    assert_eq!((pass.sent, pass.recovered, pass.without_wallet), (2, 0, 0));
    let ledger = wallet.ledger();
    assert_eq!(ledger.len(), 2);
    for entry in &ledger {
        assert_eq!(entry.status(), Some(200));
        assert!(entry.applied);
        let key = entry.idempotency_key().expect("key");
        assert!(key.starts_with("redemption:red_"), "{key}");
        assert_eq!(entry.metadata("marketId"), Some(market.id.to_string().as_str()));
        assert_eq!(entry.metadata("resolution"), Some("yes"));
        assert_eq!(Some(&key["redemption:".len()..]), entry.metadata("redemptionId"));
    }
    assert_eq!(
        (wallet.balance("p-1"), wallet.balance("p-2")),
        (Some(1_040), Some(1_025))
    );

    let key = app.key_with(&["redemptions:read"]).await;
    let read = json_with_status(app.get("/api/operator/redemptions", &key).await, 200).await;
    let rows = read["data"].as_array().expect("data");
    assert_eq!(rows.len(), 2);
    assert!(
        rows.iter()
            .all(|row| row["status"] == "paid" && row["paidAt"].is_string()),
        "{read}"
    );

    let again = app.settlement.run_wallet_pass().await.expect("pass");
    assert_eq!(again.sent, 0);
    assert_eq!(wallet.ledger().len(), 2, "nothing is paid twice");
}

/// A resolved YES market on which `HOLDINGS` are owed their payouts.
async fn resolved_with_payouts(app: &TestApp) -> MarketId {
    let market = app
        .settlement
        .create_market(NewMarket {
            question: "Will it snow tomorrow?".into(),
            rules: "YES if the national weather service reports snow.".into(),
            close_at: OffsetDateTime::now_utc() + Duration::days(1),
            liquidity: 1_000,
            fee_bps: 0,
        })
        .await
        .expect("market");
    given_positions(app, market.id).await;
    app.settlement
        .resolve_market(market.id, Resolution::Yes)
        .await
        .expect("resolved");
    market.id
}

#[tokio::test]
async fn a_redemption_the_wallet_refuses_is_reviewed_with_the_amount_owed() {
    let app = spawn_app().await;
    let wallet = given_wallet(&app).await;
    resolved_with_payouts(&app).await;
    wallet.fail_next("p-1", Fault::Refuse(RefusalCode::UserBlocked));

    let pass = app.settlement.run_wallet_pass().await.expect("pass");
    assert_eq!(pass.sent, 2);
    assert_eq!(
        (wallet.balance("p-1"), wallet.balance("p-2")),
        (Some(1_000), Some(1_025))
    );

    let key = app.key_with(&["redemptions:read"]).await;
    let read = json_with_status(app.get("/api/operator/redemptions", &key).await, 200).await;
    let mut statuses: Vec<_> = read["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|row| row["status"].as_str().expect("status").to_owned())
        .collect();
    statuses.sort();
    assert_eq!(statuses, ["manual_review", "paid"], "{read}");

    let listed = crate::admin_settlement::admin(&app, &["review", "list"]).await;
    let rows = listed["data"].as_array().expect("data");
    assert_eq!(rows.len(), 1, "{listed:#}");
    assert_eq!(rows[0]["flow"], "redemption");
    assert_eq!(rows[0]["state"], "manual_review");
    assert_eq!(rows[0]["reviewReason"], "refused_credit");
    assert_eq!(rows[0]["refusalCode"], "user_blocked");
    assert_eq!(rows[0]["amountOwed"], "40");
    let id = rows[0]["id"].as_str().expect("id");
    let shown = crate::admin_settlement::admin(&app, &["review", "show", "--operation", id]).await;
    assert_eq!(shown["operation"]["reviewReason"], "refused_credit", "{shown:#}");
    assert_eq!(shown["redemption"]["status"], "manual_review", "{shown:#}");

    let again = app.settlement.run_wallet_pass().await.expect("pass");
    assert_eq!(again.sent, 0, "a reviewed payout is never sent again automatically");
    assert_eq!(wallet.ledger().len(), 2);
}

#[tokio::test]
async fn a_compensation_the_wallet_cannot_be_reached_for_goes_to_review_after_its_sends() {
    let app = spawn_app().await;
    let market = crate::trading_support::open_market(&app).await;
    let wallet = crate::trading_support::wallet_with_timeout(&app, 5_000).await;
    wallet.set_balance("p", 50_000);
    wallet.fail_next("p", Fault::SlowAnswer(std::time::Duration::from_millis(800)));
    let session = crate::trading_support::player(&app, "p").await;
    let body = crate::trading_support::order("b1", market, "buy", "shares", 1_000);
    let (trade, _) = tokio::join!(crate::trading_support::placed(&app, &session, &body), async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        app.settlement.close_market(market).await.expect("closed");
    });
    assert_eq!(trade["failureReason"], "market_not_open", "{trade}");

    // The wallet goes away: every send of the compensation is "not sent".
    let moved = app
        .request(Method::PUT, "/api/operator/wallet-adapter", Some(&app.operator.key))
        .json(&json!({"baseUrl": "http://127.0.0.1:9"}))
        .send()
        .await
        .expect("request");
    assert!(moved.status().is_success(), "{}", moved.status());
    let worker = app.settlement.clone().with_worker_settings(WorkerSettings {
        retry_base: Duration::ZERO,
        retry_limit: RetryLimit::new(3),
        ..WorkerSettings::default()
    });
    let mut sent = 0;
    for _ in 0..6 {
        sent += worker.run_wallet_pass().await.expect("pass").sent;
    }
    assert_eq!(sent, 3, "sent exactly as often as the limit allows");

    let listed = crate::admin_settlement::admin(&app, &["review", "list"]).await;
    let rows = listed["data"].as_array().expect("data");
    assert_eq!(rows.len(), 1, "{listed:#}");
    assert_eq!(rows[0]["flow"], "buy_compensation");
    assert_eq!(rows[0]["reviewReason"], "retries_exhausted");
    assert_eq!(rows[0]["attempts"], 3, "{listed:#}");
    assert_eq!(rows[0]["amountOwed"], trade["amount"], "{listed:#}");
    assert!(rows[0]["refusalCode"].is_null());
    assert_eq!(
        wallet.balance("p"),
        Some(50_000 - trade["amount"].as_str().expect("amount").parse::<i64>().expect("int")),
        "still owed"
    );
}
