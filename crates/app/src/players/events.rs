//! The webhook events of player sessions, with the `data` fields the event catalog
//! (`opinion-webhook`'s `event_type.rs`) documents.

use opinion_core::{EventId, OperatorId, PlayerSessionId};
use opinion_webhook::EventType;
use serde_json::json;
use time::OffsetDateTime;

use crate::model::{Launch, NewEvent, SessionEnd, User, rfc3339};
use crate::players::Players;

impl Players {
    /// `mini_app.login.succeeded`: `launch` redeemed for session `session_id` at `at`.
    pub(crate) fn login_succeeded(
        &self,
        launch: &Launch,
        user: &User,
        session_id: PlayerSessionId,
        at: OffsetDateTime,
        expires_at: OffsetDateTime,
    ) -> NewEvent {
        let data = json!({
            "externalUserId": user.external_user_id,
            "playerSessionId": session_id,
            "launchId": launch.id,
            "loggedInAt": rfc3339(at),
            "expiresAt": rfc3339(expires_at),
        });
        self.event(launch.operator_id, EventType::LoginSucceeded, data, at)
    }

    /// `mini_app.logout.requested` or `mini_app.session.expired`, by how `user`'s session
    /// `session_id` ended at `at`.
    pub(crate) fn session_ended(
        &self,
        session_id: PlayerSessionId,
        user: &User,
        end: SessionEnd,
        at: OffsetDateTime,
    ) -> NewEvent {
        let (event_type, time_field) = match end {
            SessionEnd::LoggedOut => (EventType::LogoutRequested, "loggedOutAt"),
            SessionEnd::Expired => (EventType::SessionExpired, "expiredAt"),
        };
        let mut data = json!({
            "externalUserId": user.external_user_id,
            "playerSessionId": session_id,
        });
        data[time_field] = json!(rfc3339(at));
        self.event(user.operator_id, event_type, data, at)
    }

    fn event(
        &self,
        operator: OperatorId,
        event_type: EventType,
        data: serde_json::Value,
        at: OffsetDateTime,
    ) -> NewEvent {
        NewEvent::new(
            EventId::from_ulid(self.ports.random.ulid()),
            operator,
            event_type,
            data,
            at,
        )
    }
}
