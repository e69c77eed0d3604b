//! `TradingStore::apply`: one step of the trading write path in one transaction. Every
//! move is a compare-and-set on the state the use case read (trade status, operation
//! state, pool quantities, position values, redemption status); if any no longer holds,
//! the whole step is rolled back and reported as `Conflict`, so the use case reads again.
//! A position already paid out on its market's resolution (`redeemed_at` set) is never
//! changed again. The settlement store's transactions share the inserts of new wallet
//! operations and the step log's numbering from here. Its writes are kept prepared by
//! their SQL text (`db/prepared.rs`): diesel would parse and plan each afresh. They are
//! pipelined (`db/pipeline.rs`): a step sends all its statements, in order and behind the
//! opening of its savepoint, then reads their answers; a compare-and-set that found
//! nothing still rolls the step back.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{Int4, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use futures_util::FutureExt;
use futures_util::future::join;
use opinion_app::model::WalletOperationStep;
use opinion_app::opinion::trading::ports::{
    NewOperation, NewTrade, OperationUpdate, PoolChange, PositionChange, RedemptionUpdate, TradeUpdate, TradingChange,
};
use opinion_app::ports::{ChangedRecord, StoreError};
use opinion_core::OperatorId;
use opinion_market::{Outcome, Position};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pipeline::{Write, in_order, under_savepoint};
use crate::db::pool::PgStore;
use crate::db::prepared::prepared;
use crate::db::schema::{market_pools, positions, redemptions, trades, wallet_operation_steps, wallet_operations};
use crate::db::transactions::Conn;
use crate::opinion::trading::write_rows::{NewOperationRow, NewStepRow, NewTradeRow, attempts, ppm};
use crate::webhooks::outbox::enqueue_events;

/// Why a step (or a settlement transaction) was not committed.
#[derive(Debug)]
pub(crate) enum StepError {
    /// The database refused or failed.
    Database(DieselError),
    /// A compare-and-set found something else than expected.
    Conflict(ChangedRecord),
}

impl From<DieselError> for StepError {
    fn from(error: DieselError) -> Self {
        Self::Database(error)
    }
}

impl From<StepError> for StoreError {
    fn from(error: StepError) -> Self {
        match error {
            StepError::Conflict(what) => StoreError::Conflict(what),
            StepError::Database(error) => from_diesel(error),
        }
    }
}

/// Fails the step unless exactly one row was changed.
fn exactly_one(changed: usize, what: ChangedRecord) -> Result<(), StepError> {
    if changed == 1 {
        Ok(())
    } else {
        Err(StepError::Conflict(what))
    }
}

impl PgStore {
    /// Applies `change` for `operator` all or nothing: under a savepoint in the running
    /// step's transaction, else in a transaction of its own.
    pub(crate) async fn apply_trading_change(
        &self,
        operator: OperatorId,
        change: &TradingChange,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        // The step's own time when it has events; otherwise the pool and position rows'
        // `updated_at` bookkeeping takes the database host's clock.
        let now = <[_]>::first(&change.events).map_or_else(OffsetDateTime::now_utc, |event| event.created_at);
        match &mut conn {
            Conn::InStep(step) => {
                let step: &AsyncPgConnection = step;
                under_savepoint(step, step_writes(step, operator, change, now)).await
            }
            Conn::Pooled(pooled) => {
                pooled
                    .transaction::<_, StepError, _>(async |conn| {
                        in_order(step_writes(conn, operator, change, now)).await
                    })
                    .await
            }
        }
        .map_err(StoreError::from)
    }
}

/// Inserts new wallet operations, each with its first step (its state at creation), in
/// two pipelined statements whatever their number (a resolution may prepare many).
pub(crate) async fn insert_operations(conn: &AsyncPgConnection, operations: &[NewOperation]) -> QueryResult<()> {
    if operations.is_empty() {
        return Ok(());
    }
    let rows: Vec<NewOperationRow> = operations.iter().map(NewOperationRow::new).collect();
    let firsts: Vec<WalletOperationStep> = operations
        .iter()
        .map(|operation| WalletOperationStep {
            state: operation.record.state,
            http_status: None,
            detail: None,
            at: operation.record.created_at,
        })
        .collect();
    let steps: Vec<NewStepRow> = operations
        .iter()
        .zip(&firsts)
        .map(|(operation, first)| {
            let record = &operation.record;
            NewStepRow::new(record.operator_id, uuid_of(record.id), 1, first)
        })
        .collect();
    // One operation, an order's, is two statements the connection keeps prepared (by
    // their text, which their unset columns vary); a batch of varying length is not.
    let (mut first, mut second) = (conn, conn);
    let (operations, steps) = match (rows.as_slice(), steps.as_slice()) {
        ([row], [step]) => {
            join(
                prepared(diesel::insert_into(wallet_operations::table).values(row)).execute(&mut first),
                prepared(diesel::insert_into(wallet_operation_steps::table).values(step)).execute(&mut second),
            )
            .await
        }
        _ => {
            join(
                diesel::insert_into(wallet_operations::table)
                    .values(&rows)
                    .execute(&mut first),
                diesel::insert_into(wallet_operation_steps::table)
                    .values(&steps)
                    .execute(&mut second),
            )
            .await
        }
    };
    operations.and(steps).map(drop)
}

