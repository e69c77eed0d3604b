//! Wallet adapter configuration use cases: read it, and set it (base URL, time-out, and
//! the signing secret, made here on the first set and on rotation, and handed out only
//! in that one answer).

use std::sync::Arc;

use opinion_wallet::{AdapterBaseUrl, AdapterSecrets, AdapterTimeout};
use opinion_webhook::SigningSecret;
use time::OffsetDateTime;

use crate::access::Principal;
use crate::error::{AppError, ProblemCode};
use crate::model::WalletAdapterConfig;
use crate::ports::{Clock, Random};
use crate::wallet::ports::WalletAdapterStore;

/// How often a change is tried again after losing a race with another change.
const ATTEMPTS: usize = 3;

/// The ports the wallet adapter use cases need.
#[derive(Clone)]
pub struct WalletAdapterPorts {
    /// Configurations.
    pub store: Arc<dyn WalletAdapterStore>,
    pub clock: Arc<dyn Clock>,
    /// Secret material.
    pub random: Arc<dyn Random>,
}

/// Settings of the wallet adapter use cases, from configuration at start-up.
#[derive(Debug, Clone, Copy)]
pub struct WalletAdapterSettings {
    /// Production: only `https` base URLs, and no literal private or loopback addresses.
    pub production: bool,
}

/// The management of operators' wallet adapter configurations.
#[derive(Clone)]
pub struct WalletAdapters {
    ports: WalletAdapterPorts,
    settings: WalletAdapterSettings,
}

/// What an operator asks to set.
#[derive(Debug, Clone)]
pub struct WalletAdapterChange {
    /// The base URL, as written.
    pub base_url: String,
    /// Milliseconds, or the default when absent.
    pub timeout_ms: Option<i64>,
    /// Make a new signing secret (the first set always makes one).
    pub rotate_secret: bool,
}

/// A configuration as shown to its operator.
#[derive(Debug, Clone)]
pub struct WalletAdapterView {
    /// The configuration.
    pub config: WalletAdapterConfig,
    /// When the previous secret stops signing, while it still signs.
    pub previous_secret_expires_at: Option<OffsetDateTime>,
}

/// A configuration as saved, and the secret made by this change, if one was.
#[derive(Debug, Clone)]
pub struct SavedWalletAdapter {
    /// The configuration as saved.
    pub adapter: WalletAdapterView,
    /// Whether this change created it.
    pub created: bool,
    /// The new signing secret, to show this once.
    pub new_secret: Option<SigningSecret>,
}

impl WalletAdapters {
    /// Builds the service.
    pub fn new(ports: WalletAdapterPorts, settings: WalletAdapterSettings) -> Self {
        Self { ports, settings }
    }

    /// The caller's operator's configuration.
    pub async fn wallet_adapter(&self, caller: &Principal) -> Result<WalletAdapterView, AppError> {
        let config = self
            .ports
            .store
            .find_wallet_adapter(caller.operator_id)
            .await?
            .ok_or(AppError::NotFound("wallet adapter"))?;
        Ok(self.view(config))
    }

    /// Sets the caller's operator's configuration; makes a secret on the first set and
    /// when asked to rotate.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id))]
    pub async fn set_wallet_adapter(
        &self,
        caller: &Principal,
        change: WalletAdapterChange,
    ) -> Result<SavedWalletAdapter, AppError> {
        let base_url = AdapterBaseUrl::parse(&change.base_url, self.settings.production)
            .map_err(|e| AppError::invalid("baseUrl", e))?;
        let timeout = change
            .timeout_ms
            .map_or(Ok(AdapterTimeout::DEFAULT), AdapterTimeout::from_millis)
            .map_err(|e| AppError::invalid("timeoutMs", e))?;
        for _ in 0..ATTEMPTS {
            let existing = self.ports.store.find_wallet_adapter(caller.operator_id).await?;
            let expected = existing.as_ref().map(|config| config.revision);
            let (config, new_secret) = self.changed(caller, existing, &base_url, timeout, change.rotate_secret)?;
            if self.ports.store.save_wallet_adapter(&config, expected).await? {
                let created = expected.is_none();
                tracing::info!(
                    actor = %caller.actor_id(),
                    created,
                    new_secret = new_secret.is_some(),
                    "wallet adapter saved"
                );
                return Ok(SavedWalletAdapter {
                    adapter: self.view(config),
                    created,
                    new_secret,
                });
            }
        }
        Err(AppError::Conflict {
            code: ProblemCode::ConcurrentChange,
            detail: "the wallet adapter was changed at the same time by another request; send the change again".into(),
        })
    }

    /// The configuration `existing` becomes under the change (not yet stored), and the
    /// secret the change made, if it made one.
    fn changed(
        &self,
        caller: &Principal,
        existing: Option<WalletAdapterConfig>,
        base_url: &AdapterBaseUrl,
        timeout: AdapterTimeout,
        rotate: bool,
    ) -> Result<(WalletAdapterConfig, Option<SigningSecret>), AppError> {
        let now = self.ports.clock.now();
        Ok(match existing {
            None => {
                let secret = self.new_secret()?;
                let config = WalletAdapterConfig {
                    operator_id: caller.operator_id,
                    base_url: base_url.clone(),
                    timeout,
                    secrets: AdapterSecrets::new(secret.clone()),
                    created_at: now,
                    updated_at: now,
                    revision: 1,
                };
                (config, Some(secret))
            }
            Some(old) => {
                let new_secret = if rotate { Some(self.new_secret()?) } else { None };
                let secrets = match &new_secret {
                    Some(secret) => old.secrets.rotate(secret.clone(), now.unix_timestamp()),
                    None => old.secrets.clone(),
                };
                let config = WalletAdapterConfig {
                    base_url: base_url.clone(),
                    timeout,
                    secrets,
                    updated_at: now,
                    revision: old.revision.saturating_add(1),
                    ..old
                };
                (config, new_secret)
            }
        })
    }

    fn view(&self, config: WalletAdapterConfig) -> WalletAdapterView {
        WalletAdapterView {
            previous_secret_expires_at: config.overlap_ends_at(self.ports.clock.now()),
            config,
        }
    }

    fn new_secret(&self) -> Result<SigningSecret, AppError> {
        SigningSecret::from_random_bytes(&self.ports.random.secret_bytes())
            .map_err(|e| AppError::Internal(e.to_string()))
    }
}
