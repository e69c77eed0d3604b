//! Writing webhook events to the transactional outbox. Only ever called inside the
//! transaction of the business change that caused the events, so an event is stored if
//! and only if its change committed; delivery reads them after the commit.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::NewEvent;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::rows::uuid_of;
use crate::schema::webhook_events;

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

/// Adds `events` to the outbox on `conn`, which must be inside the business transaction.
pub(crate) async fn enqueue_events(conn: &mut AsyncPgConnection, events: &[NewEvent]) -> QueryResult<()> {
    if events.is_empty() {
        return Ok(());
    }
    let rows: Vec<NewEventRow> = events.iter().map(NewEventRow::new).collect();
    diesel::insert_into(webhook_events::table)
        .values(&rows)
        .execute(conn)
        .await
        .map(drop)
}
