//! Fixtures for the reads' use-case tests: the service over mockall mocks with a fixed
//! clock, and records with fixed ids.

use std::sync::Arc;

use opinion_core::{IdKind, MarketId, Page, UserId};
use opinion_market::{FeeRate, Liquidity, MarketChoice, MarketStatus, Pool, VisibilityMode};

use crate::access::ports::MockOperatorStore;
use crate::model::{Market, Operator, OperatorMarket, User};
use crate::opinion::ports::MockMarketStore;
use crate::opinion::reads::ports::MockOperatorReadStore;
use crate::opinion::reads::{OperatorReads, PortfolioLinks, ReadPorts};
use crate::test_support::{NOW, OPERATOR, counting_random, fixed_clock};

pub const SECRET: [u8; 32] = [9; 32];

/// The mocks, to be given expectations before `build`.
#[derive(Default)]
pub struct ReadMocks {
    pub reads: MockOperatorReadStore,
    pub markets: MockMarketStore,
    pub operators: MockOperatorStore,
}

impl ReadMocks {
    pub fn build(self) -> OperatorReads {
        OperatorReads::new(
            ReadPorts {
                reads: Arc::new(self.reads),
                markets: Arc::new(self.markets),
                operators: Arc::new(self.operators),
                clock: fixed_clock(),
                random: counting_random(500, [0; 32]),
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
        choice: MarketChoice::Unset,
        mode: VisibilityMode::default(),
    }
}
