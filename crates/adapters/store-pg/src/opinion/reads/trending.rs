//! The recent executed trading of an operator's open, visible markets, in one query: the
//! window's trades are aggregated per market, then joined to the market and the
//! operator's pool. The window is bounded twice: by `created_at` (exact) and by the
//! trade id, whose ULID timestamp makes the bound an index range on the primary key
//! `(operator_id, id)` instead of a scan of the operator's whole history.

use diesel::sql_types::{BigInt, Integer, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::opinion::reads::ports::MarketActivity;
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;
use opinion_market::{MarketStatus, Outcome, PricePpm, TradeStatus};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::db::error::{corrupt, from_diesel};
use crate::db::ids::{first_ulid_at, uuid_of};
use crate::opinion::trading::rows::{MarketRow, OperatorMarketRow, PoolRow};

/// How much earlier than the window the id bound starts: ids and creation times are
/// taken from the same clock moments apart, so an hour leaves a wide margin.
const ID_BOUND_SLACK: Duration = Duration::HOUR;

const ACTIVITY: &str = "
SELECT m.id, m.question, m.rules, m.close_at, m.liquidity, m.fee_bps, m.status, m.resolution,
       m.created_at, m.closed_at, m.resolved_at,
       p.yes_outstanding, p.no_outstanding, p.choice, v.mode,
       a.traders, a.volume, a.yes_price_at_start
FROM (
    SELECT t.market_id,
           count(DISTINCT t.user_id) AS traders,
           sum(t.amount)::bigint AS volume,
           (array_agg(CASE WHEN t.outcome = $4 THEN t.price_before_ppm ELSE 1000000 - t.price_before_ppm END
                      ORDER BY t.created_at, t.id))[1] AS yes_price_at_start
    FROM trades t
    WHERE t.operator_id = $1 AND t.id >= $2 AND t.created_at >= $3 AND t.status = $5
    GROUP BY t.market_id
) a
JOIN markets m ON m.id = a.market_id AND m.status = $6
LEFT JOIN market_pools p ON p.operator_id = $1 AND p.market_id = a.market_id
LEFT JOIN market_visibility_settings v ON v.operator_id = $1";

/// One market's row of the activity query.
#[derive(QueryableByName)]
struct ActivityRow {
    #[diesel(embed)]
    market: MarketRow,
    #[diesel(sql_type = Nullable<BigInt>)]
    yes_outstanding: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    no_outstanding: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    choice: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    mode: Option<String>,
    #[diesel(sql_type = BigInt)]
    traders: i64,
    #[diesel(sql_type = BigInt)]
    volume: i64,
    #[diesel(sql_type = Integer)]
    yes_price_at_start: i32,
}

/// The smallest trade id that can have been created at or after `since`, less the slack.
fn first_possible_id(since: OffsetDateTime) -> Uuid {
    first_ulid_at(since - ID_BOUND_SLACK)
}

/// The activity since `since` of every open market visible to the operator's players
/// (the domain's rule applied to each row's choice and the operator's mode).
pub(super) async fn activity(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    since: OffsetDateTime,
) -> Result<Vec<MarketActivity>, StoreError> {
    let rows: Vec<ActivityRow> = sql_query(ACTIVITY)
        .bind::<SqlUuid, _>(uuid_of(operator))
        .bind::<SqlUuid, _>(first_possible_id(since))
        .bind::<Timestamptz, _>(since)
        .bind::<Text, _>(Outcome::Yes.as_str())
        .bind::<Text, _>(TradeStatus::Executed.as_str())
        .bind::<Text, _>(MarketStatus::Open.as_str())
        .load(conn)
        .await
        .map_err(from_diesel)?;
    let activity = rows
        .into_iter()
        .map(ActivityRow::into_activity)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(activity.into_iter().filter(|active| !active.market.hidden()).collect())
}

impl ActivityRow {
    fn into_activity(self) -> Result<MarketActivity, StoreError> {
        let market_id = self.market.id();
        let yes_price_at_start = PricePpm::from_ppm(i64::from(self.yes_price_at_start))
            .map_err(|problem| corrupt("trades", market_id, &problem))?;
        let pool = PoolRow::from_columns(self.yes_outstanding, self.no_outstanding, self.choice);
        Ok(MarketActivity {
            market: OperatorMarketRow::new(self.market, pool, self.mode).into_record()?,
            traders: self.traders,
            volume: self.volume,
            yes_price_at_start,
        })
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;
    use ulid::Ulid;

    use super::*;

    #[test]
    fn the_id_bound_is_the_first_ulid_of_the_slackened_window() {
        let since = datetime!(2026-11-22 12:00 UTC);
        let bound = first_possible_id(since).as_u128();
        let earliest = Ulid::from_parts((since - ID_BOUND_SLACK).unix_timestamp() as u64 * 1_000, 0);
        assert_eq!(bound, earliest.0);
        let created_at_since = Ulid::from_parts(since.unix_timestamp() as u64 * 1_000, 0).0;
        assert!(bound < created_at_since);
    }
}
