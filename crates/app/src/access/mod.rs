//! The access service: operators, API keys, staff and sessions, over the store ports.
//! Each use case lives in its own file as an `impl Access` block.

pub mod ports;

mod api_keys;
mod auth_failure;
mod authenticate;
mod operator_currency;
mod operators;
mod password_hasher;
mod principal;
mod request_client;
mod session_tokens;
mod sessions;
mod staff;

pub use api_keys::{CreatedApiKey, NewApiKey};
pub use auth_failure::AuthFailure;
pub(crate) use operator_currency::operator_currency;
pub use operators::CreatedOperator;
pub use password_hasher::PasswordHasher;
pub use principal::{Actor, Principal};
pub use request_client::RequestClient;
pub use session_tokens::{SessionRef, SessionTokens};
pub use sessions::StartedSession;
pub use staff::{NewStaff, StaffChange, StaffWithPassword};

use std::sync::Arc;

use opinion_access::ApiKeyEnvironment;
use time::Duration;

use crate::access::ports::{ApiKeyStore, OperatorStore, SessionStore, StaffStore};

use crate::ports::{Clock, Random};

/// The ports the access use cases need.
#[derive(Clone)]
pub struct AccessPorts {
    pub operators: Arc<dyn OperatorStore>,
    pub api_keys: Arc<dyn ApiKeyStore>,
    /// Staff members.
    pub staff: Arc<dyn StaffStore>,
    /// Staff sessions.
    pub sessions: Arc<dyn SessionStore>,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
}

/// Settings of the access use cases, read from configuration at start-up.
#[derive(Clone)]
pub struct AccessSettings {
    /// The environment written into new API keys and required of presented ones.
    pub environment: ApiKeyEnvironment,
    /// How long a staff session lasts.
    pub session_ttl: Duration,
    /// Signs and verifies staff session tokens.
    pub session_tokens: SessionTokens,
}

/// Authentication and the management of operators, API keys and staff.
#[derive(Clone)]
pub struct Access {
    pub(crate) ports: AccessPorts,
    pub(crate) settings: AccessSettings,
    pub(crate) passwords: PasswordHasher,
}

impl Access {
    /// Builds the service from its ports and settings.
    pub fn new(ports: AccessPorts, settings: AccessSettings) -> Self {
        Self {
            ports,
            settings,
            passwords: PasswordHasher::default(),
        }
    }

    /// Whether the store answers (readiness).
    pub async fn ready(&self) -> Result<(), crate::error::AppError> {
        Ok(self.ports.operators.ping().await?)
    }
}
