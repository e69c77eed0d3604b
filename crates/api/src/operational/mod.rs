//! What operations and clients ask of the service itself: liveness, readiness, metrics
//! and the OpenAPI document.

pub mod handlers;
pub mod metrics;
