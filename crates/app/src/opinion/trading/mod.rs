//! The trading use cases: quotes, buys and sells with the operator's wallet. Each use
//! case is an `impl Trading` block in its own file; launching players and their
//! sessions are `players`', and what happens after trading (market administration,
//! resolution, payouts, the wallet worker, manual review) is `settlement`'s.

pub mod ports;

mod balance;
mod buy;
#[cfg(test)]
mod buy_tests;
pub(crate) mod events;
pub(crate) mod opening;
mod order;
mod quote;
#[cfg(test)]
mod quote_tests;
mod sell;
#[cfg(test)]
mod sell_tests;
pub(crate) mod settle_buy;
mod settle_sell;
pub(crate) mod wallet_call;

use std::sync::Arc;

use crate::access::ports::OperatorStore;
use crate::opinion::ports::MarketStore;
use crate::opinion::trading::ports::TradeStore;
use crate::ports::{Clock, Random, Transactions};
use crate::wallet::ports::{WalletAdapterStore, WalletGateway};

pub use balance::PlayerBalance;
pub use order::{OrderRequest, QuoteView};

/// The ports the trading use cases need.
#[derive(Clone)]
pub struct TradingPorts {
    /// Trades, positions and their wallet operations.
    pub trades: Arc<dyn TradeStore>,
    /// Markets as each operator sees them.
    pub markets: Arc<dyn MarketStore>,
    /// Operators (their currency).
    pub operators: Arc<dyn OperatorStore>,
    /// Operators' wallet adapters.
    pub wallet_adapters: Arc<dyn WalletAdapterStore>,
    /// The wallet client.
    pub wallet: Arc<dyn WalletGateway>,
    /// One transaction around each step that reads and then writes (an order's opening,
    /// a debited buy's placement), so the step commits once.
    pub transactions: Arc<dyn Transactions>,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
}

/// Trading in the hosted app: quotes, buys and sells with the operator's wallet.
#[derive(Clone)]
pub struct Trading {
    pub(crate) ports: TradingPorts,
}

impl Trading {
    /// Builds the service from its ports.
    pub fn new(ports: TradingPorts) -> Self {
        Self { ports }
    }

    /// The wallet client trading calls, for the use cases that call the same wallets.
    pub fn wallet_gateway(&self) -> Arc<dyn WalletGateway> {
        self.ports.wallet.clone()
    }
}
