//! What every handler can reach: the use cases and the HTTP-level settings.

use opinion_app::{Access, Trading, WalletAdapters, Webhooks};

/// Shared state of the HTTP API.
#[derive(Clone)]
pub struct ApiState {
    /// Authentication, API keys, staff.
    pub access: Access,
    /// Launches, the player API and trading.
    pub trading: Trading,
    /// Webhook endpoints, deliveries and replays.
    pub webhooks: Webhooks,
    /// Operators' wallet adapter configurations.
    pub wallet_adapters: WalletAdapters,
    /// Whether the session cookie is marked `Secure` (everywhere but local development).
    pub secure_cookies: bool,
}
