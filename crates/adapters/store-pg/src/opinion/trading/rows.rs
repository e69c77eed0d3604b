//! Trading rows as diesel reads them, and their conversions to the app's records: the
//! stored text of statuses, sides, flows and amounts parsed back into domain types. A
//! value the domain refuses is a corrupt row (`crate::db::error::corrupt`), never a panic.
//! Settlement and the operator's reads read markets, positions, trades and wallet
//! operations through these rows too.

use std::collections::BTreeMap;

use diesel::prelude::*;
use opinion_app::model::{Market, OperatorMarket, PositionRecord, Trade, WalletOperationRecord, WalletOperationStep};
use opinion_app::ports::StoreError;
use opinion_core::WalletOperationId;
use opinion_market::{
    FeeRate, Holding, Liquidity, MarketChoice, MarketStatus, Pool, Position, PricePpm, Resolution, VisibilityMode,
};
use opinion_wallet::{IdempotencyKey, Product, WalletFlow};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::{corrupt, parsed};
use crate::db::ids::id_of;
use crate::db::schema::{
    market_pools, market_visibility_settings, markets, positions, trades, wallet_operation_steps, wallet_operations,
};
use crate::opinion::trading::player_external_ids;

/// A stored integer that must fit a narrower type (an HTTP status, a fee, a count).
fn narrowed<T: TryFrom<i32>>(table: &str, id: Uuid, what: &str, value: i32) -> Result<T, StoreError> {
    T::try_from(value).map_err(|_| corrupt(table, id, &format!("{what} {value} is out of range")))
}

/// A market's status from its `status` and `resolution` columns: a resolution exactly
/// when resolved.
fn market_status(id: Uuid, status: &str, resolution: Option<&str>) -> Result<MarketStatus, StoreError> {
    let candidate = match resolution {
        Some(resolution) => Some(MarketStatus::Resolved(parsed::<Resolution>("markets", id, resolution)?)),
        None => [MarketStatus::Open, MarketStatus::Closed]
            .into_iter()
            .find(|candidate| candidate.as_str() == status),
    };
    candidate
        .filter(|candidate| candidate.as_str() == status)
        .ok_or_else(|| {
            corrupt(
                "markets",
                id,
                &format!("status `{status}` with resolution {resolution:?}"),
            )
        })
}

/// A `markets` row, read whole (also by name, from hand-written SQL).
#[derive(Debug, Clone, Queryable, Selectable, QueryableByName)]
#[diesel(table_name = markets, check_for_backend(diesel::pg::Pg))]
pub(crate) struct MarketRow {
    id: Uuid,
    question: String,
    rules: String,
    close_at: OffsetDateTime,
    liquidity: i64,
    fee_bps: i32,
    status: String,
    resolution: Option<String>,
    created_at: OffsetDateTime,
    closed_at: Option<OffsetDateTime>,
    resolved_at: Option<OffsetDateTime>,
}

impl MarketRow {
    /// The market's stored id.
    pub(crate) fn id(&self) -> Uuid {
        self.id
    }

    /// The market this row stores; fails on a liquidity, fee or status the domain refuses.
    pub(crate) fn into_record(self) -> Result<Market, StoreError> {
        let liquidity = Liquidity::new(self.liquidity).map_err(|problem| corrupt("markets", self.id, &problem))?;
        let fee_bps: u16 = narrowed("markets", self.id, "fee_bps", self.fee_bps)?;
        let fee = FeeRate::from_bps(fee_bps).map_err(|problem| corrupt("markets", self.id, &problem))?;
        let status = market_status(self.id, &self.status, self.resolution.as_deref())?;
        Ok(Market {
            id: id_of(self.id),
            question: self.question,
            rules: self.rules,
            close_at: self.close_at,
            liquidity,
            fee,
            status,
            created_at: self.created_at,
            closed_at: self.closed_at,
            resolved_at: self.resolved_at,
        })
    }
}

/// The columns of a `market_pools` row an operator's reads need.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = market_pools, check_for_backend(diesel::pg::Pg))]
pub(crate) struct PoolRow {
    yes_outstanding: i64,
    no_outstanding: i64,
    choice: String,
}

/// `markets LEFT JOIN market_pools LEFT JOIN market_visibility_settings` for one
/// operator: a missing pool row is an empty pool with no choice, a missing settings row
/// the default mode.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(check_for_backend(diesel::pg::Pg))]
pub(crate) struct OperatorMarketRow {
    #[diesel(embed)]
    market: MarketRow,
    #[diesel(embed)]
    pool: Option<PoolRow>,
    #[diesel(select_expression = market_visibility_settings::mode.nullable())]
    #[diesel(select_expression_type = diesel::dsl::Nullable<market_visibility_settings::mode>)]
    mode: Option<String>,
}

