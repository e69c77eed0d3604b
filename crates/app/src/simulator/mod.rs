//! The staging simulator: simulated users and their wallet, a real implementation of the
//! wallet adapter contract served by this service (`wallet.rs`), and operations that
//! drive simulated users through the real trading flows (`operations.rs`,
//! `scenarios.rs`) and the flight product's (`flight.rs`). It exists in development and staging only; production builds no
//! `Simulator` at all.

pub mod ports;

mod flight;
#[cfg(test)]
mod flight_tests;
mod flight_waits;
mod operations;
mod report;
mod scenarios;
mod users;
mod wallet;

use std::sync::Arc;

use crate::access::ports::OperatorStore;
use crate::flight::FlightGame;
use crate::opinion::settlement::MarketSettlement;
use crate::opinion::trading::Trading;
use crate::players::Players;
use crate::ports::{Clock, Random};
use crate::simulator::ports::SimulatorStore;
use crate::wallet::WalletAdapters;
use crate::wallet::ports::WalletAdapterStore;

pub use operations::{FaultRequest, MAX_FAULTS, MAX_TARGET, SimulatedTicketOrder, UserOperation};
pub use report::{OperationReport, ReportStep, StepOutcome};
pub use scenarios::{MAX_BATCH, MAX_CLOSE_IN_MINUTES, Scenario};
pub use users::{MAX_BALANCE, NewSimulatedUser, SimulatedUserChange};
pub use wallet::{SimulatedWalletCall, SimulatedWalletReply};

/// The ports the simulator needs.
#[derive(Clone)]
pub struct SimulatorPorts {
    /// Simulated users, the simulated wallet's keys and log.
    pub store: Arc<dyn SimulatorStore>,
    /// Operators' wallet adapters: the secrets the simulated wallet verifies with.
    pub adapters: Arc<dyn WalletAdapterStore>,
    /// Operators (their currency).
    pub operators: Arc<dyn OperatorStore>,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
}

/// The staging simulator.
#[derive(Clone)]
pub struct Simulator {
    ports: SimulatorPorts,
    players: Players,
    trading: Trading,
    settlement: MarketSettlement,
    flight: FlightGame,
    wallet_adapters: WalletAdapters,
    public_url: String,
}

/// The use cases the simulator's operations drive.
#[derive(Clone)]
pub struct SimulatedFlows {
    /// Launches and player sessions.
    pub players: Players,
    /// Opinion's buys and sells.
    pub trading: Trading,
    /// Markets, resolution and payouts.
    pub settlement: MarketSettlement,
    /// The flight product's tickets and cash-outs.
    pub flight: FlightGame,
    /// The operator's wallet adapter (connecting the simulated wallet).
    pub wallet_adapters: WalletAdapters,
}

impl Simulator {
    /// Builds the simulator over its ports and the use cases its operations drive.
    pub fn new(ports: SimulatorPorts, flows: SimulatedFlows, public_url: &str) -> Self {
        Self {
            ports,
            players: flows.players,
            trading: flows.trading,
            settlement: flows.settlement,
            flight: flows.flight,
            wallet_adapters: flows.wallet_adapters,
            public_url: public_url.trim_end_matches('/').to_owned(),
        }
    }

    /// The same simulator, serving its wallet under `public_url`, for when the service's
    /// address is known only once it listens.
    pub fn with_public_url(mut self, public_url: &str) -> Self {
        self.public_url = public_url.trim_end_matches('/').to_owned();
        self.players = self.players.with_public_url(public_url);
        self
    }

    /// The base URL of the operator's simulated wallet adapter.
    pub fn wallet_base_url(&self, operator: opinion_core::OperatorId) -> String {
        format!("{}{}/{operator}", self.public_url, SIMULATOR_WALLET_PREFIX)
    }
}

/// Where the simulated wallets are served: `{publicUrl}/simulator-wallet/{operatorId}`.
pub const SIMULATOR_WALLET_PREFIX: &str = "/simulator-wallet";

#[cfg(test)]
mod wallet_tests;
