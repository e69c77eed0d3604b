//! The staging simulator on the wire: simulated users, their wallets and logs, faults,
//! and the reports of operations. Amounts are integer strings of minor units.

use std::collections::BTreeMap;

use opinion_app::model::{LogDelivery, SimulatedFault, SimulatedUser, WalletLogEntry};
use opinion_app::simulator::{OperationReport, ReportStep};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::http::error::ApiError;

/// A simulated user to create.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateSimulatedUserBody {
    /// The operator's id of the player (1 to 128 characters), as it will be launched.
    pub external_user_id: String,
    /// A name to launch it with.
    #[serde(default)]
    pub display_name: Option<String>,
    /// ISO 4217 code of its wallet; the operator's currency when absent.
    #[serde(default)]
    pub currency: Option<String>,
    /// Starting balance in minor units, an integer string (0 to 10^15); "0" when absent.
    #[serde(default)]
    pub starting_balance: Option<String>,
}

/// A change of a simulated user; absent fields keep their value.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateSimulatedUserBody {
    /// A new display name.
    #[serde(default)]
    pub display_name: Option<String>,
    /// `true`: its wallet refuses it `user_blocked`.
    #[serde(default)]
    pub disabled: Option<bool>,
}

/// A fault the simulated wallet commits on one of the user's next mutations.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FaultBody {
    /// `timeout` (held past the adapter's timeout, then applied), `server_error` (500,
    /// nothing applied), `dropped_connection` (applied, then the connection is cut),
    /// `insufficient_funds` (refused 402) or `slow_answer` (answered after `delayMs`).
    pub kind: FaultKind,
    /// For `slow_answer`: milliseconds, 1 to 30000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_ms: Option<u32>,
}

/// The kinds of fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// Held past the timeout, then applied.
    Timeout,
    /// 500 without applying.
    ServerError,
    /// Applied, then the connection is cut.
    DroppedConnection,
    /// Refused `insufficient_funds`.
    InsufficientFunds,
    /// Answered after a delay.
    SlowAnswer,
}

impl FaultBody {
    /// The fault asked for.
    pub fn into_fault(self) -> Result<SimulatedFault, ApiError> {
        Ok(match (self.kind, self.delay_ms) {
            (FaultKind::Timeout, None) => SimulatedFault::Timeout,
            (FaultKind::ServerError, None) => SimulatedFault::ServerError,
            (FaultKind::DroppedConnection, None) => SimulatedFault::DroppedConnection,
            (FaultKind::InsufficientFunds, None) => SimulatedFault::InsufficientFunds,
            (FaultKind::SlowAnswer, Some(delay_ms)) if (1..=30_000).contains(&delay_ms) => {
                SimulatedFault::SlowAnswer { delay_ms }
            }
            _ => {
                return Err(opinion_app::error::AppError::invalid(
                    "faults",
                    "`delayMs` (1 to 30000) goes with `slow_answer` only, and `slow_answer` needs it",
                )
                .into());
            }
        })
    }
}

impl From<SimulatedFault> for FaultBody {
    fn from(fault: SimulatedFault) -> Self {
        let (kind, delay_ms) = match fault {
            SimulatedFault::Timeout => (FaultKind::Timeout, None),
            SimulatedFault::ServerError => (FaultKind::ServerError, None),
            SimulatedFault::DroppedConnection => (FaultKind::DroppedConnection, None),
            SimulatedFault::InsufficientFunds => (FaultKind::InsufficientFunds, None),
            SimulatedFault::SlowAnswer { delay_ms } => (FaultKind::SlowAnswer, Some(delay_ms)),
        };
        Self { kind, delay_ms }
    }
}

/// A simulated user.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SimulatedUserBody {
    /// `smu_…`.
    pub id: String,
    /// The operator's id of the player.
    pub external_user_id: String,
    /// Its display name.
    pub display_name: Option<String>,
    /// Its wallet's currency.
    pub currency: String,
    /// The balance it was created with, minor units.
    pub starting_balance: String,
    /// Its wallet balance now, minor units.
    pub balance: String,
    /// Whether its wallet refuses it `user_blocked`.
    pub disabled: bool,
    /// Faults its next mutations will commit, first first.
    pub pending_faults: Vec<FaultBody>,
    /// Created (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// Last changed (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

