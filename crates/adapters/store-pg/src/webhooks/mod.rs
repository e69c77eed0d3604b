//! Webhooks: the transactional outbox every business change writes its events to,
//! endpoints, deliveries and their claims, attempts, and the `WebhookStore` port.

mod attempts;
mod claims;
mod deliveries;
mod endpoints;
pub(crate) mod outbox;
mod rows;
mod store;
