//! The HTTP edge shared by every route: the guard, the credentials it reads and the
//! operator rate limit it applies, the client a request came from, the request id, the
//! request metrics, request parsing, binding a listener, problem bodies, the one mapping
//! of errors to them and the problem responses handlers document, and the gate that hides
//! the simulator where there is none.

pub mod auth;
pub mod client;
pub mod error;
pub mod extract;
pub mod listen;
pub mod metrics;
pub mod player_auth;
pub mod problem;
pub mod problem_responses;
pub mod rate_limit;
pub mod request_id;
pub mod simulator_gate;
