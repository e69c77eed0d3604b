//! A market's resolution and what the use case reads to plan it: the market list, the
//! open trades, the operators and the unredeemed positions of a market. The resolution
//! holds the market row `FOR UPDATE` for its whole transaction: every trade insert checks
//! its foreign key to the market with a key-share lock, so no trade can start on the
//! market until the resolution commits, and a trade inserted before is seen by the
//! open-trade check made after the lock.

use std::collections::BTreeSet;

use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::Market;
use opinion_app::opinion::settlement::ports::{MarketOperator, RedeemablePosition, ResolutionPlan};
use opinion_app::ports::{ChangedRecord, StoreError};
use opinion_core::MarketId;
use opinion_market::TradeStatus;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::{from_diesel, parsed};
use crate::db::ids::{id_of, uuid_of};
use crate::db::pool::PgStore;
use crate::db::schema::{market_pools, market_resolutions, markets, operators, positions, redemptions, trades, users};
use crate::opinion::settlement::rows::{NewRedemptionRow, NewResolutionRow};
use crate::opinion::trading::apply::{StepError, insert_operations, position_as_read};
use crate::opinion::trading::rows::{MarketRow, PositionRow};
use crate::webhooks::outbox::enqueue_events;

/// The states of a trade that still waits for its wallet or for staff.
const OPEN_TRADE_STATES: [&str; 2] = [TradeStatus::Pending.as_str(), TradeStatus::ManualReview.as_str()];

/// How many trades on the market, of any operator, are pending or in manual review.
async fn count_open(conn: &mut AsyncPgConnection, market: Uuid) -> QueryResult<i64> {
    trades::table
        .filter(trades::market_id.eq(market))
        .filter(trades::status.eq_any(OPEN_TRADE_STATES))
        .count()
        .get_result(conn)
        .await
}

/// Marks every position of the plan redeemed if it still holds what was read; refuses
/// when one changed or a position the plan does not know appeared.
async fn redeem_positions(
    conn: &mut AsyncPgConnection,
    plan: &ResolutionPlan,
    at: OffsetDateTime,
) -> Result<(), StepError> {
    let market = uuid_of(plan.market.id);
    for held in &plan.positions {
        let as_read = position_as_read(
            uuid_of(held.operator_id),
            uuid_of(held.record.user_id),
            market,
            held.record.position,
        );
        let updated = diesel::update(as_read)
            .set((positions::redeemed_at.eq(at), positions::updated_at.eq(at)))
            .execute(conn)
            .await?;
        if updated != 1 {
            return Err(StepError::Conflict(ChangedRecord::Position));
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
        Err(StepError::Conflict(ChangedRecord::Position))
    }
}

async fn resolve_in(conn: &mut AsyncPgConnection, plan: &ResolutionPlan) -> Result<(), StepError> {
    let market = &plan.market;
    let id = uuid_of(market.id);
    let status: String = markets::table
        .find(id)
        .select(markets::status)
        .for_update()
        .first(conn)
        .await?;
    if status != plan.expected.as_str() {
        return Err(StepError::Conflict(ChangedRecord::Market));
    }
    if count_open(conn, id).await? > 0 {
        return Err(StepError::Conflict(ChangedRecord::OpenTrade));
    }
    let resolved_at = market.resolved_at.ok_or(StepError::Conflict(ChangedRecord::Market))?;
    let resolution = market
        .status
        .resolution()
        .ok_or(StepError::Conflict(ChangedRecord::Market))?;
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
    let resolutions: Vec<NewResolutionRow> = plan.resolutions.iter().map(NewResolutionRow::new).collect();
    diesel::insert_into(market_resolutions::table)
        .values(&resolutions)
        .execute(conn)
        .await?;
    let redemption_rows: Vec<NewRedemptionRow> = plan.redemptions.iter().map(NewRedemptionRow::new).collect();
    diesel::insert_into(redemptions::table)
        .values(&redemption_rows)
        .execute(conn)
        .await?;
    insert_operations(conn, &plan.operations).await?;
    enqueue_events(conn, &plan.events).await?;
    Ok(())
}

pub(crate) async fn list_markets(store: &PgStore, limit: u16) -> Result<Vec<Market>, StoreError> {
    let mut conn = store.conn().await?;
    let rows: Vec<MarketRow> = markets::table
        .select(MarketRow::as_select())
        .order((markets::created_at.desc(), markets::id.desc()))
        .limit(i64::from(limit))
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter().map(MarketRow::into_record).collect()
}

pub(crate) async fn count_open_trades(store: &PgStore, market: MarketId) -> Result<i64, StoreError> {
    let mut conn = store.conn().await?;
    count_open(&mut conn, uuid_of(market)).await.map_err(from_diesel)
}

pub(crate) async fn market_operators(store: &PgStore, market: MarketId) -> Result<Vec<MarketOperator>, StoreError> {
    let mut conn = store.conn().await?;
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
                currency: parsed("operators", id, &currency)?,
            })
        })
        .collect()
}

pub(crate) async fn unredeemed_positions(
    store: &PgStore,
    market: MarketId,
) -> Result<Vec<RedeemablePosition>, StoreError> {
    let mut conn = store.conn().await?;
    let rows: Vec<(Uuid, String, PositionRow)> = positions::table
        .inner_join(
            users::table.on(users::operator_id
                .eq(positions::operator_id)
                .and(users::id.eq(positions::user_id))),
        )
        .filter(positions::market_id.eq(uuid_of(market)))
        .filter(positions::redeemed_at.is_null())
        .select((
            positions::operator_id,
            users::external_user_id,
            PositionRow::as_select(),
        ))
        .order((positions::operator_id, positions::user_id))
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter()
        .map(|(operator, external_user_id, row)| {
            Ok(RedeemablePosition {
                operator_id: id_of(operator),
                external_user_id,
                record: row.into_record()?,
            })
        })
        .collect()
}

pub(crate) async fn resolve_market(store: &PgStore, plan: &ResolutionPlan) -> Result<(), StoreError> {
    let mut conn = store.conn().await?;
    conn.transaction::<_, StepError, _>(async |conn| resolve_in(conn, plan).await)
        .await
        .map_err(StoreError::from)
}
