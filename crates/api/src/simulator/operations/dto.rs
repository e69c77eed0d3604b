//! Simulator operations and scenarios on the wire, and their step-by-step reports.
//! Amounts are integer strings of minor units.

use std::collections::BTreeMap;

use opinion_app::simulator::{OperationReport, ReportStep};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::simulator::users::dto::FaultBody;

/// An operation for one simulated user. A field of another operation is refused.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UserOperationBody {
    /// `launch`, `buy`, `sell`, `launch_flight`, `buy_ticket`, `cash_out`, `play_flight`,
    /// `inject_faults` or `clear_faults`. The flight operations need a simulated user in
    /// IDR, and wait for a boarding flight (up to 2 minutes) as a player's page would.
    pub operation: String,
    /// For `buy` and `sell`: the market (`mkt_…`).
    #[serde(default)]
    pub market_id: Option<String>,
    /// For `buy` and `sell`: `yes` or `no`.
    #[serde(default)]
    pub outcome: Option<String>,
    /// For `buy` (or `amount`) and `sell`: whole shares, an integer string.
    #[serde(default)]
    pub shares: Option<String>,
    /// For `buy`: minor units to spend instead of `shares`, an integer string.
    #[serde(default)]
    pub amount: Option<String>,
    /// For `buy_ticket` and `play_flight`: the stake in whole rupiah, an integer string.
    #[serde(default)]
    pub stake: Option<String>,
    /// For `buy_ticket`: cash out automatically at this multiplier (e.g. `"2.00"`).
    #[serde(default)]
    pub auto_cash_out: Option<String>,
    /// For `buy_ticket`: the purchase's client ticket id (a repeat returns the first
    /// ticket); a fresh `sim-…` one when absent.
    #[serde(default)]
    pub client_ticket_id: Option<String>,
    /// For `cash_out`: the simulated user's ticket (`tkt_…`).
    #[serde(default)]
    pub ticket_id: Option<String>,
    /// For `play_flight`: the multiplier to cash out at by hand, `"1.01"` to `"100.00"`.
    #[serde(default)]
    pub cash_out_at: Option<String>,
    /// Faults to queue for the user's next mutations before the operation runs.
    #[serde(default)]
    pub faults: Vec<FaultBody>,
}

/// An operator-wide scenario. A field of another scenario is refused.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScenarioBody {
    /// `connect_wallet`, `create_market`, `trade_batch` or `resolve_market`.
    pub scenario: String,
    /// `connect_wallet`: the adapter's timeout in milliseconds.
    #[serde(default)]
    pub timeout_ms: Option<i64>,
    /// `create_market`: the question.
    #[serde(default)]
    pub question: Option<String>,
    /// `create_market`: minutes until trading closes (default 60).
    #[serde(default)]
    pub close_in_minutes: Option<i64>,
    /// `create_market`: LMSR liquidity in minor units, an integer string (default "100000").
    #[serde(default)]
    pub liquidity: Option<String>,
    /// `create_market`: fee in basis points (default 0).
    #[serde(default)]
    pub fee_bps: Option<u16>,
    /// `trade_batch`, `resolve_market`: the market.
    #[serde(default)]
    pub market_id: Option<String>,
    /// `trade_batch`: `yes` or `no`.
    #[serde(default)]
    pub outcome: Option<String>,
    /// `trade_batch`: shares each user buys, an integer string.
    #[serde(default)]
    pub shares: Option<String>,
    /// `trade_batch`: the simulated users (`smu_…`); the newest 50 when absent.
    #[serde(default)]
    pub users: Vec<String>,
    /// `resolve_market`: `yes`, `no` or `void`.
    #[serde(default)]
    pub resolution: Option<String>,
}

impl UserOperationBody {
    /// The wire names of the operation's own fields that the request gives (`faults`,
    /// which every operation takes, left out), so a field meant for another operation is
    /// refused rather than silently ignored.
    pub fn given_fields(&self) -> Vec<&'static str> {
        given([
            ("marketId", self.market_id.is_some()),
            ("outcome", self.outcome.is_some()),
            ("shares", self.shares.is_some()),
            ("amount", self.amount.is_some()),
            ("stake", self.stake.is_some()),
            ("autoCashOut", self.auto_cash_out.is_some()),
            ("clientTicketId", self.client_ticket_id.is_some()),
            ("ticketId", self.ticket_id.is_some()),
            ("cashOutAt", self.cash_out_at.is_some()),
        ])
    }
}

impl ScenarioBody {
    /// The wire names of the scenario fields the request gives, so a field meant for
    /// another scenario is refused rather than silently ignored.
    pub fn given_fields(&self) -> Vec<&'static str> {
        given([
            ("timeoutMs", self.timeout_ms.is_some()),
            ("question", self.question.is_some()),
            ("closeInMinutes", self.close_in_minutes.is_some()),
            ("liquidity", self.liquidity.is_some()),
            ("feeBps", self.fee_bps.is_some()),
            ("marketId", self.market_id.is_some()),
            ("outcome", self.outcome.is_some()),
            ("shares", self.shares.is_some()),
            ("users", !self.users.is_empty()),
            ("resolution", self.resolution.is_some()),
        ])
    }
}

fn given<const N: usize>(fields: [(&'static str, bool); N]) -> Vec<&'static str> {
    fields
        .into_iter()
        .filter(|(_, present)| *present)
        .map(|(name, _)| name)
        .collect()
}

/// What an operation did, step by step.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OperationReportBody {
    /// The operation or scenario.
    pub operation: String,
    /// Whether every step completed.
    pub completed: bool,
    /// The steps in order.
    pub steps: Vec<ReportStepBody>,
}

/// One step.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportStepBody {
    /// What the step did.
    pub step: String,
    /// `completed` or `failed`.
    pub outcome: String,
    /// What happened.
    pub detail: String,
    /// Ids and values to look up.
    pub ids: BTreeMap<String, String>,
}

impl From<OperationReport> for OperationReportBody {
    fn from(report: OperationReport) -> Self {
        Self {
            operation: report.operation,
            completed: report.completed,
            steps: report.steps.into_iter().map(ReportStepBody::from).collect(),
        }
    }
}

impl From<ReportStep> for ReportStepBody {
    fn from(step: ReportStep) -> Self {
        Self {
            step: step.step,
            outcome: step.outcome.as_str().to_owned(),
            detail: step.detail,
            ids: step.ids,
        }
    }
}
