//! Trading rows for the black-box tests of the operator's reads, inserted straight into
//! the test database (the write path that makes them is not what these tests test).

use opinion_testkit::{MarketSeed, PoolSeed, Seeder, TradeSeed, UserSeed, WalletOperationSeed, ulid_at};
use serde_json::json;
use time::OffsetDateTime;
use time::macros::datetime;

use crate::helpers::{TestApp, TestOperator};

/// The instant fixed fixtures are created around.
pub const T0: OffsetDateTime = datetime!(2026-11-22 10:00:00 UTC);

/// `T0` plus some seconds.
pub fn at(seconds: i64) -> OffsetDateTime {
    T0 + time::Duration::seconds(seconds)
}

/// A seeder on the app's database.
pub async fn seeder(app: &TestApp) -> Seeder {
    Seeder::connect(app.db.url()).await
}

/// The bits of an operator's id.
pub fn bits(operator: &TestOperator) -> u128 {
    operator.id.as_u128()
}

/// The id of market `n`, created at `at`.
pub fn market_id(n: u16, created_at: OffsetDateTime) -> u128 {
    ulid_at(created_at, n)
}

/// An open market with liquidity 1000 (10.00 USD) and a 1% fee.
pub fn market(n: u16, question: &str, created_at: OffsetDateTime) -> MarketSeed {
    MarketSeed {
        id: market_id(n, created_at),
        question: question.into(),
        liquidity: 1_000,
        fee_bps: 100,
        status: "open",
        resolution: None,
        created_at,
    }
}

/// An operator's pool.
pub fn pool(operator: &TestOperator, market: u128, yes: i64, no: i64, hidden: bool) -> PoolSeed {
    PoolSeed {
        operator: bits(operator),
        market,
        yes_outstanding: yes,
        no_outstanding: no,
        choice: if hidden { "hidden" } else { "unset" },
    }
}

/// A player of `operator` known as `external`.
pub fn user(operator: &TestOperator, n: u16, external: &str, created_at: OffsetDateTime) -> UserSeed {
    UserSeed {
        operator: bits(operator),
        id: ulid_at(created_at, n),
        external_user_id: external.into(),
        created_at,
    }
}

/// An executed YES buy of 10 shares for 6 by `user` in `market`.
pub fn trade(operator: &TestOperator, n: u16, user: &UserSeed, market: u128, created_at: OffsetDateTime) -> TradeSeed {
    TradeSeed {
        operator: bits(operator),
        id: ulid_at(created_at, n),
        user: user.id,
        market,
        side: "buy",
        outcome: "yes",
        shares: 10,
        amount: 6,
        fee: 1,
        currency: "USD",
        price_before_ppm: 500_000,
        price_after_ppm: 505_000,
        status: "executed",
        created_at,
    }
}

/// The applied buy debit of `trade`.
pub fn buy_operation(trade: &TradeSeed, external: &str) -> WalletOperationSeed {
    WalletOperationSeed {
        operator: trade.operator,
        id: trade.id + 1,
        user: trade.user,
        external_user_id: external.into(),
        flow: "buy",
        reason: "opinion.buy",
        idempotency_key: format!("buy:trd_{:x}", trade.id),
        amount: trade.amount,
        currency: "USD",
        metadata: json!({"marketId": "mkt_x", "tradeId": "trd_x", "outcome": "yes", "shares": "10"}),
        market: trade.market,
        trade: Some(trade.id),
        state: "applied",
        http_status: Some(200),
        remote_reference: Some("wallet-ref-1".into()),
        balance_after: Some(9_994),
        created_at: trade.created_at,
    }
}

/// The wire id of market `id` (`mkt_…`).
pub fn mkt(id: u128) -> String {
    format!("mkt_{}", ulid::Ulid(id).to_string().to_lowercase())
}

/// The ids of a list body's items, in order.
pub fn ids(body: &serde_json::Value) -> Vec<String> {
    body["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|item| item["id"].as_str().expect("id").to_owned())
        .collect()
}
