//! `WebhookStore`, the workers' side: claiming due deliveries across all operators and
//! instances, and reserving rate-limited endpoints' send slots.
//!
//! A claim is one transaction of one statement (`CLAIM`) in the common case: count the
//! attempts in flight per endpoint, lock due candidates of the endpoints below their cap
//! with `FOR UPDATE SKIP LOCKED` (rows another worker is claiming are skipped, not waited
//! for), keep at most the cap in flight per endpoint and at most the claim's limit, and
//! stamp the kept ones with this claim's token and lease. A rate-limited endpoint's
//! delivery is kept, one per claim, but leased only once its endpoint's next send slot is
//! reserved (a conditional update of its `next_send_at`, so two instances can never both
//! take it), in the same transaction. What the claim took (deliveries, endpoints, events)
//! is read before its commit. A worker that dies leaves its lease to expire, and the
//! delivery is claimed again.
//!
//! Every part of a claim finds its rows by an index whatever the statistics say (see
//! `BEGIN_CLAIM`), and the kept deliveries are named by their whole key, operator and
//! id, so nothing a claim does grows with the deliveries' history.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{BigInt, Int4, Nullable, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
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
use crate::db::tuned_transaction::tuned_transaction;
use crate::webhooks::targets::{load_targets, targets_of};

/// Begins a claim's transaction with its planner settings, in one round trip: no
/// sequential or bitmap scan, so every part of the claim reads its index, the due
/// deliveries in the claim's order. A connection keeps a claim's statement prepared with
/// the plan it made for it first; made while the tables were small, a sequential scan of
/// the endpoints for each candidate and of the deliveries for the counts was the cheaper
/// plan then, and stayed cached as both tables grew (a claim took 250 ms with 1,000
/// endpoints).
///
/// The claim and the load of what it took are planned once per connection, generically
/// (`plan_cache_mode`): their custom plans are no better (the plan test checks both
/// kinds), and a custom plan made at every claim cost about as much as running it under
/// a backlog of due deliveries.
const BEGIN_CLAIM: &str = "BEGIN; SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; \
                           SET LOCAL plan_cache_mode = force_generic_plan";

/// How many candidates a claim locks per delivery it may take: room for skipping those
/// of an endpoint that reaches its in-flight cap within the claim, and a rate-limited
/// endpoint's after its first. Every locked row is a write (its lock is logged), and the
/// endpoints already at their cap are left out before locking, so two is enough room:
/// four locked twice the rows for the same deliveries.
const CANDIDATES_PER_CLAIM: i64 = 2;

/// The claim itself. `$1` now, `$2` the claim's limit, `$3` the candidates to lock, `$4`
/// the in-flight cap per endpoint, `$5` the lease token, `$6` the lease's end.
///
/// - `in_flight`: the attempts in flight per endpoint, from the small index of leased
///   deliveries, counted once per claim however large the backlog of due deliveries.
/// - `candidates`: due deliveries of enabled endpoints whose slot is open, except those
///   of the endpoints already at their cap, oldest due first, locked. A capped endpoint
///   is left out here, not skipped after the fact, so however many of its deliveries are
///   due they never fill the candidates and starve other endpoints. The endpoint's
///   conditions and rate limit are scalar subqueries, which the planner keeps per
///   candidate and never turns into a join: with `BEGIN_CLAIM`'s settings the one plan
///   left reads the due index in its order, each candidate's endpoint by its key, and
///   stops at the limit. (A join leaves the planner its order and method to choose, and
///   a stale choice hashed and sorted every due delivery at every claim.)
/// - `kept`: in the claim's order, each candidate's turn at its endpoint added to the
///   endpoint's attempts in flight stays within the cap, a rate-limited endpoint's first
///   candidate only, and no more than the limit.
/// - `leased`: the kept deliveries of endpoints without a rate limit, leased here. The
///   rate-limited ones are answered unleased, for their slot to be taken first. A lease
///   also moves its delivery's next attempt to the lease's end (see [`lease`]).
const CLAIM: &str = "\
WITH in_flight AS (
    SELECT endpoint_id, count(*) AS in_flight
    FROM webhook_deliveries
    WHERE status = 'pending' AND lease_expires_at IS NOT NULL AND lease_expires_at > $1
    GROUP BY operator_id, endpoint_id
), candidates AS (
    SELECT d.operator_id, d.id, d.endpoint_id, d.next_attempt_at,
           (SELECT e.rate_limit_per_minute FROM webhook_endpoints e
            WHERE e.operator_id = d.operator_id AND e.id = d.endpoint_id) AS rate_limit_per_minute
    FROM webhook_deliveries d
    WHERE d.status = 'pending' AND d.next_attempt_at <= $1
      AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= $1)
      AND d.endpoint_id <> ALL (ARRAY(SELECT endpoint_id FROM in_flight WHERE in_flight >= $4))
      AND (SELECT e.enabled AND e.deleted_at IS NULL AND (e.next_send_at IS NULL OR e.next_send_at <= $1)
           FROM webhook_endpoints e
           WHERE e.operator_id = d.operator_id AND e.id = d.endpoint_id)
    ORDER BY d.next_attempt_at, d.id
    LIMIT $3
    FOR UPDATE OF d SKIP LOCKED
), kept AS (
    SELECT c.operator_id, c.id, c.endpoint_id, c.rate_limit_per_minute
    FROM (
        SELECT c.*,
               row_number() OVER (PARTITION BY c.operator_id, c.endpoint_id
                                  ORDER BY c.next_attempt_at, c.id) AS turn
        FROM candidates c
    ) c
    LEFT JOIN in_flight f ON f.endpoint_id = c.endpoint_id
    WHERE coalesce(f.in_flight, 0) + c.turn <= $4
      AND (c.rate_limit_per_minute IS NULL OR c.turn = 1)
    ORDER BY c.next_attempt_at, c.id
    LIMIT $2
), leased AS (
    UPDATE webhook_deliveries d
    SET lease_token = $5, lease_expires_at = $6, next_attempt_at = $6
    FROM kept k
    WHERE d.operator_id = k.operator_id AND d.id = k.id AND k.rate_limit_per_minute IS NULL
)
SELECT operator_id, id, endpoint_id, rate_limit_per_minute FROM kept";

