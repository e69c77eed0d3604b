//! The login throttle around every staff password check (a login, a change of one's own
//! password): the attempt is counted, and refused while a counter is locked, before the
//! password is looked at, so a throttled answer costs no verification and is the same
//! whether or not the e-mail belongs to anyone.

use std::net::IpAddr;

use opinion_access::{ThrottleKey, retry_after_secs};
use time::OffsetDateTime;

use crate::access::Access;
use crate::error::AppError;

/// Stale counters one attempt deletes at most: enough to outpace the (at most two)
/// counters an attempt creates, small enough to cost little.
const PRUNE_BATCH: u32 = 100;

/// The counters a password attempt for `email` from `address` counts against: the
/// e-mail's, and the address's when the client's address is known.
pub(crate) fn throttle_keys(email: &str, address: Option<IpAddr>) -> Vec<ThrottleKey> {
    std::iter::once(ThrottleKey::email(email))
        .chain(address.map(ThrottleKey::address))
        .collect()
}

impl Access {
    /// Counts a password attempt before it is verified; 429 `rate_limited` with the wait
    /// while a counter is locked.
    pub(crate) async fn admit_password_attempt(&self, keys: &[ThrottleKey]) -> Result<(), AppError> {
        let now = self.ports.clock.now();
        let throttle = &self.settings.login_throttle;
        let refused = self
            .ports
            .login_attempts
            .admit_login_attempt(keys, throttle, now)
            .await?;
        self.prune_login_attempts(now).await;
        match refused {
            None => Ok(()),
            Some(wait) => {
                tracing::info!(wait_secs = wait.whole_seconds(), "password attempt throttled");
                Err(AppError::RateLimited {
                    retry_after_secs: retry_after_secs(wait),
                })
            }
        }
    }

    /// Records that an admitted attempt's password was right.
    pub(crate) async fn password_attempt_succeeded(&self, keys: &[ThrottleKey]) -> Result<(), AppError> {
        let now = self.ports.clock.now();
        Ok(self
            .ports
            .login_attempts
            .record_login_success(keys, &self.settings.login_throttle, now)
            .await?)
    }

    /// Deletes counters the policy has forgotten. A failure only leaves them for the
    /// next attempt: it never fails the attempt.
    async fn prune_login_attempts(&self, now: OffsetDateTime) {
        let before = now - self.settings.login_throttle.forget_after;
        if let Err(error) = self
            .ports
            .login_attempts
            .prune_login_attempts(before, PRUNE_BATCH)
            .await
        {
            tracing::warn!(%error, "pruning login throttling counters failed");
        }
    }
}
