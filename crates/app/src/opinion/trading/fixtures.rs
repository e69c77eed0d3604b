//! Fixtures for the trading use-case tests: a `Trading` over mockall mocks with a fixed
//! clock and counting ids, an open market, a player, and wallet outcomes.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use opinion_core::{MarketId, PlayerSessionId, UserId};
use opinion_market::{FeeRate, Liquidity, MarketStatus, OrderKind, Outcome, Pool, Side};
use opinion_wallet::{Ambiguity, Classification, RefusalCode, RemoteReference};
use time::macros::datetime;
use ulid::Ulid;

use crate::model::{Market, Operator, OperatorMarket, User};
use crate::opinion::trading::{OrderRequest, Trading, TradingPorts, TradingSettings};
use crate::players::{PlayerPrincipal, PlayerTokens};
use crate::ports::{
    MockClock, MockOperatorStore, MockRandom, MockTradingStore, MockWalletAdapterStore, MockWalletGateway,
    MutationOutcome, WalletAdapterTarget,
};
use crate::test_support::{NOW, OPERATOR};

/// The market every test trades on.
pub const MARKET: MarketId = MarketId::from_u128(500);

/// The player every test trades as.
pub const USER: UserId = UserId::from_u128(600);

/// The mocks, to be given expectations before `build`.
pub struct TradingMocks {
    pub store: MockTradingStore,
    pub wallet: MockWalletGateway,
}

impl TradingMocks {
    /// Mocks whose operator exists (in IDR) with a wallet adapter configured.
    pub fn new() -> Self {
        Self {
            store: MockTradingStore::new(),
            wallet: MockWalletGateway::new(),
        }
    }

    /// The service over the mocks.
    pub fn build(self) -> Trading {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(NOW);
        let mut random = MockRandom::new();
        let counter = Arc::new(AtomicU64::new(1_000));
        random
            .expect_ulid()
            .returning(move || Ulid(u128::from(counter.fetch_add(1, Ordering::SeqCst))));
        random.expect_secret_bytes().return_const([9u8; 32]);
        let mut operators = MockOperatorStore::new();
        operators.expect_find_operator().returning(|id| {
            Ok(Some(Operator {
                id,
                name: "Operator".into(),
                currency: "IDR".parse().expect("currency"),
                created_at: NOW,
            }))
        });
        let mut adapters = MockWalletAdapterStore::new();
        adapters
            .expect_find_wallet_target()
            .returning(|operator| Ok(Some(target(operator))));
        Trading::new(
            TradingPorts {
                store: Arc::new(self.store),
                operators: Arc::new(operators),
                wallet_adapters: Arc::new(adapters),
                wallet: Arc::new(self.wallet),
                clock: Arc::new(clock),
                random: Arc::new(random),
            },
            TradingSettings {
                public_url: "https://opinion.example".into(),
                launch_ttl: time::Duration::minutes(5),
                player_session_ttl: time::Duration::hours(8),
                tokens: PlayerTokens::new(&[3; 32]).expect("tokens"),
            },
        )
    }
}

/// The operator's wallet adapter.
pub fn target(operator: opinion_core::OperatorId) -> WalletAdapterTarget {
    WalletAdapterTarget {
        operator_id: operator,
        base_url: "https://wallet.example".into(),
        timeout: Duration::from_millis(200),
        signing_secrets: Vec::new(),
    }
}

/// The player.
pub fn player() -> PlayerPrincipal {
    PlayerPrincipal {
        operator_id: OPERATOR,
        user: User {
            id: USER,
            operator_id: OPERATOR,
            external_user_id: "player-7".into(),
            display_name: None,
            language: None,
            created_at: NOW,
            last_launched_at: NOW,
        },
        session_id: PlayerSessionId::from_u128(700),
    }
}

/// The market as the operator sees it, with `pool`.
pub fn market_with(pool: Pool, status: MarketStatus) -> OperatorMarket {
    OperatorMarket {
        market: Market {
            id: MARKET,
            question: "Will it rain?".into(),
            rules: "Resolves YES if it rains.".into(),
            close_at: datetime!(2026-12-31 00:00 UTC),
            liquidity: liquidity(),
            fee: FeeRate::from_bps(100).expect("fee"),
            status,
            created_at: NOW,
            closed_at: None,
            resolved_at: None,
        },
        pool,
        hidden: false,
    }
}

/// The liquidity of the market.
pub fn liquidity() -> Liquidity {
    Liquidity::new(1_000).expect("liquidity")
}

/// An open market with an untouched pool.
pub fn open_market() -> OperatorMarket {
    market_with(Pool::new(liquidity()), MarketStatus::Open)
}

/// An order.
pub fn order(side: Side, value: i64) -> OrderRequest {
    OrderRequest {
        market_id: MARKET,
        side,
        outcome: Outcome::Yes,
        kind: OrderKind::Shares,
        value,
        limit: None,
    }
}

/// A wallet outcome with `classification`.
pub fn answered(classification: Classification, status: Option<u16>) -> MutationOutcome {
    MutationOutcome {
        classification,
        http_status: status,
        elapsed: Duration::from_millis(5),
    }
}

/// The wallet applied the mutation.
pub fn applied() -> MutationOutcome {
    answered(
        Classification::Applied {
            remote_reference: RemoteReference::parse("w-1").expect("reference"),
            balance: 10_000,
        },
        Some(200),
    )
}

/// The wallet refused: insufficient funds.
pub fn refused() -> MutationOutcome {
    answered(
        Classification::Rejected {
            code: RefusalCode::InsufficientFunds,
        },
        Some(422),
    )
}

/// No answer in time.
pub fn timed_out() -> MutationOutcome {
    answered(
        Classification::Ambiguous {
            why: Ambiguity::TimedOut,
        },
        None,
    )
}
