//! Ending player sessions against a real database: a logout ends a live session once, the
//! sweep finds expired sessions of every operator and ends each once, and every ending
//! writes its event in the same transaction (and a refused one writes none).

use diesel::sql_types::BigInt;
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::{Launch, NewEvent, SessionEnd, SessionEnding, User};
use opinion_app::players::ports::PlayerStore;
use opinion_core::{EventId, LaunchId, PlayerSessionId, UserId};
use opinion_store_pg::PgStore;
use opinion_webhook::EventType;
use time::OffsetDateTime;

use crate::fixtures::*;

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// Events of `event_type` in the outbox.
async fn events(url: &str, event_type: EventType) -> i64 {
    let mut conn = AsyncPgConnection::establish(url).await.expect("connect");
    let rows: Vec<Count> = sql_query(format!(
        "SELECT count(*) AS count FROM webhook_events WHERE event_type = '{}'",
        event_type.as_str()
    ))
    .load(&mut conn)
    .await
    .expect("count");
    rows[0].count
}

fn event(n: u128, operator: u128, event_type: EventType) -> NewEvent {
    NewEvent {
        id: EventId::from_u128(n),
        operator_id: operator_id(operator),
        event_type,
        data: serde_json::Map::new(),
        created_at: T0,
    }
}

/// Operator `operator`'s player `n` launched and logged in at `T0` with session `n`,
/// expiring `lifetime` seconds later.
async fn session(store: &PgStore, operator: u128, n: u128, lifetime: i64) -> PlayerSessionId {
    let user = User {
        id: UserId::from_u128(n),
        operator_id: operator_id(operator),
        external_user_id: format!("player-{n}"),
        display_name: None,
        language: None,
        created_at: T0,
        last_launched_at: T0,
    };
    let launch = Launch {
        id: LaunchId::from_u128(n),
        operator_id: operator_id(operator),
        user_id: user.id,
        return_url: None,
        locale: None,
        metadata: None,
        product: opinion_wallet::Product::Opinion,
        created_at: T0,
        expires_at: at(300),
    };
    store.record_launch(&user, &launch).await.expect("launch");
    let id = PlayerSessionId::from_u128(n);
    let login = event(1_000 + n, operator, EventType::LoginSucceeded);
    store
        .open_player_session(operator_id(operator), launch.id, id, T0, at(lifetime), &login)
        .await
        .expect("open")
        .expect("a session");
    id
}

fn ending(
    operator: u128,
    id: PlayerSessionId,
    end: SessionEnd,
    at: OffsetDateTime,
    now: OffsetDateTime,
    n: u128,
) -> SessionEnding {
    let event_type = match end {
        SessionEnd::LoggedOut => EventType::LogoutRequested,
        SessionEnd::Expired => EventType::SessionExpired,
    };
    SessionEnding {
        operator_id: operator_id(operator),
        session_id: id,
        end,
        at,
        now,
        event: event(n, operator, event_type),
    }
}

#[tokio::test]
async fn a_logout_ends_a_live_session_once_with_its_event() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    let id = session(&store, 1, 1, 3_600).await;

    let logout = ending(1, id, SessionEnd::LoggedOut, at(60), at(60), 10);
    assert!(store.end_player_session(&logout).await.expect("end"));
    let (ended, _) = store
        .find_player_session(operator_id(1), id)
        .await
        .expect("find")
        .expect("kept");
    assert_eq!(ended.ended_at, Some(at(60)));
    assert!(!ended.is_live(at(61)));
    assert_eq!(events(db.url(), EventType::LogoutRequested).await, 1);

    let again = ending(1, id, SessionEnd::LoggedOut, at(70), at(70), 11);
    assert!(!store.end_player_session(&again).await.expect("end"), "once only");
    let expiry = ending(1, id, SessionEnd::Expired, at(3_600), at(4_000), 12);
    assert!(
        !store.end_player_session(&expiry).await.expect("end"),
        "a logged-out session never expires"
    );
    assert_eq!(events(db.url(), EventType::LogoutRequested).await, 1);
    assert_eq!(events(db.url(), EventType::SessionExpired).await, 0);
    assert!(
        store
            .expired_player_sessions(at(10_000), 10)
            .await
            .expect("sweep")
            .is_empty(),
        "an ended session is not swept"
    );
}

#[tokio::test]
async fn an_expired_session_cannot_log_out_and_is_swept_once() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let early = session(&store, 1, 1, 600).await;
    let late = session(&store, 2, 2, 1_200).await;
    let live = session(&store, 1, 3, 86_400).await;

    let logout = ending(1, early, SessionEnd::LoggedOut, at(700), at(700), 10);
    assert!(
        !store.end_player_session(&logout).await.expect("end"),
        "past its expiry"
    );

    let found = store.expired_player_sessions(at(1_500), 10).await.expect("sweep");
    let ids: Vec<_> = found.iter().map(|(s, _)| s.id).collect();
    assert_eq!(
        ids,
        [early, late],
        "every operator's, earliest expiry first, live ones left"
    );
    assert_eq!(found[1].1.external_user_id, "player-2");
    assert!(!ids.contains(&live));
    let first_only = store.expired_player_sessions(at(1_500), 1).await.expect("sweep");
    assert_eq!(first_only.len(), 1);

    let expire = ending(1, early, SessionEnd::Expired, at(600), at(1_500), 11);
    assert!(store.end_player_session(&expire).await.expect("end"));
    let twice = ending(1, early, SessionEnd::Expired, at(600), at(1_501), 12);
    assert!(
        !store.end_player_session(&twice).await.expect("end"),
        "a second sweep writes nothing"
    );
    let too_soon = ending(1, live, SessionEnd::Expired, at(86_400), at(1_500), 13);
    assert!(
        !store.end_player_session(&too_soon).await.expect("end"),
        "a live session does not expire"
    );
    assert_eq!(events(db.url(), EventType::SessionExpired).await, 1);
    let left = store.expired_player_sessions(at(1_500), 10).await.expect("sweep");
    assert_eq!(left.iter().map(|(s, _)| s.id).collect::<Vec<_>>(), [late]);
}
