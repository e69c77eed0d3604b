//! `/api/operator/simulator/users/{id}/operations` and `/api/operator/simulator/operations`:
//! operations and scenarios, each answered with its step-by-step report.

pub mod dto;
pub mod handlers;
