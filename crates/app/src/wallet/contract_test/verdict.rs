//! The kept verdicts of the wallet test. Each run is stored with what it ran against and
//! its verdict per product; `flight_wallet_test_passed` is what enabling the flight
//! product asks: did the operator's latest run, against the adapter as configured now,
//! pass the flight section? Any change of the configuration after the run (base URL,
//! timeout or signing secret, each of which decides whether calls work) voids it, as
//! does a later run that failed.

use opinion_core::OperatorId;

use crate::error::AppError;
use crate::model::WalletAdapterConfig;
use crate::wallet::contract_test::{WalletAdapterTest, WalletTestReport};
use crate::wallet::ports::WalletTestRun;

impl WalletAdapterTest {
    /// Keeps `report` as the operator's latest run.
    pub(super) async fn keep(&self, operator: OperatorId, report: &WalletTestReport) -> Result<(), AppError> {
        let run = WalletTestRun {
            id: report.id,
            operator_id: operator,
            ran_at: report.ran_at,
            base_url: report.base_url.clone(),
            opinion_passed: report.opinion.passed,
            flight_passed: report.flight.passed,
            report: serde_json::to_value(report).map_err(|e| AppError::Internal(e.to_string()))?,
        };
        Ok(self.ports.runs.record_wallet_test_run(&run).await?)
    }

    /// Whether the operator's latest wallet test ran against its current adapter (same
    /// base URL, configuration unchanged since the run started) and passed the flight
    /// section. `false` without an adapter or without a run.
    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    pub async fn flight_wallet_test_passed(&self, operator: OperatorId) -> Result<bool, AppError> {
        let Some(adapter) = self.ports.adapters.find_wallet_adapter(operator).await? else {
            return Ok(false);
        };
        let run = self.ports.runs.latest_wallet_test_run(operator).await?;
        Ok(flight_section_passed(&adapter, run.as_ref()))
    }
}

/// Whether `run` (the operator's latest) was against `adapter` as configured now and
/// passed the flight section: the one rule enabling flight and the wallet test share.
pub(crate) fn flight_section_passed(adapter: &WalletAdapterConfig, run: Option<&WalletTestRun>) -> bool {
    run.is_some_and(|run| {
        run.flight_passed && run.base_url == adapter.base_url.as_str() && run.ran_at >= adapter.updated_at
    })
}
