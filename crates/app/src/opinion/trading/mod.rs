//! The trading use cases: quotes, buys and sells with the operator's wallet. Each use
//! case is an `impl Trading` block in its own file; launching players and their
//! sessions are `players`', and what happens after trading (market administration,
//! resolution, payouts, the wallet worker, manual review) is `settlement`'s.

mod buy;
#[cfg(test)]
mod buy_tests;
pub(crate) mod events;
#[cfg(test)]
pub(crate) mod fixtures;
pub(crate) mod opening;
mod order;
mod quote;
mod sell;
#[cfg(test)]
mod sell_tests;
pub(crate) mod settle_buy;
mod settle_sell;
pub(crate) mod wallet_call;

use std::sync::Arc;

use time::Duration;

use crate::players::PlayerTokens;
use crate::ports::{Clock, OperatorStore, Random, TradingStore, WalletAdapterStore, WalletGateway};

pub use order::{OrderRequest, QuoteView};

/// The ports the trading use cases need.
#[derive(Clone)]
pub struct TradingPorts {
    /// Markets, players, trades, wallet operations.
    pub store: Arc<dyn TradingStore>,
    /// Operators (their currency).
    pub operators: Arc<dyn OperatorStore>,
    /// Operators' wallet adapter configurations.
    pub wallet_adapters: Arc<dyn WalletAdapterStore>,
    /// The wallet client.
    pub wallet: Arc<dyn WalletGateway>,
    /// Time.
    pub clock: Arc<dyn Clock>,
    /// Ids.
    pub random: Arc<dyn Random>,
}

/// Settings of the trading use cases, read from configuration at start-up.
#[derive(Clone)]
pub struct TradingSettings {
    /// Where the hosted app is served; launch URLs start with it.
    pub public_url: String,
    /// How long a launch token can be exchanged.
    pub launch_ttl: Duration,
    /// How long a player session lasts.
    pub player_session_ttl: Duration,
    /// Signs launch and player session tokens.
    pub tokens: PlayerTokens,
}

/// Trading in the hosted app and its administration.
#[derive(Clone)]
pub struct Trading {
    pub(crate) ports: TradingPorts,
    pub(crate) settings: TradingSettings,
}

impl Trading {
    /// Builds the service from its ports and settings.
    pub fn new(ports: TradingPorts, settings: TradingSettings) -> Self {
        Self { ports, settings }
    }

    /// The wallet client trading calls, for the use cases that call the same wallets.
    pub fn wallet_gateway(&self) -> Arc<dyn WalletGateway> {
        self.ports.wallet.clone()
    }

    /// The same service handing out launch URLs under `public_url`, for when the
    /// service's address is known only once it listens.
    pub fn with_public_url(mut self, public_url: &str) -> Self {
        self.settings.public_url = public_url.trim_end_matches('/').to_owned();
        self
    }
}
