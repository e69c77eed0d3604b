//! Webhooks: the transactional outbox every business change writes its events to,
//! endpoints, deliveries and their claims, attempts (recorded alone or together), and the
//! `WebhookStore` port.

mod attempt_batches;
mod attempts;
mod claims;
mod deliveries;
mod endpoints;
pub(crate) mod outbox;
mod rows;
mod store;
mod targets;

pub(crate) use attempt_batches::AttemptBatches;
