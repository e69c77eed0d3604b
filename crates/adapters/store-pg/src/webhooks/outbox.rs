//! Writing webhook events to the transactional outbox. Only ever called inside the
//! transaction of the business change that caused the events, so an event is stored if
//! and only if its change committed. In the same transaction each event is fanned out to
//! a pending delivery for every enabled endpoint of its operator subscribed to its type,
//! due at once: from the commit on, the delivery workers see it, whatever happens to the
//! process that wrote it. An event about a player gets the operator's launch metadata
//! added to its `data` here, read in the same transaction from the launch the webhook
//! domain's `MetadataSource` names.

use diesel::prelude::*;
use diesel::sql_types::Uuid as SqlUuid;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::NewEvent;
use opinion_core::PlayerSessionId;
use opinion_webhook::{METADATA_FIELD, MetadataSource, PLAYER_FIELD, PLAYER_SESSION_FIELD};
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::ids::uuid_of;
use crate::db::prepared::prepared;
use crate::db::schema::{launches, player_sessions, users, webhook_events};

/// An outbox row as written.
#[derive(Debug, Insertable)]
#[diesel(table_name = webhook_events, check_for_backend(diesel::pg::Pg))]
struct NewEventRow {
    operator_id: Uuid,
    id: Uuid,
    event_type: String,
    data: serde_json::Value,
    created_at: OffsetDateTime,
}

impl NewEventRow {
    fn new(event: &NewEvent) -> Self {
        Self {
            operator_id: uuid_of(event.operator_id),
            id: uuid_of(event.id),
            event_type: event.event_type.as_str().to_owned(),
            data: serde_json::Value::Object(event.data.clone()),
            created_at: event.created_at,
        }
    }
}

/// One delivery per subscribed, enabled, undeleted endpoint of the event's operator. A
/// delivery's id is a ULID made in SQL: the event's time in milliseconds, then 80 bits
/// from a random uuid, so the delivery log pages in event order.
const FAN_OUT: &str = "\
INSERT INTO webhook_deliveries
    (operator_id, id, endpoint_id, event_id, event_type, status, next_attempt_at, created_at, updated_at)
SELECT ev.operator_id,
       (lpad(to_hex(floor(extract(epoch FROM ev.created_at) * 1000)::bigint), 12, '0')
            || substr(md5(gen_random_uuid()::text), 1, 20))::uuid,
       e.id, ev.id, ev.event_type, 'pending', ev.created_at, ev.created_at, ev.created_at
FROM webhook_events ev
JOIN webhook_endpoints e ON e.operator_id = ev.operator_id
WHERE ev.operator_id = $1 AND ev.id = $2
  AND e.enabled AND e.deleted_at IS NULL AND ev.event_type = ANY (e.event_types)";

/// Adds `events` to the outbox on `conn`, which must be inside the business transaction,
/// with their deliveries.
pub(crate) async fn enqueue_events(conn: &mut AsyncPgConnection, events: &[NewEvent]) -> QueryResult<()> {
    if events.is_empty() {
        return Ok(());
    }
    let mut rows: Vec<NewEventRow> = events.iter().map(NewEventRow::new).collect();
    for (row, event) in rows.iter_mut().zip(events) {
        if let Some(metadata) = echoed_metadata(conn, event).await?
            && let Value::Object(data) = &mut row.data
        {
            data.insert(METADATA_FIELD.to_owned(), metadata);
        }
    }
    // One event, the common case, is a statement the connection keeps prepared; a batch
    // of varying length is not.
    match rows.as_slice() {
        [row] => {
            prepared(diesel::insert_into(webhook_events::table).values(row))
                .execute(conn)
                .await?
        }
        _ => {
            diesel::insert_into(webhook_events::table)
                .values(&rows)
                .execute(conn)
                .await?
        }
    };
    for row in &rows {
        prepared(
            diesel::sql_query(FAN_OUT)
                .bind::<SqlUuid, _>(row.operator_id)
                .bind::<SqlUuid, _>(row.id),
        )
        .execute(conn)
        .await?;
    }
    Ok(())
}

/// The `metadata` an event about a player carries (`null` when its launch had none), or
/// `None` for an event that is about no single player.
async fn echoed_metadata(conn: &mut AsyncPgConnection, event: &NewEvent) -> QueryResult<Option<Value>> {
    let op = uuid_of(event.operator_id);
    let text = |field: &str| event.data.get(field).and_then(Value::as_str);
    let launches_of_sessions = launches::table.on(launches::operator_id
        .eq(player_sessions::operator_id)
        .and(launches::id.eq(player_sessions::launch_id)));
    let found: Option<Option<Value>> = match event.event_type.metadata_source() {
        MetadataSource::None => return Ok(None),
        MetadataSource::OwnSession => {
            let Some(session) = text(PLAYER_SESSION_FIELD).and_then(|id| id.parse::<PlayerSessionId>().ok()) else {
                return Ok(Some(Value::Null));
            };
            player_sessions::table
                .inner_join(launches_of_sessions)
                .filter(player_sessions::operator_id.eq(op))
                .filter(player_sessions::id.eq(uuid_of(session)))
                .select(launches::metadata)
                .first(conn)
                .await
                .optional()?
        }
        MetadataSource::LatestSession => {
            let Some(player) = text(PLAYER_FIELD) else {
                return Ok(Some(Value::Null));
            };
            users::table
                .inner_join(
                    player_sessions::table.on(player_sessions::operator_id
                        .eq(users::operator_id)
                        .and(player_sessions::user_id.eq(users::id))),
                )
                .inner_join(launches_of_sessions)
                .filter(users::operator_id.eq(op))
                .filter(users::external_user_id.eq(player))
                .order(player_sessions::id.desc())
                .select(launches::metadata)
                .first(conn)
                .await
                .optional()?
        }
    };
    Ok(Some(found.flatten().unwrap_or(Value::Null)))
}
