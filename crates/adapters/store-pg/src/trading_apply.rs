//! `TradingStore::apply`: one step of the trading write path in one transaction. Every
//! move is a compare-and-set on the state the use case read (trade status, operation
//! state, pool quantities, position values, redemption status); if any no longer holds,
//! the whole step is rolled back and reported as `Conflict`, so the use case reads again.

use diesel::dsl::max;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::ports::{
    OperationUpdate, PoolChange, PositionChange, RedemptionUpdate, StoreError, TradeUpdate, TradingChange,
};
use opinion_core::OperatorId;
use opinion_market::Outcome;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::error::from_diesel;
use crate::outbox::enqueue_events;
use crate::pool::PgStore;
use crate::rows::uuid_of;
use crate::schema::{market_pools, positions, redemptions, trades, wallet_operation_steps, wallet_operations};
use crate::trading_write_rows::{NewOperationRow, NewStepRow, NewTradeRow, attempts, ppm};

/// Why a step was not committed.
enum StepError {
    /// The database refused or failed.
    Database(DieselError),
    /// A compare-and-set found something else than expected.
    Conflict(&'static str),
}

impl From<DieselError> for StepError {
    fn from(error: DieselError) -> Self {
        Self::Database(error)
    }
}

/// Fails the step unless exactly one row was changed.
fn exactly_one(changed: usize, what: &'static str) -> Result<(), StepError> {
    if changed == 1 {
        Ok(())
    } else {
        Err(StepError::Conflict(what))
    }
}

impl PgStore {
    /// Applies `change` for `operator` in one transaction.
    pub(crate) async fn apply_trading_change(
        &self,
        operator: OperatorId,
        change: &TradingChange,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        // The step's own time when it has events; otherwise the pool and position rows'
        // `updated_at` bookkeeping takes the database host's clock.
        let now = <[_]>::first(&change.events).map_or_else(OffsetDateTime::now_utc, |event| event.created_at);
        let outcome = conn
            .transaction::<_, StepError, _>(async |conn| apply_in(conn, operator, change, now).await)
            .await;
        match outcome {
            Ok(()) => Ok(()),
            Err(StepError::Conflict(what)) => Err(StoreError::Conflict(what)),
            Err(StepError::Database(error)) => Err(from_diesel(error)),
        }
    }
}

async fn apply_in(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    change: &TradingChange,
    now: OffsetDateTime,
) -> Result<(), StepError> {
    let op = uuid_of(operator);
    if let Some(new) = &change.new_trade {
        diesel::insert_into(trades::table)
            .values(NewTradeRow::new(&new.trade, new.position_before.as_ref()))
            .execute(conn)
            .await?;
    }
    if let Some(update) = &change.trade {
        update_trade(conn, op, update).await?;
    }
    for operation in &change.new_operations {
        let row = NewOperationRow::new(operation);
        diesel::insert_into(wallet_operations::table)
            .values(&row)
            .execute(conn)
            .await?;
        let first = opinion_app::model::WalletOperationStep {
            state: operation.record.state,
            http_status: None,
            detail: None,
            at: operation.record.created_at,
        };
        diesel::insert_into(wallet_operation_steps::table)
            .values(NewStepRow::new(operator, uuid_of(operation.record.id), 1, &first))
            .execute(conn)
            .await?;
    }
    if let Some(update) = &change.operation {
        update_operation(conn, operator, update).await?;
    }
    if let Some(pool) = &change.pool {
        update_pool(conn, op, pool, now).await?;
    }
    if let Some(position) = &change.position {
        update_position(conn, op, position, now).await?;
    }
    if let Some(redemption) = &change.redemption {
        update_redemption(conn, op, redemption).await?;
    }
    enqueue_events(conn, &change.events).await?;
    Ok(())
}

async fn update_trade(conn: &mut AsyncPgConnection, op: Uuid, update: &TradeUpdate) -> Result<(), StepError> {
    let changed = diesel::update(
        trades::table
            .find((op, uuid_of(update.id)))
            .filter(trades::status.eq(update.expected.as_str())),
    )
    .set((
        trades::status.eq(update.status.as_str()),
        trades::shares.eq(update.shares),
        trades::amount.eq(update.amount),
        trades::fee.eq(update.fee),
        trades::price_after_ppm.eq(ppm(update.price_after_ppm)),
        trades::failure_reason.eq(&update.failure_reason),
        trades::settled_at.eq(update.settled_at),
    ))
    .execute(conn)
    .await?;
    exactly_one(changed, "trade")
}

async fn update_operation(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    update: &OperationUpdate,
) -> Result<(), StepError> {
    let op = uuid_of(operator);
    let id = uuid_of(update.id);
    let record = &update.record;
    let (resolved_by, resolution_note) = update.resolution.clone().unzip();
    let changed = diesel::update(
        wallet_operations::table
            .find((op, id))
            .filter(wallet_operations::state.eq(update.expected.as_str())),
    )
    .set((
        wallet_operations::state.eq(record.state.as_str()),
        wallet_operations::attempts.eq(attempts(record)),
        wallet_operations::http_status.eq(record.http_status.map(i32::from)),
        wallet_operations::detail.eq(&record.detail),
        wallet_operations::remote_reference.eq(&record.remote_reference),
        wallet_operations::balance_after.eq(record.balance_after),
        wallet_operations::sent_at.eq(record.sent_at),
        wallet_operations::answered_at.eq(record.answered_at),
        wallet_operations::next_attempt_at.eq(update.next_attempt_at),
        wallet_operations::resolved_at.eq(record.resolved_at),
        wallet_operations::resolved_by.eq(resolved_by),
        wallet_operations::resolution_note.eq(resolution_note),
    ))
    .execute(conn)
    .await?;
    exactly_one(changed, "wallet operation")?;
    let last: Option<i32> = wallet_operation_steps::table
        .filter(wallet_operation_steps::operator_id.eq(op))
        .filter(wallet_operation_steps::operation_id.eq(id))
        .select(max(wallet_operation_steps::step))
        .first(conn)
        .await?;
    diesel::insert_into(wallet_operation_steps::table)
        .values(NewStepRow::new(operator, id, last.unwrap_or(0) + 1, &update.step))
        .execute(conn)
        .await?;
    Ok(())
}

async fn update_pool(
    conn: &mut AsyncPgConnection,
    op: Uuid,
    pool: &PoolChange,
    now: OffsetDateTime,
) -> Result<(), StepError> {
    let market = uuid_of(pool.market_id);
    diesel::insert_into(market_pools::table)
        .values((
            market_pools::operator_id.eq(op),
            market_pools::market_id.eq(market),
            market_pools::updated_at.eq(now),
        ))
        .on_conflict_do_nothing()
        .execute(conn)
        .await?;
    let changed = diesel::update(
        market_pools::table
            .find((op, market))
            .filter(market_pools::yes_outstanding.eq(pool.before.outstanding(Outcome::Yes)))
            .filter(market_pools::no_outstanding.eq(pool.before.outstanding(Outcome::No))),
    )
    .set((
        market_pools::yes_outstanding.eq(pool.after.outstanding(Outcome::Yes)),
        market_pools::no_outstanding.eq(pool.after.outstanding(Outcome::No)),
        market_pools::updated_at.eq(now),
    ))
    .execute(conn)
    .await?;
    exactly_one(changed, "pool")
}

async fn update_position(
    conn: &mut AsyncPgConnection,
    op: Uuid,
    change: &PositionChange,
    now: OffsetDateTime,
) -> Result<(), StepError> {
    let (user, market) = (uuid_of(change.user_id), uuid_of(change.market_id));
    let after = &change.after;
    let (yes, no) = (after.holding(Outcome::Yes), after.holding(Outcome::No));
    let values = (
        positions::yes_shares.eq(yes.shares),
        positions::yes_cost_basis.eq(yes.cost_basis),
        positions::no_shares.eq(no.shares),
        positions::no_cost_basis.eq(no.cost_basis),
        positions::realized_pnl.eq(after.realized_pnl()),
        positions::updated_at.eq(now),
    );
    let changed = match &change.before {
        None => {
            diesel::insert_into(positions::table)
                .values((
                    positions::operator_id.eq(op),
                    positions::user_id.eq(user),
                    positions::market_id.eq(market),
                    values,
                ))
                .on_conflict_do_nothing()
                .execute(conn)
                .await?
        }
        Some(before) => {
            let (was_yes, was_no) = (before.holding(Outcome::Yes), before.holding(Outcome::No));
            diesel::update(
                positions::table
                    .find((op, user, market))
                    .filter(positions::yes_shares.eq(was_yes.shares))
                    .filter(positions::yes_cost_basis.eq(was_yes.cost_basis))
                    .filter(positions::no_shares.eq(was_no.shares))
                    .filter(positions::no_cost_basis.eq(was_no.cost_basis))
                    .filter(positions::realized_pnl.eq(before.realized_pnl())),
            )
            .set(values)
            .execute(conn)
            .await?
        }
    };
    exactly_one(changed, "position")
}

async fn update_redemption(conn: &mut AsyncPgConnection, op: Uuid, update: &RedemptionUpdate) -> Result<(), StepError> {
    let changed = diesel::update(
        redemptions::table
            .find((op, uuid_of(update.id)))
            .filter(redemptions::status.eq(update.expected.as_str())),
    )
    .set((
        redemptions::status.eq(update.status.as_str()),
        redemptions::paid_at.eq(update.paid_at),
    ))
    .execute(conn)
    .await?;
    exactly_one(changed, "redemption")
}