impl PoolRow {
    /// A pool row from the columns of a hand-written query; `None` unless all are present
    /// (a missing row of a `LEFT JOIN`).
    pub(crate) fn from_columns(
        yes_outstanding: Option<i64>,
        no_outstanding: Option<i64>,
        choice: Option<String>,
    ) -> Option<Self> {
        Some(Self {
            yes_outstanding: yes_outstanding?,
            no_outstanding: no_outstanding?,
            choice: choice?,
        })
    }
}

impl OperatorMarketRow {
    /// The operator's view from a market row, its pool row and its mode, if any.
    pub(crate) fn new(market: MarketRow, pool: Option<PoolRow>, mode: Option<String>) -> Self {
        Self { market, pool, mode }
    }

    /// The operator's view of the market this row stores.
    pub(crate) fn into_record(self) -> Result<OperatorMarket, StoreError> {
        let id = self.market.id;
        let market = self.market.into_record()?;
        let (pool, choice) = match self.pool {
            None => (Pool::new(market.liquidity), MarketChoice::Unset),
            Some(row) => {
                let pool = Pool::from_parts(market.liquidity, row.yes_outstanding, row.no_outstanding)
                    .map_err(|problem| corrupt("market_pools", id, &problem))?;
                (pool, parsed("market_pools", id, &row.choice)?)
            }
        };
        let mode = match self.mode {
            None => VisibilityMode::default(),
            Some(text) => parsed("market_visibility_settings", id, &text)?,
        };
        Ok(OperatorMarket {
            market,
            pool,
            choice,
            mode,
        })
    }
}

/// A `trades` row with its player's external id.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = trades, check_for_backend(diesel::pg::Pg))]
pub(crate) struct TradeRow {
    operator_id: Uuid,
    id: Uuid,
    user_id: Uuid,
    #[diesel(
        select_expression = player_external_ids::of_trade(),
        select_expression_type = player_external_ids::of_trade
    )]
    external_user_id: String,
    market_id: Uuid,
    client_order_id: String,
    side: String,
    outcome: String,
    order_kind: String,
    order_value: i64,
    order_limit: Option<i64>,
    shares: i64,
    amount: i64,
    fee: i64,
    currency: String,
    price_before_ppm: i32,
    price_after_ppm: i32,
    status: String,
    failure_reason: Option<String>,
    created_at: OffsetDateTime,
    settled_at: Option<OffsetDateTime>,
}

impl TradeRow {
    /// The trade this row stores; fails on names, currencies or prices the domain refuses.
    pub(crate) fn into_record(self) -> Result<Trade, StoreError> {
        let id = self.id;
        let price = |ppm: i32| PricePpm::from_ppm(i64::from(ppm)).map_err(|problem| corrupt("trades", id, &problem));
        Ok(Trade {
            side: parsed("trades", id, &self.side)?,
            outcome: parsed("trades", id, &self.outcome)?,
            order_kind: parsed("trades", id, &self.order_kind)?,
            currency: parsed("trades", id, &self.currency)?,
            status: parsed("trades", id, &self.status)?,
            price_before: price(self.price_before_ppm)?,
            price_after: price(self.price_after_ppm)?,
            id: id_of(id),
            operator_id: id_of(self.operator_id),
            user_id: id_of(self.user_id),
            external_user_id: self.external_user_id,
            market_id: id_of(self.market_id),
            client_order_id: self.client_order_id,
            order_value: self.order_value,
            order_limit: self.order_limit,
            shares: self.shares,
            amount: self.amount,
            fee: self.fee,
            failure_reason: self.failure_reason,
            created_at: self.created_at,
            settled_at: self.settled_at,
        })
    }
}

/// A `positions` row as read.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = positions, check_for_backend(diesel::pg::Pg))]
pub(crate) struct PositionRow {
    user_id: Uuid,
    market_id: Uuid,
    yes_shares: i64,
    yes_cost_basis: i64,
    no_shares: i64,
    no_cost_basis: i64,
    realized_pnl: i64,
    redeemed_at: Option<OffsetDateTime>,
    updated_at: OffsetDateTime,
}

impl PositionRow {
    /// The position this row stores; fails on negative holdings.
    pub(crate) fn into_record(self) -> Result<PositionRecord, StoreError> {
        let yes = Holding {
            shares: self.yes_shares,
            cost_basis: self.yes_cost_basis,
        };
        let no = Holding {
            shares: self.no_shares,
            cost_basis: self.no_cost_basis,
        };
        let position = Position::from_parts(yes, no, self.realized_pnl)
            .map_err(|problem| corrupt("positions", self.market_id, &problem))?;
        Ok(PositionRecord {
            user_id: id_of(self.user_id),
            market_id: id_of(self.market_id),
            position,
            redeemed_at: self.redeemed_at,
            updated_at: self.updated_at,
        })
    }
}

