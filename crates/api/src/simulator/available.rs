//! Whether this environment has a simulator: development and staging do, production
//! does not, and there every simulator call answers 404.

use opinion_app::simulator::Simulator;

use crate::http::error::ApiError;
use crate::state::ApiState;

/// The simulator, or 404 where there is none (production).
pub fn simulator(state: &ApiState) -> Result<&Simulator, ApiError> {
    state.simulator.as_ref().ok_or(ApiError::NotAvailableInProduction)
}