/// A step appended to an operation's log, numbered after its last step (the first is 1)
/// in the same statement: the operation's row, changed just before in the same
/// transaction, holds off any other append to the same log until it commits.
const APPEND_STEP: &str = "\
INSERT INTO wallet_operation_steps (operator_id, operation_id, step, state, http_status, detail, at)
SELECT $1, $2, coalesce(max(step), 0) + 1, $3, $4, $5, $6
FROM wallet_operation_steps
WHERE operator_id = $1 AND operation_id = $2";

/// Appends `step` to the log of operation `operation`, numbered after its last step.
pub(crate) async fn append_step(
    mut conn: &AsyncPgConnection,
    operator: OperatorId,
    operation: Uuid,
    step: &WalletOperationStep,
) -> QueryResult<()> {
    prepared(
        diesel::sql_query(APPEND_STEP)
            .bind::<SqlUuid, _>(uuid_of(operator))
            .bind::<SqlUuid, _>(operation)
            .bind::<Text, _>(step.state.as_str())
            .bind::<Nullable<Int4>, _>(step.http_status.map(i32::from))
            .bind::<Nullable<Text>, _>(step.detail.as_deref())
            .bind::<Timestamptz, _>(step.at),
    )
    .execute(&mut conn)
    .await
    .map(drop)
}

/// The step's writes, to be pipelined in the order a reader of the step would write them
/// one by one: the trade, the wallet operations and their steps, the pool, the position,
/// the redemption, then the events.
fn step_writes<'a>(
    conn: &'a AsyncPgConnection,
    operator: OperatorId,
    change: &'a TradingChange,
    now: OffsetDateTime,
) -> Vec<Write<'a, StepError>> {
    let op = uuid_of(operator);
    let mut writes: Vec<Write<'a, StepError>> = Vec::with_capacity(8);
    if let Some(new) = &change.new_trade {
        writes.push(insert_trade(conn, new).boxed());
    }
    if let Some(update) = &change.trade {
        writes.push(update_trade(conn, op, update).boxed());
    }
    if !change.new_operations.is_empty() {
        writes.push(async move { Ok(insert_operations(conn, &change.new_operations).await?) }.boxed());
    }
    if let Some(update) = &change.operation {
        writes.push(update_operation(conn, operator, update).boxed());
    }
    if let Some(pool) = &change.pool {
        writes.push(update_pool(conn, op, pool, now).boxed());
    }
    if let Some(position) = &change.position {
        writes.push(update_position(conn, op, position, now).boxed());
    }
    if let Some(redemption) = &change.redemption {
        writes.push(update_redemption(conn, op, redemption).boxed());
    }
    if !change.events.is_empty() {
        writes.push(async move { Ok(enqueue_events(conn, &change.events).await?) }.boxed());
    }
    writes
}

async fn insert_trade(mut conn: &AsyncPgConnection, new: &NewTrade) -> Result<(), StepError> {
    prepared(diesel::insert_into(trades::table).values(NewTradeRow::new(&new.trade, new.position_before.as_ref())))
        .execute(&mut conn)
        .await?;
    Ok(())
}

async fn update_trade(mut conn: &AsyncPgConnection, op: Uuid, update: &TradeUpdate) -> Result<(), StepError> {
    let changed = prepared(
        diesel::update(
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
        )),
    )
    .execute(&mut conn)
    .await?;
    exactly_one(changed, ChangedRecord::Trade)
}

