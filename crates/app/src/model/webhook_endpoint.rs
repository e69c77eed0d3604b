//! A webhook endpoint as stored: where an operator receives events, what it subscribes
//! to, how deliveries to it are signed and throttled, and whether it is healthy.

use opinion_core::{OperatorId, WebhookEndpointId};
use opinion_webhook::{AttemptTimeout, DisableReason, MaxAttempts, RateLimit, SigningSecret, Subscription};
use time::OffsetDateTime;

/// An operator's webhook endpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct WebhookEndpoint {
    pub id: WebhookEndpointId,
    /// The operator it belongs to.
    pub operator_id: OperatorId,
    /// Where deliveries are sent.
    pub url: String,
    /// The operator's note on what it is for.
    pub description: Option<String>,
    /// The event types it receives.
    pub subscription: Subscription,
    /// Whether deliveries are made to it.
    pub enabled: bool,
    /// Why it is disabled, when it is.
    pub disabled_reason: Option<DisableReason>,
    /// At most this many attempts a minute, when set.
    pub rate_limit: Option<RateLimit>,
    /// Scheduled attempts a delivery to it gets before it is a dead letter.
    pub max_attempts: MaxAttempts,
    /// How long one attempt to it may take.
    pub timeout: AttemptTimeout,
    /// The secrets that sign its deliveries.
    pub secrets: EndpointSecrets,
    /// Since when it has failed without a success, if it is failing.
    pub failing_since: Option<OffsetDateTime>,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// When the operator (or the service, by disabling it) last changed it.
    pub updated_at: OffsetDateTime,
}

/// The current secret and, during a rotation overlap, the previous one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointSecrets {
    /// Signs every delivery.
    pub current: SigningSecret,
    /// Also signs deliveries until `previous_expires_at`, after a rotation.
    pub previous: Option<SigningSecret>,
    /// When the previous secret stops signing.
    pub previous_expires_at: Option<OffsetDateTime>,
}

impl EndpointSecrets {
    /// A fresh endpoint's secrets: one, no previous.
    pub fn new(current: SigningSecret) -> Self {
        Self {
            current,
            previous: None,
            previous_expires_at: None,
        }
    }

    /// The secrets that sign an attempt made at `now`, current first.
    pub fn active_at(&self, now: OffsetDateTime) -> Vec<SigningSecret> {
        let mut active = vec![self.current.clone()];
        if let (Some(previous), Some(until)) = (&self.previous, self.previous_expires_at)
            && now < until
        {
            active.push(previous.clone());
        }
        active
    }

    /// The secrets after rotating to `next` at `now`: the current one keeps signing until
    /// `overlap_until`; an older previous secret is dropped.
    pub fn rotated(&self, next: SigningSecret, overlap_until: OffsetDateTime) -> Self {
        Self {
            current: next,
            previous: Some(self.current.clone()),
            previous_expires_at: Some(overlap_until),
        }
    }
}

/// A change to an endpoint, written with an optimistic check on `updated_at` so that
/// two concurrent changes never silently overwrite each other.
#[derive(Debug, Clone, PartialEq)]
pub struct EndpointUpdate {
    /// The endpoint as it is to be stored (its operator-editable fields, status and secrets).
    pub endpoint: WebhookEndpoint,
    /// The `updated_at` read before the change; the write applies only if it still holds.
    pub expected_updated_at: OffsetDateTime,
    /// The change disables the endpoint: its pending deliveries are cancelled.
    pub cancel_pending: bool,
    /// The change re-enables the endpoint: its failure streak starts afresh.
    pub reset_health: bool,
    /// Events the change causes, written in the same transaction.
    pub events: Vec<super::NewEvent>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn secret(byte: u8) -> SigningSecret {
        SigningSecret::from_random_bytes(&[byte; 32]).expect("valid")
    }

    #[test]
    fn the_previous_secret_signs_until_the_overlap_ends() {
        let at = datetime!(2026-11-22 12:00 UTC);
        let rotated = EndpointSecrets::new(secret(1)).rotated(secret(2), at);
        assert_eq!(
            rotated.active_at(at - time::Duration::seconds(1)),
            vec![secret(2), secret(1)]
        );
        assert_eq!(rotated.active_at(at), vec![secret(2)]);
        let again = rotated.rotated(secret(3), at);
        assert_eq!(again.previous, Some(secret(2)));
    }
}
