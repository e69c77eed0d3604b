//! `SettlementStore` over PostgreSQL, part one: the market list and a market's
//! resolution. The resolution holds the market row `FOR UPDATE` for its whole
//! transaction: every trade insert checks its foreign key to the market with a key-share
//! lock, so no trade can start on the market until the resolution commits, and a trade
//! inserted before is seen by the open-trade check made after the lock.

use std::collections::{BTreeSet, HashMap};

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::{Market, MarketResolution, Redemption, WalletOperationRecord, WalletOperationStep};
use opinion_app::ports::{MarketOperator, RedeemablePosition, ResolutionPlan, SettlementStore, StoreError};
use opinion_core::{MarketId, OperatorId, RedemptionId, WalletOperationId};
use opinion_market::TradeStatus;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::error::{corrupt, from_diesel};
use crate::outbox::enqueue_events;
use crate::pool::PgStore;
use crate::rows::{id_of, uuid_of};
use crate::schema::{
    market_pools, market_resolutions, markets, operators, positions, redemptions, trades, users,
    wallet_operation_steps, wallet_operations,
};
use crate::settlement_rows::{MarketRow, OperationRow, PositionRow, RedemptionRow, StepRow};

/// A transaction's failure: the database's, or a precondition that no longer holds.
#[derive(Debug)]
pub(crate) enum TxError {
    /// The database failed.
    Diesel(DieselError),
    /// Names what changed.
    Conflict(&'static str),
}

impl From<DieselError> for TxError {
    fn from(error: DieselError) -> Self {
        Self::Diesel(error)
    }
}

impl From<TxError> for StoreError {
    fn from(error: TxError) -> Self {
        match error {
            TxError::Diesel(error) => from_diesel(error),
            TxError::Conflict(what) => StoreError::Conflict(what),
        }
    }
}

/// The states of a trade that still waits for its wallet or for staff.
pub(crate) const OPEN_TRADE_STATES: [&str; 2] = [TradeStatus::Pending.as_str(), TradeStatus::ManualReview.as_str()];

#[derive(Insertable)]
#[diesel(table_name = market_resolutions, check_for_backend(diesel::pg::Pg))]
struct ResolutionRow {
    operator_id: Uuid,
    market_id: Uuid,
    resolution: String,
    resolved_at: OffsetDateTime,
    redemption_count: i64,
    payout_total: i64,
    currency: String,
}

impl ResolutionRow {
    fn new(row: &MarketResolution) -> Self {
        Self {
            operator_id: uuid_of(row.operator_id),
            market_id: uuid_of(row.market_id),
            resolution: row.resolution.as_str().to_owned(),
            resolved_at: row.resolved_at,
            redemption_count: row.redemption_count,
            payout_total: row.payout_total,
            currency: row.currency.as_str().to_owned(),
        }
    }
}

/// Marks every position of the plan redeemed if it still holds what was read; refuses
/// when one changed or a position the plan does not know appeared.
async fn redeem_positions(
    conn: &mut AsyncPgConnection,
    plan: &ResolutionPlan,
    at: OffsetDateTime,
) -> Result<(), TxError> {
    let market = uuid_of(plan.market.id);
    for held in &plan.positions {
        let position = &held.record.position;
        let yes = position.holding(opinion_market::Outcome::Yes);
        let no = position.holding(opinion_market::Outcome::No);
        let updated = diesel::update(positions::table)
            .filter(positions::operator_id.eq(uuid_of(held.operator_id)))
            .filter(positions::user_id.eq(uuid_of(held.record.user_id)))
            .filter(positions::market_id.eq(market))
            .filter(positions::redeemed_at.is_null())
            .filter(positions::yes_shares.eq(yes.shares))
            .filter(positions::yes_cost_basis.eq(yes.cost_basis))
            .filter(positions::no_shares.eq(no.shares))
            .filter(positions::no_cost_basis.eq(no.cost_basis))
            .filter(positions::realized_pnl.eq(position.realized_pnl()))
            .set((positions::redeemed_at.eq(at), positions::updated_at.eq(at)))
            .execute(conn)
            .await?;
        if updated != 1 {
            return Err(TxError::Conflict("position"));
        }
    }
    let left: i64 = positions::table
        .filter(positions::market_id.eq(market))
        .filter(positions::redeemed_at.is_null())
        .count()
        .get_result(conn)
        .await?;
    if left == 0 {
        Ok(())
    } else {
        Err(TxError::Conflict("position"))
    }
}

/// Inserts new operations, each with its first step.
pub(crate) async fn insert_operations(
    conn: &mut AsyncPgConnection,
    operations: &[opinion_app::ports::NewOperation],
) -> QueryResult<()> {
    if operations.is_empty() {
        return Ok(());
    }
    let rows: Vec<OperationRow> = operations.iter().map(OperationRow::new).collect();
    let steps: Vec<StepRow> = operations
        .iter()
        .map(|operation| StepRow::new(&operation.record, 1, None, operation.record.created_at))
        .collect();
    diesel::insert_into(wallet_operations::table)
        .values(&rows)
        .execute(conn)
        .await?;
    diesel::insert_into(wallet_operation_steps::table)
        .values(&steps)
        .execute(conn)
        .await
        .map(drop)
}

async fn resolve_in(conn: &mut AsyncPgConnection, plan: &ResolutionPlan) -> Result<(), TxError> {
    let market = &plan.market;
    let id = uuid_of(market.id);
    let status: String = markets::table
        .find(id)
        .select(markets::status)
        .for_update()
        .first(conn)
        .await?;
    if status != plan.expected.as_str() {
        return Err(TxError::Conflict("market"));
    }
    let open: i64 = trades::table
        .filter(trades::market_id.eq(id))
        .filter(trades::status.eq_any(OPEN_TRADE_STATES))
        .count()
        .get_result(conn)
        .await?;
    if open > 0 {
        return Err(TxError::Conflict("open_trade"));
    }
    let resolved_at = market.resolved_at.ok_or(TxError::Conflict("market"))?;
    let resolution = market.status.resolution().ok_or(TxError::Conflict("market"))?;
    redeem_positions(conn, plan, resolved_at).await?;
    diesel::update(markets::table.find(id))
        .set((
            markets::status.eq(market.status.as_str()),
            markets::resolution.eq(resolution.as_str()),
            markets::resolved_at.eq(resolved_at),
            markets::closed_at.eq(market.closed_at.unwrap_or(resolved_at)),
        ))
        .execute(conn)
        .await?;
    let resolutions: Vec<ResolutionRow> = plan.resolutions.iter().map(ResolutionRow::new).collect();
    diesel::insert_into(market_resolutions::table)
        .values(&resolutions)
        .execute(conn)
        .await?;
    let redemption_rows: Vec<RedemptionRow> = plan.redemptions.iter().map(RedemptionRow::from_record).collect();
    diesel::insert_into(redemptions::table)
        .values(&redemption_rows)
        .execute(conn)
        .await?;
    insert_operations(conn, &plan.operations).await?;
    enqueue_events(conn, &plan.events).await?;
    Ok(())
}

#[async_trait]
impl SettlementStore for PgStore {
    async fn list_markets(&self, limit: u16) -> Result<Vec<Market>, StoreError> {
        let mut conn = self.conn().await?;
        let rows: Vec<MarketRow> = markets::table
            .select(MarketRow::as_select())
            .order((markets::created_at.desc(), markets::id.desc()))
            .limit(i64::from(limit))
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        rows.into_iter().map(MarketRow::into_record).collect()
    }