/// A delivery the claim keeps: leased already, or waiting for its endpoint's slot when
/// the endpoint has a rate limit.
#[derive(Debug, QueryableByName)]
struct Kept {
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

/// The spacing of a stored per-minute limit; none for a number the domain refuses.
fn spacing_of(per_minute: i32) -> Option<i64> {
    u32::try_from(per_minute)
        .ok()
        .and_then(|n| opinion_webhook::RateLimit::per_minute(n).ok())
        .map(opinion_webhook::RateLimit::spacing_micros)
}

/// Leases a rate-limited endpoint's kept delivery once its slot is taken (or at once, for a
/// stored limit that is not one, which sets no spacing).
///
/// A lease, here or in `CLAIM`, also sets the delivery's next attempt to the lease's end:
/// when the attempt is recorded, the record sets it again; when the worker died, that is
/// when the delivery is due again. Until then a delivery in flight is out of the due
/// index's range, so no claim walks past the attempts in flight (about as many as the
/// workers have slots, and their dead versions) to reach the deliveries due.
async fn lease(conn: &mut AsyncPgConnection, delivery: &Kept, claim: &Claim) -> Result<(), DieselError> {
    diesel::update(webhook_deliveries::table.find((delivery.operator_id, delivery.id)))
        .set((
            webhook_deliveries::lease_token.eq(Uuid::from_u128(claim.token)),
            webhook_deliveries::lease_expires_at.eq(claim.lease_until),
            webhook_deliveries::next_attempt_at.eq(claim.lease_until),
        ))
        .execute(conn)
        .await?;
    Ok(())
}

impl PgStore {
    pub(crate) async fn claim_due(&self, claim: &Claim) -> Result<Vec<AttemptTarget>, StoreError> {
        let key = self.data_key()?;
        let mut conn = self.conn().await?;
        let rows = tuned_transaction(&mut conn, BEGIN_CLAIM, async |conn| {
            let kept: Vec<Kept> = prepared(
                diesel::sql_query(CLAIM)
                    .bind::<Timestamptz, _>(claim.now)
                    .bind::<BigInt, _>(i64::from(claim.limit))
                    .bind::<BigInt, _>(i64::from(claim.limit) * CANDIDATES_PER_CLAIM)
                    .bind::<BigInt, _>(i64::from(MAX_IN_FLIGHT_PER_ENDPOINT))
                    .bind::<SqlUuid, _>(Uuid::from_u128(claim.token))
                    .bind::<Timestamptz, _>(claim.lease_until),
            )
            .load(conn)
            .await?;
            let mut operators = Vec::with_capacity(kept.len());
            let mut claimed = Vec::with_capacity(kept.len());
            for delivery in kept {
                if let Some(per_minute) = delivery.rate_limit_per_minute {
                    let open = match spacing_of(per_minute) {
                        Some(spacing) => {
                            take_slot(conn, delivery.operator_id, delivery.endpoint_id, claim.now, spacing).await?
                        }
                        None => true,
                    };
                    if !open {
                        continue;
                    }
                    lease(conn, &delivery, claim).await?;
                }
                operators.push(delivery.operator_id);
                claimed.push(delivery.id);
            }
            if claimed.is_empty() {
                return Ok(Vec::new());
            }
            load_targets(conn, &operators, &claimed).await
        })
        .await
        .map_err(from_diesel)?;
        let targets = targets_of(rows, key)?;
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
