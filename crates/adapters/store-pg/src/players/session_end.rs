//! Ending a player session with its event: one conditional update that only a session not
//! ended yet (and, for a logout, not expired; for an expiry, expired) passes, then the
//! event, in one transaction. Two instances sweeping the same session, or a logout racing
//! the sweep, write one ending and one event between them.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, RunQueryDsl};
use opinion_app::model::{SessionEnd, SessionEnding};
use opinion_app::ports::StoreError;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::schema::player_sessions;
use crate::webhooks::outbox::enqueue_events;

/// The stored name of an ending.
fn reason(end: SessionEnd) -> &'static str {
    match end {
        SessionEnd::LoggedOut => "logout",
        SessionEnd::Expired => "expired",
    }
}

impl PgStore {
    pub(crate) async fn end_session_row(&self, ending: &SessionEnding) -> Result<bool, StoreError> {
        let mut conn = self.conn().await?;
        conn.transaction::<_, DieselError, _>(async |conn| {
            let session = player_sessions::table
                .find((uuid_of(ending.operator_id), uuid_of(ending.session_id)))
                .filter(player_sessions::ended_at.is_null());
            let set = (
                player_sessions::ended_at.eq(ending.at),
                player_sessions::end_reason.eq(reason(ending.end)),
            );
            let ended = match ending.end {
                SessionEnd::LoggedOut => {
                    diesel::update(session.filter(player_sessions::expires_at.gt(ending.now)))
                        .set(set)
                        .execute(conn)
                        .await?
                }
                SessionEnd::Expired => {
                    diesel::update(session.filter(player_sessions::expires_at.le(ending.now)))
                        .set(set)
                        .execute(conn)
                        .await?
                }
            };
            if ended == 1 {
                enqueue_events(conn, std::slice::from_ref(&ending.event)).await?;
            }
            Ok(ended == 1)
        })
        .await
        .map_err(from_diesel)
    }
}
