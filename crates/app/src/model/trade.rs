//! A trade as stored and read back by operators.

use opinion_core::{MarketId, OperatorId, TradeId, UserId};
use opinion_market::{OrderKind, Outcome, PricePpm, Side, TradeStatus};
use opinion_wallet::Currency;
use time::OffsetDateTime;

/// One buy or sell by one player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trade {
    pub id: TradeId,
    pub operator_id: OperatorId,
    /// The player.
    pub user_id: UserId,
    /// The player's id at the operator.
    pub external_user_id: String,
    pub market_id: MarketId,
    /// The hosted app's id of the order; repeating it returns this trade.
    pub client_order_id: String,
    /// Buy or sell.
    pub side: Side,
    /// YES or NO shares.
    pub outcome: Outcome,
    /// How the player sized the order.
    pub order_kind: OrderKind,
    /// The share count or amount the player asked for.
    pub order_value: i64,
    /// The player's limit: maximum cost of a buy, minimum proceeds of a sale.
    pub order_limit: Option<i64>,
    /// Share units traded.
    pub shares: i64,
    /// Minor units debited (buy) or credited (sell), fee included.
    pub amount: i64,
    /// The fee inside `amount`.
    pub fee: i64,
    /// The operator's currency.
    pub currency: Currency,
    /// Price of `outcome` before the trade.
    pub price_before: PricePpm,
    /// Price of `outcome` after the trade.
    pub price_after: PricePpm,
    /// Where the trade is.
    pub status: TradeStatus,
    /// Why it failed, when it did (a stable code such as `insufficient_funds`).
    pub failure_reason: Option<String>,
    /// When the order arrived.
    pub created_at: OffsetDateTime,
    /// When it was executed or failed.
    pub settled_at: Option<OffsetDateTime>,
}
