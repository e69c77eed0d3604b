//! Simulated wallets on the wire: the balance, and the log of every mutation received.
//! Amounts are integer strings of minor units.

use std::collections::BTreeMap;

use opinion_app::model::{LogDelivery, WalletLogEntry};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::simulator::users::dto::FaultBody;

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
