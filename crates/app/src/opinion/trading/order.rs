//! An order from the hosted app, and how it is priced against the operator's pool: the
//! one place where a request's side, outcome, size and limit meet the market's rules.

use opinion_core::MarketId;
use opinion_market::{
    OrderKind, Outcome, Quote, Side, SlippageTolerance, check_close_time, check_max_cost, check_min_proceeds,
    quote_buy_amount, quote_buy_shares, quote_sell,
};
use opinion_wallet::Currency;
use time::OffsetDateTime;

use crate::error::{AppError, ProblemCode};
use crate::model::OperatorMarket;

/// A player's order (or request for a quote).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderRequest {
    pub market_id: MarketId,
    /// Buy or sell.
    pub side: Side,
    /// YES or NO.
    pub outcome: Outcome,
    /// Sized in shares, or (buys only) in an amount to spend.
    pub kind: OrderKind,
    /// The share count or the amount, in minor units.
    pub value: i64,
    /// Maximum cost of a buy or minimum proceeds of a sale, fee included.
    pub limit: Option<i64>,
}

/// A priced order, as shown to the player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuoteView {
    pub market_id: MarketId,
    /// The priced trade: shares, amount, fee, prices before and after.
    pub quote: Quote,
    /// The operator's currency.
    pub currency: Currency,
    /// The limit an order for this quote carries (maximum cost of a buy, minimum
    /// proceeds of a sale): the quoted amount widened by [`SlippageTolerance::DEFAULT`].
    pub limit: i64,
    /// The tolerance `limit` was widened by.
    pub tolerance: SlippageTolerance,
}

/// Longest client order id accepted.
const MAX_CLIENT_ORDER_ID: usize = 64;

/// Checks a client order id: 1 to 64 of `[A-Za-z0-9._:-]`.
pub(crate) fn check_client_order_id(id: &str) -> Result<(), AppError> {
    let shape_ok = !id.is_empty()
        && id.len() <= MAX_CLIENT_ORDER_ID
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'));
    if shape_ok {
        Ok(())
    } else {
        Err(AppError::invalid(
            "clientOrderId",
            "must be 1 to 64 letters, digits, `.`, `_`, `:` or `-`",
        ))
    }
}

/// Refuses an order on a market the player may not trade now: hidden for the operator
/// (as if it did not exist), not open, or past its close time.
pub(crate) fn ensure_tradable(market: &OperatorMarket, now: OffsetDateTime) -> Result<(), AppError> {
    if market.hidden() {
        return Err(AppError::NotFound("market"));
    }
    let open = market.market.status.ensure_trading().is_ok() && check_close_time(market.market.close_at, now).is_ok();
    if open {
        Ok(())
    } else {
        Err(AppError::Conflict {
            code: ProblemCode::MarketNotOpen,
            detail: format!("the market is not open for trading (it is {})", market.market.status),
        })
    }
}

/// Refuses an order sized in a way its side does not allow: a sale is sized in shares.
pub(crate) fn check_shape(order: &OrderRequest) -> Result<(), AppError> {
    match (order.side, order.kind) {
        (Side::Sell, OrderKind::Amount) => Err(AppError::invalid("kind", "a sale is sized in shares")),
        _ => Ok(()),
    }
}

/// Prices `order` at the market's pool and checks the player's limit.
pub(crate) fn price(market: &OperatorMarket, order: &OrderRequest) -> Result<Quote, AppError> {
    check_shape(order)?;
    let (pool, fee) = (&market.pool, market.market.fee);
    let quote = match (order.side, order.kind) {
        (Side::Buy, OrderKind::Shares) => quote_buy_shares(pool, order.outcome, order.value, fee),
        (Side::Buy, OrderKind::Amount) => quote_buy_amount(pool, order.outcome, order.value, fee),
        (Side::Sell, _) => quote_sell(pool, order.outcome, order.value, fee),
    }
    .map_err(|e| AppError::invalid("value", e))?;
    if let Some(limit) = order.limit {
        let checked = match order.side {
            Side::Buy => check_max_cost(&quote, limit),
            Side::Sell => check_min_proceeds(&quote, limit),
        };
        checked.map_err(|e| AppError::Conflict {
            code: ProblemCode::LimitNotMet,
            detail: e.to_string(),
        })?;
    }
    Ok(quote)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_order_ids_are_short_and_plain() {
        for good in ["a", "order-1", "2026.11.22:abc_9", &"x".repeat(64)] {
            assert!(check_client_order_id(good).is_ok(), "{good}");
        }
        for bad in ["", &"x".repeat(65), "a b", "ü", "a/b"] {
            assert!(check_client_order_id(bad).is_err(), "{bad}");
        }
    }
}