/// A `wallet_operations` row with what operators reconcile with; the fingerprint and
/// staff's internal notes are not read. Its subject must fit its flow's product: a
/// market for Opinion, a flight and a ticket (and no market) for the flight product.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = wallet_operations, check_for_backend(diesel::pg::Pg))]
pub(crate) struct WalletOperationRow {
    operator_id: Uuid,
    id: Uuid,
    user_id: Uuid,
    external_user_id: String,
    flow: String,
    reason: String,
    idempotency_key: String,
    amount: i64,
    currency: String,
    metadata: serde_json::Value,
    market_id: Option<Uuid>,
    trade_id: Option<Uuid>,
    redemption_id: Option<Uuid>,
    flight_id: Option<Uuid>,
    ticket_id: Option<Uuid>,
    state: String,
    attempts: i32,
    http_status: Option<i32>,
    detail: Option<String>,
    remote_reference: Option<String>,
    balance_after: Option<i64>,
    created_at: OffsetDateTime,
    sent_at: Option<OffsetDateTime>,
    answered_at: Option<OffsetDateTime>,
    resolved_at: Option<OffsetDateTime>,
    review_reason: Option<String>,
}

impl WalletOperationRow {
    /// The operation this row stores; its metadata must be an object of strings.
    pub(crate) fn into_record(self) -> Result<WalletOperationRecord, StoreError> {
        const TABLE: &str = "wallet_operations";
        let id = self.id;
        let metadata: BTreeMap<String, String> =
            serde_json::from_value(self.metadata).map_err(|problem| corrupt(TABLE, id, &problem))?;
        let idempotency_key =
            IdempotencyKey::parse(&self.idempotency_key).map_err(|problem| corrupt(TABLE, id, &problem))?;
        let http_status = self
            .http_status
            .map(|status| narrowed(TABLE, id, "http_status", status))
            .transpose()?;
        let flow: WalletFlow = parsed(TABLE, id, &self.flow)?;
        let subject_fits = match flow.product() {
            Product::Opinion => self.market_id.is_some() && self.flight_id.is_none() && self.ticket_id.is_none(),
            Product::Flight => self.market_id.is_none() && self.flight_id.is_some() && self.ticket_id.is_some(),
        };
        if !subject_fits {
            return Err(corrupt(
                TABLE,
                id,
                &format!("a {flow} operation names another product's subject"),
            ));
        }
        Ok(WalletOperationRecord {
            flow,
            reason: parsed(TABLE, id, &self.reason)?,
            currency: parsed(TABLE, id, &self.currency)?,
            state: parsed(TABLE, id, &self.state)?,
            attempts: narrowed(TABLE, id, "attempts", self.attempts)?,
            idempotency_key,
            metadata,
            http_status,
            id: id_of(id),
            operator_id: id_of(self.operator_id),
            user_id: id_of(self.user_id),
            external_user_id: self.external_user_id,
            amount: self.amount,
            market_id: self.market_id.map(id_of),
            trade_id: self.trade_id.map(id_of),
            redemption_id: self.redemption_id.map(id_of),
            flight_id: self.flight_id.map(id_of),
            ticket_id: self.ticket_id.map(id_of),
            detail: self.detail,
            remote_reference: self.remote_reference,
            balance_after: self.balance_after,
            created_at: self.created_at,
            sent_at: self.sent_at,
            answered_at: self.answered_at,
            resolved_at: self.resolved_at,
            review_reason: self
                .review_reason
                .map(|reason| parsed(TABLE, id, &reason))
                .transpose()?,
        })
    }
}

/// A `wallet_operation_steps` row as read, with the operation it belongs to.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = wallet_operation_steps, check_for_backend(diesel::pg::Pg))]
pub(crate) struct WalletOperationStepRow {
    operation_id: Uuid,
    state: String,
    http_status: Option<i32>,
    detail: Option<String>,
    at: OffsetDateTime,
}

impl WalletOperationStepRow {
    /// The operation the step belongs to.
    pub(crate) fn operation_id(&self) -> WalletOperationId {
        id_of(self.operation_id)
    }

    /// The step this row stores.
    pub(crate) fn into_record(self) -> Result<WalletOperationStep, StoreError> {
        const TABLE: &str = "wallet_operation_steps";
        let id = self.operation_id;
        Ok(WalletOperationStep {
            state: parsed(TABLE, id, &self.state)?,
            http_status: self
                .http_status
                .map(|status| narrowed(TABLE, id, "http_status", status))
                .transpose()?,
            detail: self.detail,
            at: self.at,
        })
    }
}

#[cfg(test)]
#[path = "rows_tests.rs"]
mod tests;
