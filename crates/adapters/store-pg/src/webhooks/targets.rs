//! The targets of attempts: deliveries named by their whole key, each with its endpoint
//! and its event, as a claim or a replay makes attempts at them.

use diesel::result::Error as DieselError;
use diesel::sql_types::{Array, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::AttemptTarget;
use opinion_app::ports::StoreError;
use opinion_webhook::RateLimit;
use uuid::Uuid;

use crate::db::prepared::prepared;
use crate::db::sealing::DataKey;
use crate::webhooks::rows::TargetRow;

/// `$1` the deliveries' operators and `$2` their ids, pair by pair. Each delivery, then its
/// endpoint and its event, is a lateral subquery on its table's whole primary key, which
/// the planner can neither flatten into a join nor answer from another index, so the
/// plan the connection keeps is three key lookups per delivery however the tables grew
/// since it was made. (A join on the two lists planned on small tables kept reading
/// every delivery and event of the operator for each one: `docs/performance.md`,
/// 2026-12-08.)
const LOAD_TARGETS: &str = "\
SELECT e.operator_id, e.id, e.url, e.description, e.event_types, e.enabled, e.disabled_reason,
       e.rate_limit_per_minute, e.secret, e.previous_secret, e.previous_secret_expires_at,
       e.secret_sealed, e.previous_secret_sealed, e.failing_since, e.created_at, e.updated_at,
       e.max_attempts, e.timeout_seconds, e.deleted_at,
       d.id AS delivery_id, d.scheduled_attempts,
       ev.id AS event_id, ev.event_type, ev.data AS event_data, ev.created_at AS event_created_at
FROM unnest($1::uuid[], $2::uuid[]) AS k(operator_id, id)
CROSS JOIN LATERAL (
    SELECT d.id, d.endpoint_id, d.event_id, d.scheduled_attempts
    FROM webhook_deliveries d
    WHERE d.operator_id = k.operator_id AND d.id = k.id
    LIMIT 1
) d
CROSS JOIN LATERAL (
    SELECT e.*
    FROM webhook_endpoints e
    WHERE e.operator_id = k.operator_id AND e.id = d.endpoint_id
    LIMIT 1
) e
CROSS JOIN LATERAL (
    SELECT ev.id, ev.event_type, ev.data, ev.created_at
    FROM webhook_events ev
    WHERE ev.operator_id = k.operator_id AND ev.id = d.event_id
    LIMIT 1
) ev";

/// The deliveries `ids[i]` of `operators[i]` (one for a replay; for a claim, those it
/// took) with their endpoints and events, as [`targets_of`] makes them into what an
/// attempt needs; a delivery that does not exist is left out.
pub(crate) async fn load_targets(
    conn: &mut AsyncPgConnection,
    operators: &[Uuid],
    ids: &[Uuid],
) -> Result<Vec<TargetRow>, DieselError> {
    prepared(
        diesel::sql_query(LOAD_TARGETS)
            .bind::<Array<SqlUuid>, _>(operators)
            .bind::<Array<SqlUuid>, _>(ids),
    )
    .load(conn)
    .await
}

/// The attempt targets of `rows`, their endpoints' secrets opened with `key`; with each,
/// whether its endpoint still receives deliveries, and its rate limit.
pub(crate) fn targets_of(
    rows: Vec<TargetRow>,
    key: &DataKey,
) -> Result<Vec<(AttemptTarget, bool, Option<RateLimit>)>, StoreError> {
    rows.into_iter().map(|row| row.into_target(key)).collect()
}