    async fn count_open_trades(&self, market: MarketId) -> Result<i64, StoreError> {
        let mut conn = self.conn().await?;
        trades::table
            .filter(trades::market_id.eq(uuid_of(market)))
            .filter(trades::status.eq_any(OPEN_TRADE_STATES))
            .count()
            .get_result(&mut conn)
            .await
            .map_err(from_diesel)
    }

    async fn market_operators(&self, market: MarketId) -> Result<Vec<MarketOperator>, StoreError> {
        let mut conn = self.conn().await?;
        let market = uuid_of(market);
        let mut ids: BTreeSet<Uuid> = market_pools::table
            .filter(market_pools::market_id.eq(market))
            .select(market_pools::operator_id)
            .load::<Uuid>(&mut conn)
            .await
            .map_err(from_diesel)?
            .into_iter()
            .collect();
        ids.extend(
            positions::table
                .filter(positions::market_id.eq(market))
                .select(positions::operator_id)
                .distinct()
                .load::<Uuid>(&mut conn)
                .await
                .map_err(from_diesel)?,
        );
        let rows: Vec<(Uuid, String)> = operators::table
            .filter(operators::id.eq_any(ids))
            .select((operators::id, operators::currency))
            .order(operators::id)
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        rows.into_iter()
            .map(|(id, currency)| {
                Ok(MarketOperator {
                    operator_id: id_of(id),
                    currency: currency.parse().map_err(|e| corrupt("operators", id, &e))?,
                })
            })
            .collect()
    }

