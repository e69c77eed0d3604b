//! What every handler can reach: the use cases and the HTTP-level settings.

use std::sync::Arc;

use opinion_app::access::Access;
use opinion_app::flight::FlightGame;
use opinion_app::flight::office::FlightOffice;
use opinion_app::flight::reads::FlightReads;
use opinion_app::operations::Operations;
use opinion_app::opinion::reads::OperatorReads;
use opinion_app::opinion::trading::Trading;
use opinion_app::players::Players;
use opinion_app::simulator::Simulator;
use opinion_app::wallet::{WalletAdapterTest, WalletAdapters};
use opinion_app::webhooks::Webhooks;
use opinion_metrics::Metrics;

use crate::http::client::TrustedProxies;
use crate::http::rate_limit::OperatorRateLimit;
use crate::operational::metrics::MetricsAccess;
use crate::player::flight_feed::FlightFeed;

/// Shared state of the HTTP API.
#[derive(Clone)]
pub struct ApiState {
    /// Authentication, API keys, staff.
    pub access: Access,
    /// Launches and player sessions.
    pub players: Players,
    /// Quotes, buys and sells of the hosted Opinion app.
    pub trading: Trading,
    /// The flight game: tickets, cash-outs and the live flight.
    pub flight: FlightGame,
    /// The live flight every page's event stream reads.
    pub flight_feed: FlightFeed,
    /// Webhook endpoints, deliveries and replays.
    pub webhooks: Webhooks,
    /// Operators' wallet adapter configurations.
    pub wallet_adapters: WalletAdapters,
    /// What operators read, and the visibility of their markets.
    pub reads: OperatorReads,
    /// What operators read about the flight product.
    pub flight_reads: FlightReads,
    /// The flight back office: statement keys, settlement reports and their payments.
    pub office: FlightOffice,
    /// The full-contract test of operators' wallet adapters.
    pub wallet_test: WalletAdapterTest,
    /// The staging simulator; `None` in production, where its routes answer 404.
    pub simulator: Option<Simulator>,
    /// Whether the session cookie is marked `Secure` (everywhere but local development).
    pub secure_cookies: bool,
    /// The service's public base URL (`OPINION_PUBLIC_URL`), without a trailing `/`, for
    /// links it hands out.
    pub public_url: String,
    /// The proxies whose `X-Forwarded-For` names the client (`OPINION_TRUSTED_PROXIES`).
    pub trusted_proxies: TrustedProxies,
    /// Each operator's request budget on the operator API (`OPINION_OPERATOR_RATE_LIMIT_PER_MINUTE`).
    pub rate_limit: OperatorRateLimit,
    /// This instance's metrics, which every request is counted into.
    pub metrics: Arc<Metrics>,
    /// The platform-wide figures a scrape of `/metrics` reads.
    pub operations: Operations,
    /// Who may scrape `/metrics` (`OPINION_METRICS_TOKEN`).
    pub metrics_access: MetricsAccess,
}
