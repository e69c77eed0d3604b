//! `WebhookStore`, the workers' side: claiming due deliveries across all operators and
//! instances, and reserving rate-limited endpoints' send slots.
//!
//! A claim is one transaction: count the attempts in flight per endpoint, lock due
//! candidates of the endpoints below their cap with `FOR UPDATE SKIP LOCKED` (rows
//! another worker is claiming are skipped, not waited for), keep at most the cap in
//! flight per endpoint, reserve each rate-limited endpoint's next slot (a conditional update
//! of its `next_send_at`, so two instances can never both take it), then stamp the kept
//! ones with this claim's token and lease. A worker that dies leaves its lease to expire,
//! and the delivery is claimed again.
//!
//! Every statement of a claim finds its rows by an index whatever the statistics say
//! (see `PLANNER`), and the kept deliveries are named by their whole key, operator and
//! id, so nothing a claim does grows with the deliveries' history.

use std::collections::{HashMap, HashSet};

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{Array, BigInt, Int4, Nullable, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use opinion_app::model::AttemptTarget;
use opinion_app::ports::StoreError;
use opinion_app::webhooks::store::Claim;
use opinion_core::{OperatorId, WebhookEndpointId};
use opinion_webhook::MAX_IN_FLIGHT_PER_ENDPOINT;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::prepared::prepared;
use crate::db::schema::{webhook_deliveries, webhook_endpoints};
use crate::webhooks::deliveries::load_targets;

/// The claim transaction's planner settings: no sequential or bitmap scan, so every
/// statement reads its index, the due deliveries in the claim's order. A connection
/// keeps a claim's statements prepared with the plans it made for them first; made while
/// the tables were small, a sequential scan of the endpoints for each candidate and of
/// the deliveries for the counts was the cheaper plan then, and stayed cached as both
/// tables grew (a claim took 250 ms with 1,000 endpoints).
const PLANNER: &str = "SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off";

/// How many candidates a claim locks per delivery it may take: room for skipping those
/// of an endpoint that reaches its in-flight cap within the claim, or whose rate-limited
/// slot another worker just took.
const CANDIDATES_PER_CLAIM: i64 = 4;

/// The attempts in flight per endpoint, from the small index of leased deliveries:
/// counted once per claim, however large the backlog of due deliveries.
const IN_FLIGHT: &str = "\
SELECT endpoint_id, count(*) AS in_flight
FROM webhook_deliveries
WHERE status = 'pending' AND lease_expires_at IS NOT NULL AND lease_expires_at > $1
GROUP BY operator_id, endpoint_id";

/// Due deliveries of enabled endpoints whose slot is open, except those of the endpoints
/// at their in-flight cap ($3), oldest due first, locked. A capped endpoint is left out
/// here, not skipped after the fact, so however many of its deliveries are due they
/// never fill the candidates and starve other endpoints.
///
/// The endpoint's conditions and rate limit are scalar subqueries, which the planner
/// keeps per candidate and never turns into a join: with `PLANNER`'s settings the one
/// plan left reads the due index in its order, each candidate's endpoint by its key,
/// and stops at the limit. (A join leaves the planner its order and method to choose,
/// and a stale choice hashed and sorted every due delivery at every claim.)
const CANDIDATES: &str = "\
SELECT d.operator_id, d.id, d.endpoint_id,
       (SELECT e.rate_limit_per_minute FROM webhook_endpoints e
        WHERE e.operator_id = d.operator_id AND e.id = d.endpoint_id) AS rate_limit_per_minute
FROM webhook_deliveries d
WHERE d.status = 'pending' AND d.next_attempt_at <= $1
  AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= $1)
  AND d.endpoint_id <> ALL ($3)
  AND (SELECT e.enabled AND e.deleted_at IS NULL AND (e.next_send_at IS NULL OR e.next_send_at <= $1)
       FROM webhook_endpoints e
       WHERE e.operator_id = d.operator_id AND e.id = d.endpoint_id)
ORDER BY d.next_attempt_at, d.id
LIMIT $2
FOR UPDATE OF d SKIP LOCKED";

/// One endpoint's attempts in flight.
#[derive(Debug, QueryableByName)]
struct InFlight {
    #[diesel(sql_type = SqlUuid)]
    endpoint_id: Uuid,
    #[diesel(sql_type = BigInt)]
    in_flight: i64,
}

#[derive(Debug, QueryableByName)]
struct Candidate {
    #[diesel(sql_type = SqlUuid)]
    operator_id: Uuid,
    #[diesel(sql_type = SqlUuid)]
    id: Uuid,
    #[diesel(sql_type = SqlUuid)]
    endpoint_id: Uuid,
    #[diesel(sql_type = Nullable<Int4>)]
    rate_limit_per_minute: Option<i32>,
}

