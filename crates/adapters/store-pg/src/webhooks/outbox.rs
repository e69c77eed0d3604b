//! Writing webhook events to the transactional outbox. Only ever called inside the
//! transaction of the business change that caused the events, so an event is stored if
//! and only if its change committed. In the same transaction each event is fanned out to
//! a pending delivery for every enabled endpoint of its operator subscribed to its type,
//! due at once: from the commit on, the delivery workers see it, whatever happens to the
//! process that wrote it. An event about a player gets the operator's launch metadata
//! added to its `data` here, read in the same transaction from the launch the webhook
//! domain's `MetadataSource` names. An event is one statement (its metadata, its row and
//! its deliveries together); a change that emits several sends them pipelined.

use diesel::sql_types::{Jsonb, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use futures_util::future::join_all;
use opinion_app::model::NewEvent;
use opinion_core::PlayerSessionId;
use opinion_webhook::{METADATA_FIELD, MetadataSource, PLAYER_FIELD, PLAYER_SESSION_FIELD};
use serde_json::Value;

use crate::db::ids::uuid_of;
use crate::db::prepared::prepared;

/// Stores one event and fans it out, in one statement.
///
/// `$6` names the `data` field that carries the launch metadata, or is null for an event
/// about no single player, which gets none. The metadata is the object of the launch
/// behind session `$7` (a session event's own), else behind the most recent session of
/// the player whose external id is `$8`, else JSON `null`; the caller binds at most one
/// of `$7` and `$8`.
///
/// Then one delivery per subscribed, enabled, undeleted endpoint of the event's operator.
/// A delivery's id is a ULID made in SQL: the event's time in milliseconds, then 80 bits
/// from a random uuid, so the delivery log pages in event order.
const ENQUEUE_EVENT: &str = "\
WITH ev AS (
    INSERT INTO webhook_events (operator_id, id, event_type, data, created_at)
    VALUES ($1, $2, $3,
            CASE WHEN $6::text IS NULL THEN $4
                 ELSE $4 || jsonb_build_object($6::text, coalesce(
                     (SELECT l.metadata
                      FROM player_sessions s
                      JOIN launches l ON l.operator_id = s.operator_id AND l.id = s.launch_id
                      WHERE s.operator_id = $1 AND s.id = $7),
                     (SELECT l.metadata
                      FROM users u
                      JOIN player_sessions s ON s.operator_id = u.operator_id AND s.user_id = u.id
                      JOIN launches l ON l.operator_id = s.operator_id AND l.id = s.launch_id
                      WHERE u.operator_id = $1 AND u.external_user_id = $8
                      ORDER BY s.id DESC
                      LIMIT 1),
                     'null'::jsonb))
            END,
            $5)
    RETURNING operator_id, id, event_type, created_at
)
INSERT INTO webhook_deliveries
    (operator_id, id, endpoint_id, event_id, event_type, status, next_attempt_at, created_at, updated_at)
SELECT ev.operator_id,
       (lpad(to_hex(floor(extract(epoch FROM ev.created_at) * 1000)::bigint), 12, '0')
            || substr(md5(gen_random_uuid()::text), 1, 20))::uuid,
       e.id, ev.id, ev.event_type, 'pending', ev.created_at, ev.created_at, ev.created_at
FROM ev
JOIN webhook_endpoints e ON e.operator_id = ev.operator_id
WHERE e.enabled AND e.deleted_at IS NULL AND ev.event_type = ANY (e.event_types)";

/// Adds `events` to the outbox on `conn`, which must be inside the business transaction,
/// with their launch metadata and their deliveries: one statement each, pipelined.
pub(crate) async fn enqueue_events(conn: &AsyncPgConnection, events: &[NewEvent]) -> diesel::QueryResult<()> {
    let enqueued = join_all(events.iter().map(|event| enqueue_event(conn, event))).await;
    enqueued.into_iter().collect()
}

/// The outbox statement of one event.
async fn enqueue_event(mut conn: &AsyncPgConnection, event: &NewEvent) -> diesel::QueryResult<()> {
    let source = MetadataLookup::of(event);
    prepared(
        diesel::sql_query(ENQUEUE_EVENT)
            .bind::<SqlUuid, _>(uuid_of(event.operator_id))
            .bind::<SqlUuid, _>(uuid_of(event.id))
            .bind::<Text, _>(event.event_type.as_str())
            .bind::<Jsonb, _>(Value::Object(event.data.clone()))
            .bind::<Timestamptz, _>(event.created_at)
            .bind::<Nullable<Text>, _>(source.field)
            .bind::<Nullable<SqlUuid>, _>(source.session)
            .bind::<Nullable<Text>, _>(source.player),
    )
    .execute(&mut conn)
    .await
    .map(drop)
}

/// What the outbox statement needs to find an event's launch metadata.
#[derive(Debug)]
struct MetadataLookup<'a> {
    /// The `data` field to set; `None` for an event about no single player.
    field: Option<&'static str>,
    /// A session event's own session, when its `data` names a well-formed one.
    session: Option<uuid::Uuid>,
    /// The external id of the player whose most recent session's launch is echoed.
    player: Option<&'a str>,
}

impl<'a> MetadataLookup<'a> {
    fn of(event: &'a NewEvent) -> Self {
        let text = |field: &str| event.data.get(field).and_then(Value::as_str);
        let none = Self {
            field: None,
            session: None,
            player: None,
        };
        match event.event_type.metadata_source() {
            MetadataSource::None => none,
            MetadataSource::OwnSession => Self {
                field: Some(METADATA_FIELD),
                session: text(PLAYER_SESSION_FIELD)
                    .and_then(|id| id.parse::<PlayerSessionId>().ok())
                    .map(uuid_of),
                ..none
            },
            MetadataSource::LatestSession => Self {
                field: Some(METADATA_FIELD),
                player: text(PLAYER_FIELD),
                ..none
            },
        }
    }
}
