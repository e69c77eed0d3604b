//! Listing the operator's statement corrections, newest first, of every report or of one
//! (`reportId`; like every list filter, a report the operator does not have lists
//! nothing rather than 404). Each comes with its signed document, so the operator keeps
//! and verifies it like a statement.

use opinion_core::{OperatorId, Page, PageRequest, StatementCorrectionKind};

use crate::error::AppError;
use crate::flight::office::FlightOffice;
use crate::flight::office::model::Correction;
use crate::opinion::reads::filters::optional_id;

impl FlightOffice {
    /// One page of the operator's corrections, newest first; `report` (`fsr_…`) keeps
    /// one report's.
    pub async fn list_corrections(
        &self,
        operator: OperatorId,
        report: Option<&str>,
        page: PageRequest<StatementCorrectionKind>,
    ) -> Result<Page<Correction, StatementCorrectionKind>, AppError> {
        let report = optional_id("reportId", report)?;
        Ok(self.ports.store.list_corrections(operator, report, page).await?)
    }
}
