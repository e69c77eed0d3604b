//! The flight product: a provably fair crash game played by every operator's players on
//! one platform-wide sequence of flights, with IDR money through the operator's wallet.
//!
//! - `engine`: the driver (exactly one instance at a time, by `DriverLock`) boards, flies,
//!   crashes and settles flights; `recovery` is what a new driver does with the flight it
//!   finds.
//! - `purchase` and `cash_out`: the player's tickets; `money` sends payouts and refunds
//!   and recovers lost answers; `events` builds the `mini_app.flight.ticket.*` events.
//! - `enablement`, `production_authorization` and `terms`: what platform staff decide
//!   per operator.
//! - `reads`: the operator's and the player's views.
//! - `exchange`: the port of the third-party exchange a statement's comparison-only rate
//!   comes from.
//!
//! The rules (crash points, the curve, cash-out decisions, ticket limits and statuses)
//! are `opinion-flight`'s; this room only sequences them over the ports.

pub mod exchange;
pub mod model;
pub mod office;
pub mod ports;
pub mod reads;

mod cash_out;
mod enablement;
#[cfg(test)]
mod enablement_tests;
mod engine;
#[cfg(test)]
mod engine_tests;
mod events;
mod live;
mod live_board;
#[cfg(test)]
mod live_board_tests;
mod money;
mod money_worker;
mod moves;
mod production_authorization;
#[cfg(test)]
mod production_authorization_tests;
mod purchase;
#[cfg(test)]
mod purchase_tests;
mod review;
#[cfg(test)]
mod review_tests;
mod terms;
mod terms_schedule;
#[cfg(test)]
mod terms_tests;

pub use enablement::{EnableOutcome, EnablementStatus};
pub use engine::{DriverStep, FlightMove};
pub use live::LiveFlight;
pub use live_board::{BoardKeeper, CashOutBoard, FeedCashOut, LOOKBACK, MAX_LISTED, READ_LIMIT};
pub use money_worker::MoneyPass;
pub use production_authorization::{AuthorizationBook, NewProductionAuthorization};
pub use purchase::TicketOrder;
pub use purchase::{CLIENT_TICKET_ID_MAX_LEN, CLIENT_TICKET_ID_PATTERN, check_client_ticket_id};
pub use review::ResolvedFlightOperation;
pub use terms::TermsBook;
pub use terms_schedule::MAX_SCHEDULED_TERMS;

use std::sync::Arc;
use std::time::Duration;

use opinion_flight::{AuthorizationRequirement, ChainLength, FlightTiming};

use crate::access::ports::OperatorStore;
use crate::flight::ports::FlightStore;
use crate::opinion::settlement::WorkerSettings;
use crate::ports::{Clock, Random, Transactions};
use crate::wallet::ports::{WalletAdapterStore, WalletGateway, WalletTestRunStore};
use crate::webhooks::store::WebhookStore;

/// The ports the flight use cases need.
#[derive(Clone)]
pub struct FlightPorts {
    /// Flights, tickets, terms and enablement.
    pub store: Arc<dyn FlightStore>,
    /// Operators.
    pub operators: Arc<dyn OperatorStore>,
    /// Operators' wallet adapters.
    pub wallet_adapters: Arc<dyn WalletAdapterStore>,
    /// The wallet client.
    pub wallet: Arc<dyn WalletGateway>,
    /// The wallet test's kept runs (enabling needs a passed flight section).
    pub wallet_test_runs: Arc<dyn WalletTestRunStore>,
    /// Webhook endpoints (enabling warns when none subscribes to a flight event).
    pub webhooks: Arc<dyn WebhookStore>,
    /// One transaction around a ticket purchase's opening, so it commits once.
    pub transactions: Arc<dyn Transactions>,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
}

/// How flights are played, from configuration.
#[derive(Debug, Clone, Copy)]
pub struct FlightSettings {
    /// Boarding and the pause between flights.
    pub timing: FlightTiming,
    /// How many flights a new seed chain plays.
    pub chain_length: ChainLength,
    /// How long after the crash the losing tickets are settled, so that a cash-out the
    /// server decided before the crash instant is always stored first.
    pub settle_delay: Duration,
    /// The longest the driver sleeps while a flight is in the air (auto cash-outs are
    /// paid at most this late).
    pub tick: Duration,
    /// The most tickets one driver step moves. A flight with more is moved over several
    /// steps, each holding the flight in its phase, the phase's own change riding with
    /// the last: a step's memory and transaction stay bounded whatever a flight sold.
    pub tickets_a_step: u32,
    /// The money worker's batch, grace and retry delays.
    pub money: WorkerSettings,
    /// Whether flight needs a production authorization here (production only).
    pub production_authorization: AuthorizationRequirement,
}

/// The flight product's use cases.
#[derive(Clone)]
pub struct FlightGame {
    pub(crate) ports: FlightPorts,
    pub(crate) settings: FlightSettings,
}

impl FlightGame {
    /// Builds the service from its ports and settings.
    pub fn new(ports: FlightPorts, settings: FlightSettings) -> Self {
        Self { ports, settings }
    }
}
