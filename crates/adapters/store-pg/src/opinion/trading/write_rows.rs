//! Trading rows as the write path inserts them, built from the app's records, and the
//! JSON form of a position kept with a sale to unwind it.

use diesel::prelude::*;
use opinion_app::model::{Market, Trade, WalletOperationRecord, WalletOperationStep};
use opinion_app::opinion::trading::ports::NewOperation;
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;
use opinion_market::{Holding, Position};
use serde_json::{Value, json};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::corrupt;
use crate::db::ids::uuid_of;
use crate::db::schema::{markets, trades, wallet_operation_steps, wallet_operations};

/// A `markets` row as created.
#[derive(Debug, Insertable)]
#[diesel(table_name = markets, check_for_backend(diesel::pg::Pg))]
pub(crate) struct NewMarketRow {
    id: Uuid,
    question: String,
    rules: String,
    close_at: OffsetDateTime,
    liquidity: i64,
    fee_bps: i32,
    status: &'static str,
    resolution: Option<&'static str>,
    created_at: OffsetDateTime,
    closed_at: Option<OffsetDateTime>,
    resolved_at: Option<OffsetDateTime>,
}

impl NewMarketRow {
    /// The row that stores `market`.
    pub(crate) fn new(market: &Market) -> Self {
        Self {
            id: uuid_of(market.id),
            question: market.question.clone(),
            rules: market.rules.clone(),
            close_at: market.close_at,
            liquidity: market.liquidity.minor_units(),
            fee_bps: i32::from(market.fee.bps()),
            status: market.status.as_str(),
            resolution: market.status.resolution().map(|r| r.as_str()),
            created_at: market.created_at,
            closed_at: market.closed_at,
            resolved_at: market.resolved_at,
        }
    }
}

/// A `trades` row as opened.
#[derive(Debug, Insertable)]
#[diesel(table_name = trades, check_for_backend(diesel::pg::Pg))]
pub(crate) struct NewTradeRow {
    operator_id: Uuid,
    id: Uuid,
    user_id: Uuid,
    market_id: Uuid,
    client_order_id: String,
    side: &'static str,
    outcome: &'static str,
    order_kind: &'static str,
    order_value: i64,
    order_limit: Option<i64>,
    shares: i64,
    amount: i64,
    fee: i64,
    currency: String,
    price_before_ppm: i32,
    price_after_ppm: i32,
    status: &'static str,
    failure_reason: Option<String>,
    position_before: Option<Value>,
    created_at: OffsetDateTime,
    settled_at: Option<OffsetDateTime>,
}

impl NewTradeRow {
    /// The row that stores `trade`, with the position before it for a sale.
    pub(crate) fn new(trade: &Trade, position_before: Option<&Position>) -> Self {
        Self {
            operator_id: uuid_of(trade.operator_id),
            id: uuid_of(trade.id),
            user_id: uuid_of(trade.user_id),
            market_id: uuid_of(trade.market_id),
            client_order_id: trade.client_order_id.clone(),
            side: trade.side.as_str(),
            outcome: trade.outcome.as_str(),
            order_kind: trade.order_kind.as_str(),
            order_value: trade.order_value,
            order_limit: trade.order_limit,
            shares: trade.shares,
            amount: trade.amount,
            fee: trade.fee,
            currency: trade.currency.as_str().to_owned(),
            price_before_ppm: ppm(trade.price_before.ppm()),
            price_after_ppm: ppm(trade.price_after.ppm()),
            status: trade.status.as_str(),
            failure_reason: trade.failure_reason.clone(),
            position_before: position_before.map(position_json),
            created_at: trade.created_at,
            settled_at: trade.settled_at,
        }
    }
}

/// A price in ppm (at most one million) as stored.
pub(crate) fn ppm(value: u32) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

/// A `wallet_operations` row as created.
#[derive(Debug, Insertable)]
#[diesel(table_name = wallet_operations, check_for_backend(diesel::pg::Pg))]
pub(crate) struct NewOperationRow {
    operator_id: Uuid,
    id: Uuid,
    user_id: Uuid,
    external_user_id: String,
    flow: &'static str,
    reason: &'static str,
    idempotency_key: String,
    fingerprint: String,
    amount: i64,
    currency: String,
    metadata: Value,
    market_id: Option<Uuid>,
    trade_id: Option<Uuid>,
    redemption_id: Option<Uuid>,
    flight_id: Option<Uuid>,
    ticket_id: Option<Uuid>,
    state: &'static str,
    attempts: i32,
    created_at: OffsetDateTime,
    sent_at: Option<OffsetDateTime>,
    next_attempt_at: Option<OffsetDateTime>,
}

