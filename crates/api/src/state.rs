//! What every handler can reach: the use cases and the HTTP-level settings.

use opinion_app::{Access, WalletAdapters};

/// Shared state of the HTTP API.
#[derive(Clone)]
pub struct ApiState {
    /// Authentication, API keys, staff.
    pub access: Access,
    /// Operators' wallet adapter configurations.
    pub wallet_adapters: WalletAdapters,
    /// Whether the session cookie is marked `Secure` (everywhere but local development).
    pub secure_cookies: bool,
}
