//! The staging simulator's records: simulated users (players of the operator's simulated
//! wallet, with their balances and queued faults) and the simulated wallet's log.

use std::collections::BTreeMap;

use opinion_core::{OperatorId, SimulatorLogId, SimulatorUserId};
use opinion_wallet::{Currency, WalletAccount, WalletFlow};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

/// A simulated user: a player account of the operator's simulated wallet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulatedUser {
    /// Its id (`smu_…`).
    pub id: SimulatorUserId,
    /// The operator it belongs to.
    pub operator_id: OperatorId,
    /// The operator's id of the player, as launched and as the wallet knows it.
    pub external_user_id: String,
    /// A name to launch it with.
    pub display_name: Option<String>,
    /// Its wallet's currency.
    pub currency: Currency,
    /// The balance it was created with, in minor units.
    pub starting_balance: i64,
    /// Its wallet balance now, in minor units.
    pub balance: i64,
    /// A disabled user's wallet refuses it `user_blocked`.
    pub disabled: bool,
    /// Faults its next mutations commit, first first.
    pub faults: Vec<SimulatedFault>,
    /// Counts changes, so two concurrent changes cannot both win.
    pub revision: i64,
    /// Created (UTC).
    pub created_at: OffsetDateTime,
    /// Last changed (UTC).
    pub updated_at: OffsetDateTime,
}

impl SimulatedUser {
    /// The user's account, as the wallet rules see it.
    pub fn account(&self) -> WalletAccount {
        WalletAccount {
            balance: self.balance,
            blocked: self.disabled,
            currency: self.currency,
        }
    }
}

/// A fault the simulated wallet commits on a user's next mutation with a new key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SimulatedFault {
    /// Holds the request past the operator's configured timeout, then applies it: the
    /// platform times out and the mutation is ambiguous although it moved money.
    Timeout,
    /// Answers 500 without applying anything; the key stays free.
    ServerError,
    /// Applies the mutation, then breaks the connection without a whole answer.
    DroppedConnection,
    /// Refuses `insufficient_funds` whatever the balance (recorded under the key).
    InsufficientFunds,
    /// Waits this long, then answers as usual.
    SlowAnswer {
        /// Milliseconds.
        #[serde(rename = "delayMs")]
        delay_ms: u32,
    },
}

impl SimulatedFault {
    /// The fault's name on the wire.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Timeout => "timeout",
            Self::ServerError => "server_error",
            Self::DroppedConnection => "dropped_connection",
            Self::InsufficientFunds => "insufficient_funds",
            Self::SlowAnswer { .. } => "slow_answer",
        }
    }
}

/// What the simulated wallet did with one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogDelivery {
    /// Still being handled.
    Pending,
    /// Answered with this status and JSON body.
    Answered {
        /// The status.
        status: u16,
        /// The body.
        body: serde_json::Value,
    },
    /// The connection was broken without a whole answer.
    Dropped,
}

/// One mutation request the simulated wallet received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletLogEntry {
    /// Its id (`swl_…`), in order of arrival.
    pub id: SimulatorLogId,
    pub operator_id: OperatorId,
    /// The player, when the body named one.
    pub external_user_id: Option<String>,
    /// The idempotency key, when the body had one.
    pub idempotency_key: Option<String>,
    /// The flow, when readable.
    pub flow: Option<WalletFlow>,
    /// The amount in minor units, when readable.
    pub amount: Option<i64>,
    /// The currency, when readable.
    pub currency: Option<Currency>,
    /// The metadata as received.
    pub metadata: BTreeMap<String, String>,
    /// The fault committed on it.
    pub fault: Option<SimulatedFault>,
    /// Whether this request moved money.
    pub applied: bool,
    /// The answer.
    pub delivery: LogDelivery,
    /// When it arrived (UTC).
    pub received_at: OffsetDateTime,
    /// When it was answered or dropped (UTC).
    pub answered_at: Option<OffsetDateTime>,
}
