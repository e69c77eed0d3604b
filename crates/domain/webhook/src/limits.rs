//! The bounds of one delivery attempt (its time limit is the endpoint's own, see
//! `delivery_settings.rs`) and of secret rotation. Each is a contract the
//! operator's receiver can rely on, so each lives here once and is documented in
//! `docs/operator/webhooks.md`.

/// Largest body the service sends: 256 KiB. Event data is small by design; an envelope
/// above this is never sent and its delivery fails with `payload_too_large`.
pub const MAX_PAYLOAD_BYTES: usize = 256 * 1024;

/// How much of a receiver's answer is kept in the delivery log: 4 KiB, enough to read an
/// error message, too little to turn the log into storage for the receiver.
pub const MAX_STORED_RESPONSE_BYTES: usize = 4 * 1024;

/// How long a worker owns a claimed delivery. Longer than any attempt (the longest
/// endpoint timeout plus name resolution and recording), so no second worker starts the same attempt while the
/// first is still on it; a worker that died releases it when this runs out.
pub const CLAIM_LEASE_SECS: i64 = 120;

/// How long the previous secret keeps signing after a rotation: a day, for the operator
/// to deploy the new secret to every receiver while both signatures are sent.
pub const ROTATION_OVERLAP_SECS: i64 = 86_400;

/// Most in-flight attempts to one endpoint at a time, across all workers of one claim:
/// a slow or dead endpoint can hold at most this many workers' slots, so it never
/// starves the other endpoints, while a busy endpoint answering at once gets enough
/// attempts in flight to keep pace with a high event rate (each attempt waits a round
/// trip to the receiver and a commit of its record).
pub const MAX_IN_FLIGHT_PER_ENDPOINT: u32 = 16;

// A lease outlives any attempt, the overlap fits in a retry window, and a stored answer
// is smaller than a request: checked when the crate compiles.
const _: () = assert!(CLAIM_LEASE_SECS as u64 > 2 * crate::delivery_settings::AttemptTimeout::MAX_SECS as u64);
const _: () = assert!(ROTATION_OVERLAP_SECS as u64 <= crate::retry::MAX_RETRY_AFTER_SECS);
const _: () = assert!(MAX_STORED_RESPONSE_BYTES < MAX_PAYLOAD_BYTES);