impl NewOperationRow {
    /// The row that stores a new operation.
    pub(crate) fn new(operation: &NewOperation) -> Self {
        let record = &operation.record;
        Self {
            operator_id: uuid_of(record.operator_id),
            id: uuid_of(record.id),
            user_id: uuid_of(record.user_id),
            external_user_id: record.external_user_id.clone(),
            flow: record.flow.as_str(),
            reason: record.reason.as_str(),
            idempotency_key: record.idempotency_key.as_str().to_owned(),
            fingerprint: operation.fingerprint.as_str().to_owned(),
            amount: record.amount,
            currency: record.currency.as_str().to_owned(),
            metadata: json!(record.metadata),
            market_id: record.market_id.map(uuid_of),
            trade_id: record.trade_id.map(uuid_of),
            redemption_id: record.redemption_id.map(uuid_of),
            flight_id: record.flight_id.map(uuid_of),
            ticket_id: record.ticket_id.map(uuid_of),
            state: record.state.as_str(),
            attempts: attempts(record),
            created_at: record.created_at,
            sent_at: record.sent_at,
            next_attempt_at: operation.next_attempt_at,
        }
    }
}

/// An operation's attempt count as stored.
pub(crate) fn attempts(record: &WalletOperationRecord) -> i32 {
    i32::try_from(record.attempts).unwrap_or(i32::MAX)
}

/// A `wallet_operation_steps` row.
#[derive(Debug, Insertable)]
#[diesel(table_name = wallet_operation_steps, check_for_backend(diesel::pg::Pg))]
pub(crate) struct NewStepRow {
    operator_id: Uuid,
    operation_id: Uuid,
    step: i32,
    state: &'static str,
    http_status: Option<i32>,
    detail: Option<String>,
    at: OffsetDateTime,
}

impl NewStepRow {
    /// Step number `number` of operation `operation` of `operator`.
    pub(crate) fn new(operator: OperatorId, operation: Uuid, number: i32, step: &WalletOperationStep) -> Self {
        Self {
            operator_id: uuid_of(operator),
            operation_id: operation,
            step: number,
            state: step.state.as_str(),
            http_status: step.http_status.map(i32::from),
            detail: step.detail.clone(),
            at: step.at,
        }
    }
}

/// A position as kept in `trades.position_before`.
pub(crate) fn position_json(position: &Position) -> Value {
    let (yes, no) = (
        position.holding(opinion_market::Outcome::Yes),
        position.holding(opinion_market::Outcome::No),
    );
    json!({
        "yesShares": yes.shares,
        "yesCostBasis": yes.cost_basis,
        "noShares": no.shares,
        "noCostBasis": no.cost_basis,
        "realizedPnl": position.realized_pnl(),
    })
}

/// A position read back from `trades.position_before`.
pub(crate) fn position_from_json(trade: Uuid, value: &Value) -> Result<Position, StoreError> {
    let field = |name: &str| {
        value
            .get(name)
            .and_then(Value::as_i64)
            .ok_or_else(|| corrupt("trades", trade, &format!("position_before lacks `{name}`")))
    };
    let yes = Holding {
        shares: field("yesShares")?,
        cost_basis: field("yesCostBasis")?,
    };
    let no = Holding {
        shares: field("noShares")?,
        cost_basis: field("noCostBasis")?,
    };
    Position::from_parts(yes, no, field("realizedPnl")?).map_err(|problem| corrupt("trades", trade, &problem))
}

#[cfg(test)]
mod tests {
    use opinion_market::{FeeRate, Liquidity, Outcome, Pool, quote_buy_shares};

    use super::*;

    #[test]
    fn a_position_survives_its_json_form() {
        let pool = Pool::new(Liquidity::new(1_000).unwrap());
        let quote = quote_buy_shares(&pool, Outcome::No, 300, FeeRate::ZERO).unwrap();
        let position = Position::default().apply(&quote).unwrap();
        let id = Uuid::from_u128(1);
        assert_eq!(
            position_from_json(id, &position_json(&position)).expect("read back"),
            position
        );
        assert!(position_from_json(id, &json!({"yesShares": 1})).is_err());
    }
}
