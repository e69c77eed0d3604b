//! The platform's statement keys. The signing key's secret seed is configuration (or, in
//! development, a file of the data directory); the store keeps only public halves. The
//! configured key is made current at start-up when it is new, so deploying a new key is
//! a rotation; `rotate` does the same for a key staff name. A retired key never becomes
//! current again (it would sign documents that verifiers refuse), and this instance signs
//! only while its key is the current one.

use opinion_statement::StatementKey;

use crate::error::{AppError, ProblemCode};
use crate::flight::office::FlightOffice;
use crate::flight::office::model::StatementKeyRecord;

/// What a rotation did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRotation {
    /// The key current now.
    pub current: StatementKeyRecord,
    /// The key it retired; `None` when the key was current already.
    pub retired: Option<StatementKeyRecord>,
}

impl FlightOffice {
    /// Makes the configured signing key current if the store does not know it yet (at
    /// start-up). A configured key that was retired is kept retired, with a warning:
    /// this instance then refuses to sign until it is given the current key.
    pub async fn register_signing_key(&self) -> Result<StatementKeyRecord, AppError> {
        let record = StatementKeyRecord::new(self.signing_key.public_key(), self.ports.clock.now());
        let stored = self.ports.keys.register_statement_key(&record).await?;
        if stored.retired_at.is_some() {
            tracing::warn!(key_id = %stored.key_id, "the configured statement signing key is retired: this instance signs no statement until it is configured with the current key");
        }
        Ok(stored)
    }

    /// Makes `key` the current statement key, retiring the current one now; nothing
    /// changes when it is current already, and a retired key is refused
    /// (`statement_key_retired`).
    pub async fn rotate_statement_key(&self, key: &StatementKey) -> Result<KeyRotation, AppError> {
        let before = self.ports.keys.statement_keys().await?;
        let previous = before.iter().find(|record| record.retired_at.is_none()).cloned();
        let record = StatementKeyRecord::new(key.public_key(), self.ports.clock.now());
        let current = self.ports.keys.register_statement_key(&record).await?;
        if current.retired_at.is_some() {
            return Err(AppError::Conflict {
                code: ProblemCode::StatementKeyRetired,
                detail: format!(
                    "key {} was retired; a retired key never becomes current again",
                    current.key_id
                ),
            });
        }
        let retired = match previous {
            Some(previous) if previous.key_id != current.key_id => {
                let after = self.ports.keys.statement_keys().await?;
                after.into_iter().find(|record| record.key_id == previous.key_id)
            }
            _ => None,
        };
        tracing::info!(key_id = %current.key_id, retired = ?retired.as_ref().map(|r| r.key_id.to_string()), "statement key rotated");
        Ok(KeyRotation { current, retired })
    }

    /// Every statement key, oldest first, as published.
    pub async fn statement_keys(&self) -> Result<Vec<StatementKeyRecord>, AppError> {
        Ok(self.ports.keys.statement_keys().await?)
    }

    /// This instance's signing key, if it is the current one (`statement_key_not_current`
    /// otherwise: a document it signed would name a retired or unknown key).
    pub(crate) async fn current_signing_key(&self) -> Result<&StatementKey, AppError> {
        let keys = self.ports.keys.statement_keys().await?;
        let mine = self.signing_key.key_id();
        if keys
            .iter()
            .any(|record| record.key_id == mine && record.retired_at.is_none())
        {
            Ok(&self.signing_key)
        } else {
            Err(AppError::Conflict {
                code: ProblemCode::StatementKeyNotCurrent,
                detail: format!(
                    "this instance's statement key {mine} is not the current one; configure the current key"
                ),
            })
        }
    }
}
