//! Whether an operator's players may buy flight tickets (FLIGHT.md §3). Platform staff
//! enable it, and only once nothing blocks it: every blocker is listed at once, so staff
//! fix them all in one go. Disabling stops new tickets; tickets already bought fly and
//! settle.

use opinion_core::OperatorId;

use crate::error::{AppError, ProblemCode};
use crate::flight::FlightGame;
use crate::flight::model::Enablement;

impl FlightGame {
    /// `product_not_enabled` unless the operator's players may buy tickets.
    pub(crate) async fn ensure_enabled(&self, operator: OperatorId) -> Result<(), AppError> {
        if self.is_enabled(operator).await? {
            Ok(())
        } else {
            Err(AppError::Conflict {
                code: ProblemCode::ProductNotEnabled,
                detail: "the flight product is not enabled for this operator".into(),
            })
        }
    }

    /// Whether the operator's players may buy tickets (and be launched into flight).
    pub async fn is_enabled(&self, operator: OperatorId) -> Result<bool, AppError> {
        let enablement = self.ports.store.find_enablement(operator).await?;
        Ok(enablement.is_some_and(|enablement| enablement.enabled))
    }

    /// The operator's enablement as stored, if staff ever changed it.
    pub async fn enablement(&self, operator: OperatorId) -> Result<Option<Enablement>, AppError> {
        Ok(self.ports.store.find_enablement(operator).await?)
    }
}
