//! The flight product's reads: for operators the overview, flights (platform-wide), the
//! operator's tickets, its flight wallet operations and the delivery evidence of its
//! `mini_app.flight.*` events; for players the crashed flights' fairness data; for anyone
//! the published seed chains. One file per resource, each an `impl FlightReads` block;
//! exports walk the same pages chunk by chunk (`export.rs`), so an export of any size
//! holds one chunk at a time.

pub mod ports;

mod chains;
mod deliveries;
mod export;
#[cfg(test)]
mod fairness_tests;
mod flights;
mod overview;
#[cfg(test)]
mod reads_tests;
mod tickets;
mod view;
mod wallet_operations;

use std::sync::Arc;

use opinion_flight::AuthorizationRequirement;

use crate::flight::reads::ports::FlightReadStore;
use crate::ports::Clock;
use crate::webhooks::store::WebhookStore;

pub use export::{EXPORT_CHUNK, Export};
pub use flights::{FlightDetail, FlightQuery};
pub use overview::{AuthorizationSummary, Overview, OverviewQuery};
pub use tickets::{TicketDetail, TicketQuery};
pub use view::FlightView;
pub use wallet_operations::{FlightOperation, FlightOperationQuery};

/// The ports the flight reads need.
#[derive(Clone)]
pub struct FlightReadPorts {
    /// Flights, the operator's tickets, enablement, terms and wallet operations.
    pub store: Arc<dyn FlightReadStore>,
    /// The delivery log, for the flight events' evidence.
    pub webhooks: Arc<dyn WebhookStore>,
    pub clock: Arc<dyn Clock>,
}

/// Everything an operator reads about the flight product.
#[derive(Clone)]
pub struct FlightReads {
    pub(crate) ports: FlightReadPorts,
    /// Whether the overview reports a production authorization as needed.
    pub(crate) production_authorization: AuthorizationRequirement,
}

impl FlightReads {
    /// Builds the service from its ports, for an environment that needs no production
    /// authorization.
    pub fn new(ports: FlightReadPorts) -> Self {
        Self {
            ports,
            production_authorization: AuthorizationRequirement::NotRequired,
        }
    }

    /// The same reads in an environment with `requirement` (production: `Required`).
    pub fn with_production_authorization(mut self, requirement: AuthorizationRequirement) -> Self {
        self.production_authorization = requirement;
        self
    }
}
