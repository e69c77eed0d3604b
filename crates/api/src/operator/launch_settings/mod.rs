//! `/api/operator/launch-settings`: the hosts an operator's players open the hosted app
//! on, and the sites allowed to frame it there.

pub mod dto;
pub mod handlers;
