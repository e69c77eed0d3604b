//! What operations and clients ask of the service itself: liveness, readiness and the
//! OpenAPI document.

pub mod handlers;