/// Moves a wallet operation if it is still in its expected state, and logs the step
/// (pipelined after the move, whose row lock holds off any other append to the log until
/// the transaction ends); the flight product's changes share it.
pub(crate) async fn update_operation(
    conn: &AsyncPgConnection,
    operator: OperatorId,
    update: &OperationUpdate,
) -> Result<(), StepError> {
    let op = uuid_of(operator);
    let id = uuid_of(update.id);
    let record = &update.record;
    let (resolved_by, resolution_note) = update.resolution.clone().unzip();
    let mut moving = conn;
    let moved = prepared(
        diesel::update(
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
            wallet_operations::review_reason.eq(record.review_reason.map(|reason| reason.as_str())),
        )),
    )
    .execute(&mut moving);
    let (moved, appended) = join(moved, append_step(conn, operator, id, &update.step)).await;
    exactly_one(moved?, ChangedRecord::WalletOperation)?;
    Ok(appended?)
}

/// Moves a pool from the quantities the use case read to the new ones. A market nobody
/// has traded yet has no pool row (it reads as empty): only when the move starts from
/// empty and finds no row is the row created, then moved, so a placement on a traded
/// market is one statement.
async fn update_pool(
    conn: &AsyncPgConnection,
    op: Uuid,
    pool: &PoolChange,
    now: OffsetDateTime,
) -> Result<(), StepError> {
    let market = uuid_of(pool.market_id);
    let mut changed = move_pool(conn, op, market, pool, now).await?;
    let from_empty = [Outcome::Yes, Outcome::No]
        .into_iter()
        .all(|outcome| pool.before.outstanding(outcome) == 0);
    if changed == 0 && from_empty {
        let mut inserting = conn;
        diesel::insert_into(market_pools::table)
            .values((
                market_pools::operator_id.eq(op),
                market_pools::market_id.eq(market),
                market_pools::updated_at.eq(now),
            ))
            .on_conflict_do_nothing()
            .execute(&mut inserting)
            .await?;
        changed = move_pool(conn, op, market, pool, now).await?;
    }
    exactly_one(changed, ChangedRecord::Pool)
}

/// The compare-and-set of a pool row: how many rows it changed (0 or 1).
async fn move_pool(
    mut conn: &AsyncPgConnection,
    op: Uuid,
    market: Uuid,
    pool: &PoolChange,
    now: OffsetDateTime,
) -> QueryResult<usize> {
    prepared(
        diesel::update(
            market_pools::table
                .find((op, market))
                .filter(market_pools::yes_outstanding.eq(pool.before.outstanding(Outcome::Yes)))
                .filter(market_pools::no_outstanding.eq(pool.before.outstanding(Outcome::No))),
        )
        .set((
            market_pools::yes_outstanding.eq(pool.after.outstanding(Outcome::Yes)),
            market_pools::no_outstanding.eq(pool.after.outstanding(Outcome::No)),
            market_pools::updated_at.eq(now),
        )),
    )
    .execute(&mut conn)
    .await
}

async fn update_position(
    mut conn: &AsyncPgConnection,
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
                .execute(&mut conn)
                .await?
        }
        Some(before) => {
            prepared(diesel::update(position_as_read(op, user, market, *before)).set(values))
                .execute(&mut conn)
                .await?
        }
    };
    exactly_one(changed, ChangedRecord::Position)
}

async fn update_redemption(mut conn: &AsyncPgConnection, op: Uuid, update: &RedemptionUpdate) -> Result<(), StepError> {
    let changed = diesel::update(
        redemptions::table
            .find((op, uuid_of(update.id)))
            .filter(redemptions::status.eq(update.expected.as_str())),
    )
    .set((
        redemptions::status.eq(update.status.as_str()),
        redemptions::paid_at.eq(update.paid_at),
    ))
    .execute(&mut conn)
    .await?;
    exactly_one(changed, ChangedRecord::Redemption)
}

/// A position row that is still exactly `read` and not yet paid out: the precondition of
/// every change of a position (a trading step's or a resolution's).
#[diesel::dsl::auto_type]
pub(crate) fn position_as_read(op: Uuid, user: Uuid, market: Uuid, read: Position) -> _ {
    let yes_shares: i64 = read.holding(Outcome::Yes).shares;
    let yes_cost_basis: i64 = read.holding(Outcome::Yes).cost_basis;
    let no_shares: i64 = read.holding(Outcome::No).shares;
    let no_cost_basis: i64 = read.holding(Outcome::No).cost_basis;
    let realized_pnl: i64 = read.realized_pnl();
    positions::table
        .find((op, user, market))
        .filter(positions::redeemed_at.is_null())
        .filter(positions::yes_shares.eq(yes_shares))
        .filter(positions::yes_cost_basis.eq(yes_cost_basis))
        .filter(positions::no_shares.eq(no_shares))
        .filter(positions::no_cost_basis.eq(no_cost_basis))
        .filter(positions::realized_pnl.eq(realized_pnl))
}
