//! Fixtures for the reads' use-case tests: the service over mockall mocks with a fixed
//! clock, and records with fixed ids.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use opinion_core::{IdKind, MarketId, OperatorId, Page, UserId};
use opinion_market::{FeeRate, Liquidity, MarketStatus, Pool};
use time::OffsetDateTime;
use time::macros::datetime;
use ulid::Ulid;

use crate::model::{Market, Operator, OperatorMarket, User};
use crate::opinion::reads::{OperatorReads, PortfolioLinks, ReadPorts};
use crate::ports::{MockClock, MockMarketVisibilityStore, MockOperatorReadStore, MockOperatorStore, MockRandom};

pub const NOW: OffsetDateTime = datetime!(2026-11-22 12:00 UTC);
pub const OPERATOR: OperatorId = OperatorId::from_u128(1);
pub const SECRET: [u8; 32] = [9; 32];

/// The mocks, to be given expectations before `build`.
#[derive(Default)]
pub struct ReadMocks {
    pub reads: MockOperatorReadStore,
    pub visibility: MockMarketVisibilityStore,
    pub operators: MockOperatorStore,
}

impl ReadMocks {
    pub fn build(self) -> OperatorReads {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(NOW);
        let mut random = MockRandom::new();
        let counter = Arc::new(AtomicU64::new(500));
        random
            .expect_ulid()
            .returning(move || Ulid(u128::from(counter.fetch_add(1, Ordering::SeqCst))));
        OperatorReads::new(
            ReadPorts {
                reads: Arc::new(self.reads),
                visibility: Arc::new(self.visibility),
                operators: Arc::new(self.operators),
                clock: Arc::new(clock),
                random: Arc::new(random),
            },
            PortfolioLinks::new(&SECRET).expect("signer"),
        )
    }

    /// The operator exists and trades in USD.
    pub fn with_operator(mut self) -> Self {
        self.operators.expect_find_operator().returning(|id| {
            Ok(Some(Operator {
                id,
                name: "Operator".into(),
                currency: "USD".parse().expect("currency"),
                created_at: NOW,
            }))
        });
        self
    }
}

pub fn empty_page<T, K: IdKind>() -> Page<T, K> {
    Page {
        items: Vec::new(),
        next: None,
    }
}

pub fn user(n: u128, external: &str) -> User {
    User {
        id: UserId::from_u128(n),
        operator_id: OPERATOR,
        external_user_id: external.into(),
        display_name: None,
        language: None,
        created_at: NOW,
        last_launched_at: NOW,
    }
}

pub fn market(n: u128, status: MarketStatus) -> OperatorMarket {
    let liquidity = Liquidity::new(1_000).expect("liquidity");
    OperatorMarket {
        market: Market {
            id: MarketId::from_u128(n),
            question: format!("Question {n}?"),
            rules: "Rules.".into(),
            close_at: NOW,
            liquidity,
            fee: FeeRate::ZERO,
            status,
            created_at: NOW,
            closed_at: None,
            resolved_at: None,
        },
        pool: Pool::new(liquidity),
        hidden: false,
    }
}
