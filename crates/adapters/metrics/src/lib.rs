//! Prometheus metrics of one service instance (`GET /metrics`, docs/operations.md).
//!
//! Counters and histograms are kept per instance and summed by Prometheus across
//! instances: requests per route, wallet calls per outcome, webhook attempts per result.
//! Wallet and webhook calls are measured by decorators of their ports, so neither the use
//! cases nor the HTTP adapters know about metrics. Figures only the database knows (the
//! webhook backlog, open manual reviews) are read when scraped, through the app's
//! `Operations` use case.

mod families;
mod measured_transport;
mod measured_wallet;
mod registry;

pub use measured_transport::MeasuredTransport;
pub use measured_wallet::MeasuredWallet;
pub use registry::{Listener, Metrics, MetricsError, OpenConnection, TEXT_FORMAT};
