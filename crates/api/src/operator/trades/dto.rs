//! Trades on the wire, alone and with their wallet operations.

use opinion_app::TradeDetail;
use opinion_app::model::Trade;
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::operator::balance_operations::dto::BalanceOperationBody;

/// One buy or sell. Shares and amounts are integer strings of minor units.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TradeBody {
    /// `trd_…`
    pub id: String,
    /// `mkt_…`
    pub market_id: String,
    /// `usr_…`
    pub user_id: String,
    /// The operator's id of the player.
    pub external_user_id: String,
    /// The hosted app's id of the order.
    pub client_order_id: String,
    /// `buy` or `sell`.
    pub side: String,
    /// `yes` or `no`.
    pub outcome: String,
    /// `shares` or `amount`: how the player sized the order.
    pub order_kind: String,
    /// The share count or amount asked for.
    pub order_value: String,
    /// The player's limit: maximum cost of a buy, minimum proceeds of a sale.
    pub order_limit: Option<String>,
    /// Shares traded.
    pub shares: String,
    /// Minor units debited (buy) or credited (sell), fee included.
    pub amount: String,
    /// The fee inside `amount`.
    pub fee: String,
    /// ISO 4217 currency.
    pub currency: String,
    /// The outcome's price before the trade, parts per million.
    pub price_before_ppm: u32,
    /// The same as a decimal.
    pub price_before: String,
    /// The outcome's price after the trade, parts per million.
    pub price_after_ppm: u32,
    /// The same as a decimal.
    pub price_after: String,
    /// `pending`, `manual_review`, `executed` or `failed`.
    pub status: String,
    /// Why it failed, a stable code.
    pub failure_reason: Option<String>,
    /// When the order arrived (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it was executed or failed.
    #[serde(with = "time::serde::rfc3339::option")]
    pub settled_at: Option<OffsetDateTime>,
}

impl From<Trade> for TradeBody {
    fn from(trade: Trade) -> Self {
        Self {
            id: trade.id.to_string(),
            market_id: trade.market_id.to_string(),
            user_id: trade.user_id.to_string(),
            external_user_id: trade.external_user_id,
            client_order_id: trade.client_order_id,
            side: trade.side.as_str().to_owned(),
            outcome: trade.outcome.as_str().to_owned(),
            order_kind: trade.order_kind.as_str().to_owned(),
            order_value: trade.order_value.to_string(),
            order_limit: trade.order_limit.map(|limit| limit.to_string()),
            shares: trade.shares.to_string(),
            amount: trade.amount.to_string(),
            fee: trade.fee.to_string(),
            currency: trade.currency.as_str().to_owned(),
            price_before_ppm: trade.price_before.ppm(),
            price_before: trade.price_before.to_string(),
            price_after_ppm: trade.price_after.ppm(),
            price_after: trade.price_after.to_string(),
            status: trade.status.as_str().to_owned(),
            failure_reason: trade.failure_reason,
            created_at: trade.created_at,
            settled_at: trade.settled_at,
        }
    }
}

/// A trade with the wallet operations made for it (and their steps).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TradeDetailBody {
    /// The trade.
    #[serde(flatten)]
    pub trade: TradeBody,
    /// The market's question.
    pub question: String,
    /// Its wallet operations, oldest first.
    pub wallet_operations: Vec<BalanceOperationBody>,
}

impl From<TradeDetail> for TradeDetailBody {
    fn from(detail: TradeDetail) -> Self {
        Self {
            trade: detail.trade.into(),
            question: detail.market.market.question,
            wallet_operations: detail.operations.into_iter().map(BalanceOperationBody::from).collect(),
        }
    }
}
