//! Trades on the wire, alone and with their wallet operations, and the queries that
//! read them.

use opinion_app::model::Trade;
use opinion_app::opinion::reads::{TradeDetail, TradeQuery};
use opinion_core::{MarketId, TradeId, UserId};
use opinion_market::PricePpm;
use opinion_wallet::Currency;
use serde::{Deserialize, Serialize};
use serde_with::{DisplayFromStr, serde_as};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::operator::balance_operations::dto::BalanceOperationBody;
use crate::shared::page_query::page_of;

// The fields keep their types and are written as text while the body is serialized, so a
// page of trades turns into JSON without a string allocated per field.
/// One buy or sell. Shares and amounts are integer strings of minor units.
#[serde_as]
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TradeBody {
    /// `trd_…`
    #[schema(value_type = String)]
    pub id: TradeId,
    /// `mkt_…`
    #[schema(value_type = String)]
    pub market_id: MarketId,
    /// `usr_…`
    #[schema(value_type = String)]
    pub user_id: UserId,
    /// The operator's id of the player.
    pub external_user_id: String,
    /// The hosted app's id of the order.
    pub client_order_id: String,
    /// `buy` or `sell`.
    pub side: &'static str,
    /// `yes` or `no`.
    pub outcome: &'static str,
    /// `shares` or `amount`: how the player sized the order.
    pub order_kind: &'static str,
    /// The share count or amount asked for.
    #[serde_as(as = "DisplayFromStr")]
    #[schema(value_type = String)]
    pub order_value: i64,
    /// The player's limit: maximum cost of a buy, minimum proceeds of a sale.
    #[serde_as(as = "Option<DisplayFromStr>")]
    #[schema(value_type = Option<String>)]
    pub order_limit: Option<i64>,
    /// Shares traded.
    #[serde_as(as = "DisplayFromStr")]
    #[schema(value_type = String)]
    pub shares: i64,
    /// Minor units debited (buy) or credited (sell), fee included.
    #[serde_as(as = "DisplayFromStr")]
    #[schema(value_type = String)]
    pub amount: i64,
    /// The fee inside `amount`.
    #[serde_as(as = "DisplayFromStr")]
    #[schema(value_type = String)]
    pub fee: i64,
    /// ISO 4217 currency.
    #[serde_as(as = "DisplayFromStr")]
    #[schema(value_type = String)]
    pub currency: Currency,
    /// The outcome's price before the trade, parts per million.
    pub price_before_ppm: u32,
    /// The same as a decimal.
    #[serde_as(as = "DisplayFromStr")]
    #[schema(value_type = String)]
    pub price_before: PricePpm,
    /// The outcome's price after the trade, parts per million.
    pub price_after_ppm: u32,
    /// The same as a decimal.
    #[serde_as(as = "DisplayFromStr")]
    #[schema(value_type = String)]
    pub price_after: PricePpm,
    /// `pending`, `manual_review`, `executed` or `failed`.
    pub status: &'static str,
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
            id: trade.id,
            market_id: trade.market_id,
            user_id: trade.user_id,
            external_user_id: trade.external_user_id,
            client_order_id: trade.client_order_id,
            side: trade.side.as_str(),
            outcome: trade.outcome.as_str(),
            order_kind: trade.order_kind.as_str(),
            order_value: trade.order_value,
            order_limit: trade.order_limit,
            shares: trade.shares,
            amount: trade.amount,
            fee: trade.fee,
            currency: trade.currency,
            price_before_ppm: trade.price_before.ppm(),
            price_before: trade.price_before,
            price_after_ppm: trade.price_after.ppm(),
            price_after: trade.price_after,
            status: trade.status.as_str(),
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

#[cfg(test)]
mod tests {
    use opinion_core::OperatorId;
    use opinion_market::{OrderKind, Outcome, Side, TradeStatus};
    use serde_json::json;
    use time::macros::datetime;

    use super::*;

    fn trade() -> Trade {
        Trade {
            id: TradeId::from_u128(1),
            operator_id: OperatorId::from_u128(2),
            user_id: UserId::from_u128(3),
            external_user_id: "player \"7\"".into(),
            market_id: MarketId::from_u128(4),
            client_order_id: "order-1".into(),
            side: Side::Sell,
            outcome: Outcome::No,
            order_kind: OrderKind::Shares,
            order_value: 1_500_000,
            order_limit: Some(990_000),
            shares: 1_500_000,
            amount: 1_012_345,
            fee: 12_345,
            currency: "USD".parse().expect("currency"),
            price_before: PricePpm::from_ppm(675_000).expect("price"),
            price_after: PricePpm::from_ppm(1_000).expect("price"),
            status: TradeStatus::ManualReview,
            failure_reason: None,
            created_at: datetime!(2026-11-22 10:00:00.25 UTC),
            settled_at: None,
        }
    }

    #[test]
    fn a_trade_is_written_with_its_ids_amounts_and_prices_as_text() {
        let written = serde_json::to_value(TradeBody::from(trade())).expect("serializable");
        assert_eq!(
            written,
            json!({
                "id": "trd_00000000000000000000000001",
                "marketId": "mkt_00000000000000000000000004",
                "userId": "usr_00000000000000000000000003",
                "externalUserId": "player \"7\"",
                "clientOrderId": "order-1",
                "side": "sell",
                "outcome": "no",
                "orderKind": "shares",
                "orderValue": "1500000",
                "orderLimit": "990000",
                "shares": "1500000",
                "amount": "1012345",
                "fee": "12345",
                "currency": "USD",
                "priceBeforePpm": 675_000,
                "priceBefore": "0.675000",
                "priceAfterPpm": 1_000,
                "priceAfter": "0.001000",
                "status": "manual_review",
                "failureReason": null,
                "createdAt": "2026-11-22T10:00:00.25Z",
                "settledAt": null,
            })
        );
    }

    #[test]
    fn a_missing_limit_is_null_and_a_settled_trade_has_its_instant() {
        let settled = Trade {
            order_limit: None,
            status: TradeStatus::Failed,
            failure_reason: Some("insufficient_funds".into()),
            settled_at: Some(datetime!(2026-11-22 10:00:01 UTC)),
            ..trade()
        };
        let written = serde_json::to_value(TradeBody::from(settled)).expect("serializable");
        assert_eq!(written["orderLimit"], serde_json::Value::Null);
        assert_eq!(written["status"], "failed");
        assert_eq!(written["failureReason"], "insufficient_funds");
        assert_eq!(written["settledAt"], "2026-11-22T10:00:01Z");
    }
}