impl From<SimulatedUser> for SimulatedUserBody {
    fn from(user: SimulatedUser) -> Self {
        Self {
            id: user.id.to_string(),
            external_user_id: user.external_user_id,
            display_name: user.display_name,
            currency: user.currency.as_str().to_owned(),
            starting_balance: user.starting_balance.to_string(),
            balance: user.balance.to_string(),
            disabled: user.disabled,
            pending_faults: user.faults.into_iter().map(FaultBody::from).collect(),
            created_at: user.created_at,
            updated_at: user.updated_at,
        }
    }
}

/// Sets a simulated wallet's balance.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PutSimulatedWalletBody {
    /// The new balance in minor units, an integer string (0 to 10^15).
    pub balance: String,
}

/// A simulated wallet: the balance and a page of its log, newest first.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SimulatedWalletBody {
    /// The player.
    pub external_user_id: String,
    /// The balance, minor units.
    pub balance: String,
    /// Its currency.
    pub currency: String,
    /// Whether mutations are refused `user_blocked`.
    pub disabled: bool,
    /// Every mutation the wallet received for this player, newest first.
    pub log: Vec<WalletLogEntryBody>,
    /// Pass as `cursor` for the next page of the log.
    pub next_cursor: Option<String>,
    /// Whether more log entries follow.
    pub has_more: bool,
}

/// One mutation the simulated wallet received and what it answered.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WalletLogEntryBody {
    /// `swl_…`.
    pub id: String,
    /// The idempotency key.
    pub idempotency_key: Option<String>,
    /// The flow.
    pub flow: Option<String>,
    /// The amount, minor units.
    pub amount: Option<String>,
    /// The currency.
    pub currency: Option<String>,
    /// The metadata as received.
    pub metadata: BTreeMap<String, String>,
    /// The fault committed on it.
    pub fault: Option<FaultBody>,
    /// Whether this request moved money (a repeat of an applied key does not).
    pub applied: bool,
    /// `pending`, `answered` or `dropped` (the connection was cut).
    pub delivery: String,
    /// The status answered.
    pub answer_status: Option<u16>,
    /// The body answered.
    #[schema(value_type = Option<Object>)]
    pub answer_body: Option<serde_json::Value>,
    /// Received (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub received_at: OffsetDateTime,
    /// Answered or dropped (UTC).
    #[serde(with = "time::serde::rfc3339::option")]
    pub answered_at: Option<OffsetDateTime>,
}

impl From<WalletLogEntry> for WalletLogEntryBody {
    fn from(entry: WalletLogEntry) -> Self {
        let (delivery, answer_status, answer_body) = match entry.delivery {
            LogDelivery::Pending => ("pending", None, None),
            LogDelivery::Answered { status, body } => ("answered", Some(status), Some(body)),
            LogDelivery::Dropped => ("dropped", None, None),
        };
        Self {
            id: entry.id.to_string(),
            idempotency_key: entry.idempotency_key,
            flow: entry.flow.map(|flow| flow.as_str().to_owned()),
            amount: entry.amount.map(|amount| amount.to_string()),
            currency: entry.currency.map(|currency| currency.as_str().to_owned()),
            metadata: entry.metadata,
            fault: entry.fault.map(FaultBody::from),
            applied: entry.applied,
            delivery: delivery.to_owned(),
            answer_status,
            answer_body,
            received_at: entry.received_at,
            answered_at: entry.answered_at,
        }
    }
}

/// An operation for one simulated user.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UserOperationBody {
    /// `launch`, `buy`, `sell`, `inject_faults` or `clear_faults`.
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
    /// Faults to queue for the user's next mutations before the operation runs.
    #[serde(default)]
    pub faults: Vec<FaultBody>,
}

/// An operator-wide scenario.
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
