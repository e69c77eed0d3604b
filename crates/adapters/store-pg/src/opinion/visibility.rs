//! Each operator's market visibility: its mode (`market_visibility_settings`, a missing
//! row being the default mode at revision 0) and its per-market choices
//! (`market_pools.choice`). Every write moves the revision on only from the revision the use case computed the change from, in the same
//! transaction as the change and its events, so a change computed from a stale view is
//! refused (`Conflict(Visibility)`) and nothing of it is written.

use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::OperatorMarket;
use opinion_app::opinion::ports::{VisibilitySettings, VisibilityWrite};
use opinion_app::opinion::reads::ports::MarketStage;
use opinion_app::ports::{ChangedRecord, StoreError};
use opinion_core::{MarketId, OperatorId};
use opinion_market::MarketChoice;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::{from_diesel, parsed};
use crate::db::ids::{id_of, uuid_of};
use crate::db::pool::PgStore;
use crate::db::schema::{market_pools, market_visibility_settings, markets};
use crate::opinion::trading::apply::StepError;
use crate::opinion::trading::finds::find_operator_market;
use crate::webhooks::outbox::enqueue_events;

/// The operator's settings as stored, or the defaults.
pub(crate) async fn settings(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
) -> Result<VisibilitySettings, StoreError> {
    let row: Option<(String, i64, OffsetDateTime)> = market_visibility_settings::table
        .find(uuid_of(operator))
        .select((
            market_visibility_settings::mode,
            market_visibility_settings::revision,
            market_visibility_settings::updated_at,
        ))
        .first(conn)
        .await
        .optional()
        .map_err(from_diesel)?;
    match row {
        None => Ok(VisibilitySettings::default()),
        Some((mode, revision, updated_at)) => Ok(VisibilitySettings {
            mode: parsed("market_visibility_settings", uuid_of(operator), &mode)?,
            revision,
            updated_at: Some(updated_at),
        }),
    }
}

/// The operator's choice for every market not yet resolved, oldest first (a market
/// without a pool row has no choice).
pub(crate) async fn choices(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
) -> Result<Vec<(MarketId, MarketChoice)>, StoreError> {
    let rows: Vec<(Uuid, Option<String>)> = markets::table
        .left_join(
            market_pools::table.on(market_pools::market_id
                .eq(markets::id)
                .and(market_pools::operator_id.eq(uuid_of(operator)))),
        )
        .filter(markets::status.ne(MarketStage::Resolved.as_str()))
        .order(markets::id.asc())
        .select((markets::id, market_pools::choice.nullable()))
        .load(conn)
        .await
        .map_err(from_diesel)?;
    rows.into_iter()
        .map(|(id, choice)| {
            let choice = match choice {
                None => MarketChoice::Unset,
                Some(text) => parsed("market_pools", id, &text)?,
            };
            Ok((id_of(id), choice))
        })
        .collect()
}

/// Moves the revision from `write.expected_revision` on, with `write.mode`, and writes
/// the events; refuses when the stored revision is another (revision 0 is "no row").
async fn advance(conn: &mut AsyncPgConnection, operator: Uuid, write: &VisibilityWrite) -> Result<(), StepError> {
    let next = write.expected_revision + 1;
    let changed = if write.expected_revision == 0 {
        diesel::insert_into(market_visibility_settings::table)
            .values((
                market_visibility_settings::operator_id.eq(operator),
                market_visibility_settings::mode.eq(write.mode.as_str()),
                market_visibility_settings::revision.eq(next),
                market_visibility_settings::updated_at.eq(write.at),
            ))
            .on_conflict_do_nothing()
            .execute(conn)
            .await?
    } else {
        diesel::update(
            market_visibility_settings::table
                .find(operator)
                .filter(market_visibility_settings::revision.eq(write.expected_revision)),
        )
        .set((
            market_visibility_settings::mode.eq(write.mode.as_str()),
            market_visibility_settings::revision.eq(next),
            market_visibility_settings::updated_at.eq(write.at),
        ))
        .execute(conn)
        .await?
    };
    if changed != 1 {
        return Err(StepError::Conflict(ChangedRecord::Visibility));
    }
    enqueue_events(conn, &write.events).await?;
    Ok(())
}

impl PgStore {
    /// Records `choice` for `market` with `write`; `None` if there is no such market.
    pub(crate) async fn set_market_choice(
        &self,
        operator: OperatorId,
        market: MarketId,
        choice: MarketChoice,
        write: &VisibilityWrite,
    ) -> Result<Option<OperatorMarket>, StoreError> {
        let (operator_uuid, market_uuid) = (uuid_of(operator), uuid_of(market));
        let mut conn = self.conn().await?;
        let recorded = conn
            .transaction::<_, StepError, _>(async |conn| {
                let exists: Option<Uuid> = markets::table
                    .find(market_uuid)
                    .select(markets::id)
                    .first(conn)
                    .await
                    .optional()?;
                if exists.is_none() {
                    return Ok(false);
                }
                advance(conn, operator_uuid, write).await?;
                diesel::insert_into(market_pools::table)
                    .values((
                        market_pools::operator_id.eq(operator_uuid),
                        market_pools::market_id.eq(market_uuid),
                        market_pools::choice.eq(choice.as_str()),
                        market_pools::visibility_changed_at.eq(write.at),
                        market_pools::updated_at.eq(write.at),
                    ))
                    .on_conflict((market_pools::operator_id, market_pools::market_id))
                    .do_update()
                    .set((
                        market_pools::choice.eq(choice.as_str()),
                        market_pools::visibility_changed_at.eq(write.at),
                        market_pools::updated_at.eq(write.at),
                    ))
                    .execute(conn)
                    .await?;
                Ok(true)
            })
            .await
            .map_err(StoreError::from)?;
        if !recorded {
            return Ok(None);
        }
        find_operator_market(&conn, operator, market).await
    }

    /// Sets the operator's mode with `write`.
    pub(crate) async fn set_visibility_mode(
        &self,
        operator: OperatorId,
        write: &VisibilityWrite,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        conn.transaction::<_, StepError, _>(async |conn| advance(conn, uuid_of(operator), write).await)
            .await
            .map_err(StoreError::from)
    }
}
