//! The operator's reads: players, portfolios (as JSON, as a page, and behind signed
//! links), markets with the operator's pool and visibility, trending markets, trades,
//! resolutions, redemptions and wallet operations. One file per resource, each an
//! `impl OperatorReads` block; filters are validated in `filters.rs`.

pub mod ports;

mod activity;
#[cfg(test)]
mod activity_tests;
mod balance_operations;
mod board;
pub(crate) mod filters;
mod markets;
mod payouts;
mod portfolio;
mod portfolio_links;
mod trades;
mod trending;
mod users;
mod visibility;
#[cfg(test)]
mod visibility_tests;

use std::sync::Arc;

use crate::access::ports::OperatorStore;

use crate::opinion::ports::MarketStore;

use crate::opinion::reads::ports::OperatorReadStore;

use crate::ports::{Clock, Random};

pub use activity::{Activity, MAX_ACTIVITY_DAYS};
pub use balance_operations::{BalanceOperation, BalanceOperationQuery};
pub use board::{BoardMarket, MarketPage, PricePoint};
pub use markets::MarketQuery;
pub use payouts::{RESOLUTIONS, RedemptionQuery, ResolutionQuery};
pub use portfolio::{Portfolio, PortfolioLine, PortfolioTotals};
pub use portfolio_links::{PortfolioLink, PortfolioLinks};
pub use trades::{TradeDetail, TradeHistory, TradeQuery};
pub use trending::{Trending, TrendingMarket};
pub use users::UserQuery;
pub use visibility::VisibilityModeChange;

/// The ports the reads need.
#[derive(Clone)]
pub struct ReadPorts {
    /// The operator's players, markets, trades, payouts and wallet operations.
    pub reads: Arc<dyn OperatorReadStore>,
    /// Market visibility, with its outbox event.
    pub markets: Arc<dyn MarketStore>,
    /// Operators, for their currency.
    pub operators: Arc<dyn OperatorStore>,
    pub clock: Arc<dyn Clock>,
    /// Event ids.
    pub random: Arc<dyn Random>,
}

/// Everything an operator reads, and the visibility of its markets.
#[derive(Clone)]
pub struct OperatorReads {
    pub(crate) ports: ReadPorts,
    pub(crate) links: PortfolioLinks,
}

impl OperatorReads {
    /// Builds the service from its ports and the signer of portfolio links.
    pub fn new(ports: ReadPorts, links: PortfolioLinks) -> Self {
        Self { ports, links }
    }

    /// The service clock's time, for pages that say when they were generated.
    pub fn now(&self) -> time::OffsetDateTime {
        self.ports.clock.now()
    }
}
