//! `WebhookStore`, recording an attempt. The attempt's log row, its delivery's new state
//! and attempt count (the state only while the worker's claim holds, for a scheduled
//! attempt) and the endpoint's failure streak, when it changed, are one statement: an
//! attempt that leaves its endpoint enabled, nearly every one, costs one round trip and
//! one commit. One that disables the endpoint runs the same statement in a transaction
//! that also cancels the endpoint's other pending deliveries and enqueues
//! `mini_app.webhook_endpoint.disabled`.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{Bool, Int4, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::AttemptReport;
use opinion_app::ports::StoreError;
use opinion_webhook::DeliveryStatus;
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::prepared::prepared;
use crate::db::schema::webhook_endpoints;
use crate::webhooks::endpoints::cancel_pending;
use crate::webhooks::outbox::enqueue_events;

/// Whether the attempt changes its delivery's state, written against the delivery's row
/// as it was: a state is proposed (`$4`), the attempt holds the delivery's claim if it is
/// a scheduled one (`$5`, the claim's token, null for a replay), and the delivery is
/// still pending unless the attempt delivers a replay (`$6`).
macro_rules! applies {
    () => {
        "($4 AND ($5::uuid IS NULL OR d.lease_token = $5) AND (NOT $6 OR d.status = 'pending'))"
    };
}

/// Records one attempt. The attempt is counted, and logged as the delivery's new count,
/// whether or not it changes the delivery's state; a scheduled attempt that changes it
/// also counts towards the delivery's scheduled attempts. The endpoint's row is written
/// only when its failure streak changed, so concurrent attempts at a healthy endpoint
/// never queue on its lock. Returns the attempt's number; when there is no such delivery,
/// no row, and nothing is written.
const RECORD_ATTEMPT: &str = concat!(
    "WITH delivery AS (
    UPDATE webhook_deliveries d
    SET attempt_count = d.attempt_count + 1,
        scheduled_attempts = d.scheduled_attempts
            + CASE WHEN ",
    applies!(),
    " AND $5::uuid IS NOT NULL THEN 1 ELSE 0 END,
        status = CASE WHEN ",
    applies!(),
    " THEN $7 ELSE d.status END,
        next_attempt_at = CASE WHEN ",
    applies!(),
    " THEN $8 ELSE d.next_attempt_at END,
        lease_token = CASE WHEN ",
    applies!(),
    " THEN NULL ELSE d.lease_token END,
        lease_expires_at = CASE WHEN ",
    applies!(),
    " THEN NULL ELSE d.lease_expires_at END,
        updated_at = CASE WHEN ",
    applies!(),
    " THEN $9 ELSE d.updated_at END
    WHERE d.operator_id = $1 AND d.id = $2
    RETURNING d.operator_id, d.id, d.attempt_count
), logged AS (
    INSERT INTO webhook_attempts
        (operator_id, delivery_id, number, trigger, started_at, duration_ms, status_code, error,
         response_body, next_attempt_at, request_url, request_webhook_id,
         request_webhook_timestamp, request_webhook_signature)
    SELECT operator_id, id, attempt_count, $11, $9, $12, $13, $14, $15, $16, $17, $18, $19, $20
    FROM delivery
), streak AS (
    UPDATE webhook_endpoints
    SET failing_since = $10
    WHERE operator_id = $1 AND id = $3 AND failing_since IS DISTINCT FROM $10
      AND EXISTS (SELECT FROM delivery)
)
SELECT attempt_count FROM delivery"
);

impl PgStore {
    /// Records an attempt: with the store's other attempts when it records them together
    /// (the delivery workers' store) and the attempt leaves its endpoint enabled, alone
    /// otherwise.
    pub(crate) async fn record_attempt_rows(&self, report: &AttemptReport) -> Result<(), StoreError> {
        if let (Some(batches), None) = (self.attempt_batches(), &report.disable) {
            return batches.record(report).await;
        }
        let mut conn = self.conn().await?;
        let Some(disabling) = &report.disable else {
            return record(&conn, report).await.map_err(from_diesel);
        };
        let (operator, endpoint) = (uuid_of(report.operator_id), uuid_of(report.endpoint_id));
        conn.transaction::<_, DieselError, _>(async |conn| {
            record(conn, report).await?;
            cancel_pending(
                conn,
                operator,
                endpoint,
                Some(uuid_of(report.delivery_id)),
                disabling.at,
            )
            .await?;
            let disabled = diesel::update(
                webhook_endpoints::table
                    .find((operator, endpoint))
                    .filter(webhook_endpoints::enabled),
            )
            .set((
                webhook_endpoints::enabled.eq(false),
                webhook_endpoints::disabled_reason.eq(disabling.reason.as_str()),
                webhook_endpoints::updated_at.eq(disabling.at),
            ))
            .execute(conn)
            .await?;
            if disabled == 1 {
                enqueue_events(conn, std::slice::from_ref(&disabling.event)).await?;
            }
            Ok(())
        })
        .await
        .map_err(from_diesel)
    }
}

/// Runs [`RECORD_ATTEMPT`] for `report`; `NotFound` if its delivery does not exist.
pub(crate) async fn record(mut conn: &AsyncPgConnection, report: &AttemptReport) -> Result<(), DieselError> {
    let attempt = &report.attempt;
    let request = attempt.request.as_ref();
    let (status, next_attempt_at) = report.delivery.unzip();
    // A replay that delivers changes its delivery whatever the delivery's state.
    let only_pending = report.lease.is_some() || status != Some(DeliveryStatus::Delivered);
    prepared(
        diesel::sql_query(RECORD_ATTEMPT)
            .bind::<SqlUuid, _>(uuid_of(report.operator_id))
            .bind::<SqlUuid, _>(uuid_of(report.delivery_id))
            .bind::<SqlUuid, _>(uuid_of(report.endpoint_id))
            .bind::<Bool, _>(status.is_some())
            .bind::<Nullable<SqlUuid>, _>(report.lease.map(Uuid::from_u128))
            .bind::<Bool, _>(only_pending)
            .bind::<Nullable<Text>, _>(status.map(DeliveryStatus::as_str))
            .bind::<Nullable<Timestamptz>, _>(next_attempt_at.flatten())
            .bind::<Timestamptz, _>(attempt.started_at)
            .bind::<Nullable<Timestamptz>, _>(report.failing_since)
            .bind::<Text, _>(attempt.trigger.as_str())
            .bind::<Int4, _>(i32::try_from(attempt.duration_ms).unwrap_or(i32::MAX))
            .bind::<Nullable<Int4>, _>(attempt.status_code.map(i32::from))
            .bind::<Nullable<Text>, _>(attempt.error.as_deref())
            .bind::<Nullable<Text>, _>(attempt.response_body.as_deref())
            .bind::<Nullable<Timestamptz>, _>(attempt.next_attempt_at)
            .bind::<Nullable<Text>, _>(request.map(|r| r.url.as_str()))
            .bind::<Nullable<Text>, _>(request.map(|r| r.headers.webhook_id.as_str()))
            .bind::<Nullable<Text>, _>(request.map(|r| r.headers.webhook_timestamp.as_str()))
            .bind::<Nullable<Text>, _>(request.map(|r| r.headers.webhook_signature.as_str())),
    )
    .execute(&mut conn)
    .await
    .and_then(|rows| if rows == 1 { Ok(()) } else { Err(DieselError::NotFound) })
}
