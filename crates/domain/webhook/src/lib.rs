//! Webhooks of the operator contract (DESIGN §6), the pure part: the event catalog, the
//! envelope, what an endpoint subscribes to, signing secrets, Standard Webhooks
//! signatures, the retry schedule, what an attempt's result means and when an endpoint is
//! disabled, and which addresses the service must never deliver to. No I/O, no clock, no
//! randomness: times (unix seconds) and random numbers are the caller's.
//!
//! | concern | file |
//! |---|---|
//! | event types, their names and `data` fields | `event_type.rs` |
//! | the JSON body `{ id, type, createdAt, operatorId, data }` | `envelope.rs` |
//! | explicit subscriptions (new types are never sent unasked) | `subscription.rs` |
//! | which events echo the operator's launch metadata, from which launch | `launch_metadata.rs` |
//! | `whsec_` secrets | `secret.rs` |
//! | `webhook-id` / `webhook-timestamp` / `webhook-signature` | `signature.rs` |
//! | backoff with jitter, `Retry-After` | `retry.rs` |
//! | an endpoint's own max attempts and attempt timeout | `delivery_settings.rs` |
//! | attempt outcome, disabling after days of failure | `outcome.rs` |
//! | delivery statuses and the plan after each attempt | `delivery.rs` |
//! | per-endpoint rate limits | `rate_limit.rs` |
//! | payload, response, timeout, lease and rotation bounds | `limits.rs` |
//! | outbound address and URL checks | `address.rs` |

#![warn(missing_docs)]

mod address;
mod delivery;
mod delivery_settings;
mod envelope;
mod event_type;
mod launch_metadata;
mod limits;
mod outcome;
mod rate_limit;
mod retry;
mod secret;
mod signature;
mod subscription;

pub use address::is_refused_target;
pub use address::{EndpointUrlError, MAX_URL_LEN, METADATA_V4, METADATA_V6, check_endpoint_url, is_forbidden_target};
pub use delivery::plan_after_attempt;
pub use delivery::{AttemptFacts, AttemptPlan, AttemptTrigger, DeliveryStatus, DeliveryStep, DisableReason};
pub use delivery_settings::{AttemptTimeout, AttemptTimeoutError, MaxAttempts, MaxAttemptsError};
pub use envelope::{CreatedAt, CreatedAtError, Envelope, EnvelopeError};
pub use event_type::{EventType, UnknownEventType};
pub use launch_metadata::{METADATA_FIELD, MetadataSource, PLAYER_FIELD, PLAYER_SESSION_FIELD};
pub use limits::{CLAIM_LEASE_SECS, MAX_IN_FLIGHT_PER_ENDPOINT, MAX_PAYLOAD_BYTES};
pub use limits::{MAX_STORED_RESPONSE_BYTES, ROTATION_OVERLAP_SECS};
pub use outcome::{AttemptOutcome, AttemptResult, DISABLE_AFTER_FAILING_SECS, classify_attempt, should_disable};
pub use rate_limit::{RateLimit, RateLimitError};
pub use retry::{LATE_DELAY_SECS, MAX_RETRY_AFTER_SECS, RETRY_DELAYS_SECS, delay_with_retry_after, next_attempt_delay};
pub use secret::{SecretError, SigningSecret};
pub use signature::{DEFAULT_TOLERANCE_SECS, SignError, SignatureHeaders, VerifyError, sign, verify};
pub use signature::{WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER};
pub use subscription::{Subscription, SubscriptionError};
