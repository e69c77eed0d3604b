//! The access service: operators, API keys, staff and sessions, over the store ports.
//! Each use case lives in its own file as an `impl Access` block.

pub mod ports;

mod api_keys;
mod auth_failure;
mod authenticate;
mod form_tokens;
mod login_throttling;
mod operator_currency;
mod operators;
mod own_password;
#[cfg(test)]
mod own_password_tests;
mod password_hasher;
mod playground;
#[cfg(test)]
mod playground_tests;
mod principal;
mod request_client;
mod session_tokens;
mod sessions;
mod staff;

pub use api_keys::{CreatedApiKey, NewApiKey};
pub use auth_failure::AuthFailure;
pub(crate) use operator_currency::operator_currency;
pub use operators::CreatedOperator;
pub use own_password::OwnPasswordChange;
pub use password_hasher::{PasswordHasher, Passwords};
pub use principal::{Actor, Principal};
pub use request_client::RequestClient;
pub use session_tokens::{SessionRef, SessionTokens};
pub use sessions::StartedSession;
pub use staff::{NewStaff, StaffChange, StaffWithPassword};

use std::sync::Arc;

use opinion_access::{ApiKeyEnvironment, LoginThrottle};
use time::Duration;

use crate::access::ports::{ApiKeyStore, LoginAttemptStore, OperatorStore, SessionStore, StaffStore};

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
    /// Staff login throttling counters, shared by every instance.
    pub login_attempts: Arc<dyn LoginAttemptStore>,
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
    /// How many password attempts an e-mail and a client address get.
    pub login_throttle: LoginThrottle,
}

/// Authentication and the management of operators, API keys and staff.
#[derive(Clone)]
pub struct Access {
    pub(crate) ports: AccessPorts,
    pub(crate) settings: AccessSettings,
    pub(crate) passwords: Arc<dyn Passwords>,
}

impl Access {
    /// Builds the service from its ports and settings.
    pub fn new(ports: AccessPorts, settings: AccessSettings) -> Self {
        Self {
            ports,
            settings,
            passwords: Arc::new(PasswordHasher::default()),
        }
    }

    /// The same service verifying passwords with `passwords`, so a test sees which
    /// verifications run.
    #[cfg(test)]
    pub(crate) fn with_passwords(self, passwords: Arc<dyn Passwords>) -> Self {
        Self { passwords, ..self }
    }

    /// Whether the store answers (readiness).
    pub async fn ready(&self) -> Result<(), crate::error::AppError> {
        Ok(self.ports.operators.ping().await?)
    }
}
