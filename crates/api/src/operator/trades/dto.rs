//! Trades on the wire, alone and with their wallet operations, and the queries that
//! read them.

use opinion_app::model::Trade;
use opinion_app::opinion::reads::{TradeDetail, TradeQuery};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::operator::balance_operations::dto::BalanceOperationBody;
use crate::shared::page_query::page_of;

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

/// `GET /trades` (and the page of one player's trades in one market).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TradesQuery {
    /// Only this player's trades.
    pub external_user_id: Option<String>,
    /// Only this market's trades (`mkt_…`).
    pub market_id: Option<String>,
    /// `pending`, `manual_review`, `executed` or `failed`.
    pub status: Option<String>,
    /// `buy` or `sell`.
    pub side: Option<String>,
    /// Created at or after this time (RFC 3339).
    pub from: Option<String>,
    /// Created before this time (RFC 3339).
    pub to: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}
page_of!(TradesQuery);

impl From<&TradesQuery> for TradeQuery {
    fn from(query: &TradesQuery) -> Self {
        Self {
            external_user_id: query.external_user_id.clone(),
            market_id: query.market_id.clone(),
            status: query.status.clone(),
            side: query.side.clone(),
            from: query.from.clone(),
            to: query.to.clone(),
        }
    }
}

/// The page of one player's trades in one market.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    /// Trades per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// Where the previous page ended.
    pub cursor: Option<String>,
}
page_of!(HistoryQuery);
