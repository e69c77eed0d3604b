//! Hiding and showing markets to an operator's players, with
//! the `mini_app.market.visibility_changed` event in the same transaction. The operator's pool
//! row is created if missing and then locked, so concurrent requests serialise and only
//! the one that changes the visibility writes an event.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, RunQueryDsl};
use opinion_app::model::NewEvent;
use opinion_app::opinion::ports::VisibilityOutcome;
use opinion_app::ports::StoreError;
use opinion_core::{MarketId, OperatorId};
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::schema::{market_pools, markets};
use crate::opinion::trading::finds::operator_market;
use crate::opinion::trading::rows::OperatorMarketRow;
use crate::webhooks::outbox::enqueue_events;

#[tracing::instrument(skip_all, fields(operator_id = %operator, market_id = %market, hidden))]
pub(crate) async fn set_market_visibility(
    store: &PgStore,
    operator: OperatorId,
    market: MarketId,
    hidden: bool,
    event: &NewEvent,
) -> Result<Option<VisibilityOutcome>, StoreError> {
    let (operator_uuid, market_uuid) = (uuid_of(operator), uuid_of(market));
    let at = event.created_at;
    let mut conn = store.conn().await?;
    let outcome = conn
        .transaction::<_, DieselError, _>(async |conn| {
            let exists: Option<Uuid> = markets::table
                .find(market_uuid)
                .select(markets::id)
                .first(conn)
                .await
                .optional()?;
            if exists.is_none() {
                return Ok(None);
            }
            diesel::insert_into(market_pools::table)
                .values((
                    market_pools::operator_id.eq(operator_uuid),
                    market_pools::market_id.eq(market_uuid),
                    market_pools::updated_at.eq(at),
                ))
                .on_conflict((market_pools::operator_id, market_pools::market_id))
                .do_nothing()
                .execute(conn)
                .await?;
            let current: bool = market_pools::table
                .find((operator_uuid, market_uuid))
                .select(market_pools::hidden)
                .for_update()
                .first(conn)
                .await?;
            let changed = current != hidden;
            if changed {
                diesel::update(market_pools::table.find((operator_uuid, market_uuid)))
                    .set((
                        market_pools::hidden.eq(hidden),
                        market_pools::visibility_changed_at.eq(at),
                        market_pools::updated_at.eq(at),
                    ))
                    .execute(conn)
                    .await?;
                enqueue_events(conn, std::slice::from_ref(event)).await?;
            }
            let row: OperatorMarketRow = markets::table
                .left_join(operator_market(uuid_of(operator)))
                .filter(markets::id.eq(market_uuid))
                .select(OperatorMarketRow::as_select())
                .first(conn)
                .await?;
            Ok(Some((row, changed)))
        })
        .await
        .map_err(from_diesel)?;
    outcome
        .map(|(row, changed)| {
            Ok(VisibilityOutcome {
                market: row.into_record()?,
                changed,
            })
        })
        .transpose()
}
