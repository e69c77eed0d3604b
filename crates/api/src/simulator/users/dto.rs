//! Simulated users on the wire, with the faults their simulated wallet is to commit.
//! Amounts are integer strings of minor units.

use opinion_app::model::{SimulatedFault, SimulatedUser};
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
/// The longest delay a `slow_answer` fault may ask for, in milliseconds.
pub const MAX_DELAY_MS: u32 = 30_000;

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
            (FaultKind::SlowAnswer, Some(delay_ms)) if (1..=MAX_DELAY_MS).contains(&delay_ms) => {
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
