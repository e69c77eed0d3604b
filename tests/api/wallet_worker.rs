//! The wallet worker pays redemptions end to end: a market resolved with players'
//! positions, the operator's `FakeWallet` configured through the API, one worker pass,
//! and the payouts credited once each with their one key and metadata.

use opinion_app::opinion::settlement::NewMarket;
use opinion_core::MarketId;
use opinion_market::Resolution;
use opinion_testkit::{FakeWallet, PositionSeed};
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
