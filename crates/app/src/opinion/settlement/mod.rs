//! `MarketSettlement`: what happens to markets after trading, for platform staff and the
//! wallet worker — market administration, resolution and its payouts, the worker that
//! sends redemptions and compensations and recovers lost answers, and manual review.
//! It builds on `Trading` (its store, wallet call and events) and adds its own store.

pub mod ports;

mod events;
mod markets;
mod resolution;
mod review;
#[cfg(test)]
mod settlement_tests;
pub(crate) mod wallet_worker;

pub use markets::{MAX_MARKET_LIST, NewMarket};
pub use resolution::ResolvedMarket;
pub use review::ReviewCase;
pub use wallet_worker::{WorkerPass, retry_delay};

use std::sync::Arc;

use opinion_wallet::RetryLimit;
use time::Duration;

use crate::opinion::settlement::ports::SettlementStore;
use crate::opinion::trading::Trading;

/// Settings of the wallet worker, read from configuration at start-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkerSettings {
    /// Operations claimed (and swept) per operator and pass.
    pub batch_size: u16,
    /// How long after a call's timeout an unanswered `sent` operation counts as lost.
    pub grace: Duration,
    /// The first retry delay of a compensation or redemption that must be sent again.
    pub retry_base: Duration,
    /// The longest retry delay.
    pub retry_cap: Duration,
    /// The most sends of money owed to a player before it goes to manual review.
    pub retry_limit: RetryLimit,
}

impl Default for WorkerSettings {
    fn default() -> Self {
        Self {
            batch_size: 50,
            grace: Duration::seconds(60),
            retry_base: Duration::seconds(30),
            retry_cap: Duration::hours(1),
            retry_limit: RetryLimit::DEFAULT,
        }
    }
}

/// Market administration, resolution, redemption payouts, the wallet worker and
/// manual review.
#[derive(Clone)]
pub struct MarketSettlement {
    pub(crate) trading: Trading,
    pub(crate) store: Arc<dyn SettlementStore>,
    pub(crate) worker: WorkerSettings,
}

impl MarketSettlement {
    /// Builds the service over the trading service and the settlement store.
    pub fn new(trading: Trading, store: Arc<dyn SettlementStore>, worker: WorkerSettings) -> Self {
        Self { trading, store, worker }
    }

    /// The same service with other wallet worker settings (a shorter schedule or retry
    /// limit, for a drill or a test).
    pub fn with_worker_settings(self, worker: WorkerSettings) -> Self {
        Self { worker, ..self }
    }
}
