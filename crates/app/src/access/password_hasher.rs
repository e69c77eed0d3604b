//! Staff password hashing with argon2id (OWASP's recommended parameters, the argon2
//! crate's defaults), off the async runtime because each hash costs tens of milliseconds.

use std::sync::{Arc, OnceLock};

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher as _, PasswordVerifier as _, SaltString};
use async_trait::async_trait;
use opinion_access::Password;

use crate::error::AppError;

/// Hashing and verification of staff passwords, as the use cases see them: a port, so
/// a use-case test can tell which verification ran.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait Passwords: Send + Sync {
    /// A PHC-format hash of `password`, salted with 16 of the given random bytes.
    async fn hash(&self, password: &Password, salt: [u8; 32]) -> Result<String, AppError>;
    /// Whether `password` matches `stored`; with no stored hash (unknown e-mail) it costs
    /// one verification all the same and never matches.
    async fn verify(&self, password: &str, stored: Option<String>) -> Result<bool, AppError>;
}

#[async_trait]
impl Passwords for PasswordHasher {
    async fn hash(&self, password: &Password, salt: [u8; 32]) -> Result<String, AppError> {
        PasswordHasher::hash(self, password, salt).await
    }

    async fn verify(&self, password: &str, stored: Option<String>) -> Result<bool, AppError> {
        PasswordHasher::verify(self, password, stored).await
    }
}

/// Hashes and verifies staff passwords with argon2id.
#[derive(Clone, Default)]
pub struct PasswordHasher {
    dummy: Arc<OnceLock<String>>,
}

impl PasswordHasher {
    /// A PHC-format argon2id hash of `password`, salted with 16 of the given random bytes.
    pub async fn hash(&self, password: &Password, salt: [u8; 32]) -> Result<String, AppError> {
        let password = password.clone();
        run_blocking(move || hash_now(password.expose(), &salt)).await?
    }

    /// Whether `password` matches `stored`. With no stored hash (unknown e-mail) it still
    /// spends the time of one verification, so timing does not reveal which e-mails exist.
    pub async fn verify(&self, password: &str, stored: Option<String>) -> Result<bool, AppError> {
        let known = stored.is_some();
        let stored_or_dummy = match stored {
            Some(hash) => hash,
            None => self.dummy_hash()?,
        };
        let password = password.to_owned();
        let matches = run_blocking(move || {
            PasswordHash::new(&stored_or_dummy)
                .map(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
                .map_err(|e| AppError::Internal(format!("stored password hash is unreadable: {e}")))
        })
        .await??;
        Ok(matches && known)
    }

    fn dummy_hash(&self) -> Result<String, AppError> {
        if let Some(hash) = self.dummy.get() {
            return Ok(hash.clone());
        }
        let hash = hash_now("not a real password", &[0; 32])?;
        Ok(self.dummy.get_or_init(|| hash).clone())
    }
}

fn hash_now(password: &str, salt: &[u8; 32]) -> Result<String, AppError> {
    let salt = SaltString::encode_b64(&salt[..16]).map_err(|e| AppError::Internal(format!("salt: {e}")))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| AppError::Internal(format!("password hashing: {e}")))
}

async fn run_blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, AppError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| AppError::Internal(format!("hashing task: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn verifies_the_right_password_only() {
        let hasher = PasswordHasher::default();
        let password = Password::new("correct horse battery".into()).expect("valid");
        let hash = hasher.hash(&password, [9; 32]).await.expect("hash");
        assert!(hash.starts_with("$argon2id$"));
        assert!(
            hasher
                .verify("correct horse battery", Some(hash.clone()))
                .await
                .expect("verify")
        );
        assert!(!hasher.verify("wrong horse battery", Some(hash)).await.expect("verify"));
    }

    #[tokio::test]
    async fn an_unknown_account_never_matches() {
        let hasher = PasswordHasher::default();
        assert!(!hasher.verify("not a real password", None).await.expect("verify"));
    }
}
