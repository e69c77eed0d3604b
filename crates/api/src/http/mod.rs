//! The HTTP edge shared by every route: the guard and the credentials it reads, the
//! request id, request parsing, problem bodies and the one mapping of errors to them, and
//! the gate that hides the simulator where there is none.

pub mod auth;
pub mod error;
pub mod extract;
pub mod player_auth;
pub mod problem;
pub mod request_id;
pub mod simulator_gate;
