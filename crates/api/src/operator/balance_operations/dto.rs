//! Wallet operations on the wire: what an operator reconciles with (contract rule 7).

use std::collections::BTreeMap;

use opinion_app::BalanceOperation;
use opinion_app::model::WalletOperationStep;
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;

/// One call of the operator's wallet for one business action.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BalanceOperationBody {
    /// `wop_…`
    pub id: String,
    /// `usr_…`
    pub user_id: String,
    /// The operator's id of the player, as sent.
    pub external_user_id: String,
    /// `buy`, `sell`, `buy_compensation` or `redemption`.
    pub flow: String,
    /// The reason key sent (`opinion.buy`, …).
    pub reason: String,
    /// Minor units moved (or to be moved), an integer string.
    #[schema(example = "1250")]
    pub amount: String,
    /// ISO 4217 currency.
    pub currency: String,
    /// The action's one idempotency key.
    pub idempotency_key: String,
    /// The metadata sent, camelCase keys.
    pub metadata: BTreeMap<String, String>,
    /// `mkt_…`
    pub market_id: String,
    /// `trd_…` for buys, sells and compensations.
    pub trade_id: Option<String>,
    /// `red_…` for redemptions.
    pub redemption_id: Option<String>,
    /// `prepared`, `sent`, `applied`, `rejected`, `manual_review`, `resolved_applied`,
    /// `resolved_not_applied` or `abandoned`.
    pub state: String,
    /// How many times it was sent.
    pub attempts: u32,
    /// The HTTP status of the wallet's last answer.
    pub http_status: Option<u16>,
    /// What the last answer meant.
    pub detail: Option<String>,
    /// The wallet's reference of the applied mutation (the contract's own name).
    #[serde(rename = "remote_reference")]
    pub remote_reference: Option<String>,
    /// The player's balance after it, as the wallet reported, an integer string.
    pub balance_after: Option<String>,
    /// When it was prepared (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it was last sent.
    #[serde(with = "time::serde::rfc3339::option")]
    pub sent_at: Option<OffsetDateTime>,
    /// When the last answer came.
    #[serde(with = "time::serde::rfc3339::option")]
    pub answered_at: Option<OffsetDateTime>,
    /// When platform staff settled it after manual review.
    #[serde(with = "time::serde::rfc3339::option")]
    pub resolved_at: Option<OffsetDateTime>,
    /// Every step, in order, when asked for (`includeSteps=true`; always on a trade).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<StepBody>>,
}

/// One step of a wallet operation's log.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StepBody {
    /// The state it moved to.
    pub state: String,
    /// The HTTP status observed, when the step was an answer.
    pub http_status: Option<u16>,
    /// What happened.
    pub detail: Option<String>,
    /// When (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
}

impl From<WalletOperationStep> for StepBody {
    fn from(step: WalletOperationStep) -> Self {
        Self {
            state: step.state.as_str().to_owned(),
            http_status: step.http_status,
            detail: step.detail,
            at: step.at,
        }
    }
}

impl From<BalanceOperation> for BalanceOperationBody {
    fn from(operation: BalanceOperation) -> Self {
        let steps = operation
            .steps
            .map(|steps| steps.into_iter().map(StepBody::from).collect());
        let record = operation.operation;
        Self {
            id: record.id.to_string(),
            user_id: record.user_id.to_string(),
            external_user_id: record.external_user_id,
            flow: record.flow.as_str().to_owned(),
            reason: record.reason.as_str().to_owned(),
            amount: record.amount.to_string(),
            currency: record.currency.as_str().to_owned(),
            idempotency_key: record.idempotency_key.as_str().to_owned(),
            metadata: record.metadata,
            market_id: record.market_id.to_string(),
            trade_id: record.trade_id.map(|id| id.to_string()),
            redemption_id: record.redemption_id.map(|id| id.to_string()),
            state: record.state.as_str().to_owned(),
            attempts: record.attempts,
            http_status: record.http_status,
            detail: record.detail,
            remote_reference: record.remote_reference,
            balance_after: record.balance_after.map(|balance| balance.to_string()),
            created_at: record.created_at,
            sent_at: record.sent_at,
            answered_at: record.answered_at,
            resolved_at: record.resolved_at,
            steps,
        }
    }
}