/// Takes the endpoint's next send slot at `now` if it is open; `false` if it is not.
async fn take_slot(
    conn: &mut AsyncPgConnection,
    operator: Uuid,
    endpoint: Uuid,
    now: OffsetDateTime,
    spacing_micros: i64,
) -> Result<bool, DieselError> {
    let taken = diesel::update(
        webhook_endpoints::table.find((operator, endpoint)).filter(
            webhook_endpoints::next_send_at
                .is_null()
                .or(webhook_endpoints::next_send_at.le(now)),
        ),
    )
    .set(webhook_endpoints::next_send_at.eq(now + Duration::microseconds(spacing_micros)))
    .execute(conn)
    .await?;
    Ok(taken == 1)
}

/// The spacing of a stored per-minute limit.
fn spacing_of(per_minute: i32) -> Option<i64> {
    u32::try_from(per_minute)
        .ok()
        .and_then(|n| opinion_webhook::RateLimit::per_minute(n).ok())
        .map(opinion_webhook::RateLimit::spacing_micros)
}

impl PgStore {
    pub(crate) async fn claim_due(&self, claim: &Claim) -> Result<Vec<AttemptTarget>, StoreError> {
        let key = self.data_key()?;
        let mut conn = self.conn().await?;
        let lease = Uuid::from_u128(claim.token);
        let (operators, claimed) = conn
            .transaction::<_, DieselError, _>(async |conn| {
                conn.batch_execute(PLANNER).await?;
                let cap = i64::from(MAX_IN_FLIGHT_PER_ENDPOINT);
                let busy: Vec<InFlight> = prepared(diesel::sql_query(IN_FLIGHT).bind::<Timestamptz, _>(claim.now))
                    .load(conn)
                    .await?;
                let capped: Vec<Uuid> = busy
                    .iter()
                    .filter(|endpoint| endpoint.in_flight >= cap)
                    .map(|endpoint| endpoint.endpoint_id)
                    .collect();
                let mut in_flight: HashMap<Uuid, i64> = busy
                    .iter()
                    .map(|endpoint| (endpoint.endpoint_id, endpoint.in_flight))
                    .collect();
                let candidates: Vec<Candidate> = prepared(
                    diesel::sql_query(CANDIDATES)
                        .bind::<Timestamptz, _>(claim.now)
                        .bind::<BigInt, _>(i64::from(claim.limit) * CANDIDATES_PER_CLAIM)
                        .bind::<Array<SqlUuid>, _>(&capped),
                )
                .load(conn)
                .await?;
                let mut kept = Vec::new();
                let mut operators = HashSet::new();
                for candidate in candidates {
                    if kept.len() >= claim.limit as usize {
                        break;
                    }
                    let count = in_flight.entry(candidate.endpoint_id).or_insert(0);
                    if *count >= cap {
                        continue;
                    }
                    if let Some(spacing) = candidate.rate_limit_per_minute.and_then(spacing_of)
                        && !take_slot(conn, candidate.operator_id, candidate.endpoint_id, claim.now, spacing).await?
                    {
                        continue;
                    }
                    *count += 1;
                    kept.push(candidate.id);
                    operators.insert(candidate.operator_id);
                }
                let operators: Vec<Uuid> = operators.into_iter().collect();
                if !kept.is_empty() {
                    prepared(
                        diesel::update(
                            webhook_deliveries::table
                                .filter(webhook_deliveries::operator_id.eq_any(&operators))
                                .filter(webhook_deliveries::id.eq_any(&kept)),
                        )
                        .set((
                            webhook_deliveries::lease_token.eq(lease),
                            webhook_deliveries::lease_expires_at.eq(claim.lease_until),
                        )),
                    )
                    .execute(conn)
                    .await?;
                }
                Ok((operators, kept))
            })
            .await
            .map_err(from_diesel)?;
        if claimed.is_empty() {
            return Ok(Vec::new());
        }
        let targets = load_targets(&mut conn, key, &operators, &claimed).await?;
        Ok(targets.into_iter().map(|(target, _, _)| target).collect())
    }

    pub(crate) async fn reserve_slot(
        &self,
        operator: OperatorId,
        endpoint: WebhookEndpointId,
        now: OffsetDateTime,
        spacing_micros: i64,
    ) -> Result<Option<OffsetDateTime>, StoreError> {
        let (operator, endpoint) = (uuid_of(operator), uuid_of(endpoint));
        let mut conn = self.conn().await?;
        if take_slot(&mut conn, operator, endpoint, now, spacing_micros)
            .await
            .map_err(from_diesel)?
        {
            return Ok(None);
        }
        let opens_at: Option<OffsetDateTime> = webhook_endpoints::table
            .find((operator, endpoint))
            .select(webhook_endpoints::next_send_at)
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?
            .flatten();
        Ok(Some(opens_at.unwrap_or(now)))
    }
}

#[cfg(test)]
mod plan_tests;
