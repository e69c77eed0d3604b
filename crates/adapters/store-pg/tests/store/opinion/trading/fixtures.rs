//! Trading seeds with sensible defaults, shared by the opinion store's tests (market
//! visibility, settlement and the reads).

use opinion_testkit::{MarketSeed, PoolSeed, Seeder, TestDatabase, TradeSeed, UserSeed, ulid_at};
use time::OffsetDateTime;

use crate::fixtures::at;

/// A seeder on the test's database.
pub async fn seeder(db: &TestDatabase) -> Seeder {
    Seeder::connect(db.url()).await
}

/// Market `n` (ids are the `n`th ULID millisecond after `T0`, so later `n` are newer).
pub fn market_id(n: u16) -> u128 {
    ulid_at(at(i64::from(n)), n)
}

/// An open market with liquidity 1000 and no fee.
pub fn market(n: u16) -> MarketSeed {
    MarketSeed {
        id: market_id(n),
        question: format!("Question {n}?"),
        liquidity: 1_000,
        fee_bps: 0,
        status: "open",
        resolution: None,
        created_at: at(i64::from(n)),
    }
}

/// The operator's pool on market `n`.
pub fn pool(operator: u128, n: u16, yes: i64, no: i64, hidden: bool) -> PoolSeed {
    PoolSeed {
        operator,
        market: market_id(n),
        yes_outstanding: yes,
        no_outstanding: no,
        choice: if hidden { "hidden" } else { "unset" },
    }
}

/// Player `n` of `operator`, created `n` seconds after `T0`.
pub fn user_id(operator: u128, n: u16) -> u128 {
    ulid_at(at(i64::from(n)), n) + (operator << 16)
}

/// Player `n` of `operator`, known as `p-<n>`.
pub fn user(operator: u128, n: u16) -> UserSeed {
    UserSeed {
        operator,
        id: user_id(operator, n),
        external_user_id: format!("p-{n}"),
        created_at: at(i64::from(n)),
    }
}

/// An executed YES buy of 10 shares for 6, at `created_at`, with id `n`.
pub fn trade(operator: u128, n: u16, user: u16, market: u16, created_at: OffsetDateTime) -> TradeSeed {
    TradeSeed {
        operator,
        id: ulid_at(created_at, n),
        user: user_id(operator, user),
        market: market_id(market),
        side: "buy",
        outcome: "yes",
        shares: 10,
        amount: 6,
        fee: 0,
        currency: "USD",
        price_before_ppm: 500_000,
        price_after_ppm: 505_000,
        status: "executed",
        created_at,
    }
}
