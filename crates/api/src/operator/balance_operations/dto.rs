//! Wallet operations on the wire: what an operator reconciles with (contract rule 7), and
//! the query that reads them.

use std::collections::BTreeMap;

use opinion_app::model::WalletOperationStep;
use opinion_app::opinion::reads::{BalanceOperation, BalanceOperationQuery};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::shared::page_query::page_of;

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

/// An Opinion operation (the only ones this route lists) always names its market.
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
            market_id: record.market_id.map(|market| market.to_string()).unwrap_or_default(),
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

/// `GET /balance-operations`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BalanceOperationsQuery {
    /// Only this player's.
    pub external_user_id: Option<String>,
    /// Only this market's (`mkt_…`).
    pub market_id: Option<String>,
    /// `buy`, `sell`, `buy_compensation` or `redemption`.
    pub flow: Option<String>,
    /// One of the operation states (`applied`, `manual_review`, …).
    pub state: Option<String>,
    /// Created at or after this time (RFC 3339).
    pub from: Option<String>,
    /// Created before this time (RFC 3339).
    pub to: Option<String>,
    /// `true` adds every operation's steps.
    pub include_steps: Option<bool>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}
page_of!(BalanceOperationsQuery);

impl From<&BalanceOperationsQuery> for BalanceOperationQuery {
    fn from(query: &BalanceOperationsQuery) -> Self {
        Self {
            external_user_id: query.external_user_id.clone(),
            market_id: query.market_id.clone(),
            flow: query.flow.clone(),
            state: query.state.clone(),
            from: query.from.clone(),
            to: query.to.clone(),
            include_steps: query.include_steps.unwrap_or(false),
        }
    }
}