    async fn unredeemed_positions(&self, market: MarketId) -> Result<Vec<RedeemablePosition>, StoreError> {
        let mut conn = self.conn().await?;
        let rows: Vec<PositionRow> = positions::table
            .filter(positions::market_id.eq(uuid_of(market)))
            .filter(positions::redeemed_at.is_null())
            .select(PositionRow::as_select())
            .order((positions::operator_id, positions::user_id))
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        let user_ids: Vec<Uuid> = rows.iter().map(PositionRow::user_id).collect();
        let players: HashMap<(Uuid, Uuid), String> = users::table
            .filter(users::id.eq_any(&user_ids))
            .select((users::operator_id, users::id, users::external_user_id))
            .load::<(Uuid, Uuid, String)>(&mut conn)
            .await
            .map_err(from_diesel)?
            .into_iter()
            .map(|(operator, user, external)| ((operator, user), external))
            .collect();
        rows.into_iter()
            .map(|row| {
                let key = (row.operator_id, row.user_id());
                let external_user_id = players
                    .get(&key)
                    .cloned()
                    .ok_or_else(|| corrupt("positions", key.1, &"position without its player"))?;
                Ok(RedeemablePosition {
                    operator_id: id_of(row.operator_id),
                    external_user_id,
                    record: row.into_record()?,
                })
            })
            .collect()
    }

    async fn resolve_market(&self, plan: &ResolutionPlan) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        conn.transaction::<_, TxError, _>(async |conn| resolve_in(conn, plan).await)
            .await
            .map_err(StoreError::from)
    }

    async fn operators_with_wallet_work(&self, now: OffsetDateTime) -> Result<Vec<OperatorId>, StoreError> {
        crate::settlement_worker::operators_with_wallet_work(self, now).await
    }

    async fn claim_due_operations(
        &self,
        operator: OperatorId,
        now: OffsetDateTime,
        limit: u16,
    ) -> Result<Vec<WalletOperationRecord>, StoreError> {
        crate::settlement_worker::claim_due_operations(self, operator, now, limit).await
    }

    async fn stale_sent_operations(
        &self,
        operator: OperatorId,
        sent_before: OffsetDateTime,
        limit: u16,
    ) -> Result<Vec<WalletOperationRecord>, StoreError> {
        crate::settlement_worker::stale_sent_operations(self, operator, sent_before, limit).await
    }

    async fn operations_in_review(
        &self,
        operator: Option<OperatorId>,
        limit: u16,
    ) -> Result<Vec<WalletOperationRecord>, StoreError> {
        crate::settlement_review::operations_in_review(self, operator, limit).await
    }

    async fn find_operation_by_id(&self, id: WalletOperationId) -> Result<Option<WalletOperationRecord>, StoreError> {
        crate::settlement_review::find_operation_by_id(self, id).await
    }

    async fn operation_steps(
        &self,
        operator: OperatorId,
        id: WalletOperationId,
    ) -> Result<Vec<WalletOperationStep>, StoreError> {
        crate::settlement_review::operation_steps(self, operator, id).await
    }

    async fn find_redemption(&self, operator: OperatorId, id: RedemptionId) -> Result<Option<Redemption>, StoreError> {
        crate::settlement_review::find_redemption(self, operator, id).await
    }
}
