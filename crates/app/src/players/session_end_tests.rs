//! How sessions end, over mocked ports: a logout ends the live session with
//! `mini_app.logout.requested`, the sweep ends each expired session once with
//! `mini_app.session.expired` dated at its expiry, and a session already ended is
//! neither logged out nor expired again.

use opinion_core::{LaunchId, PlayerSessionId};
use opinion_webhook::EventType;
use time::{Duration, OffsetDateTime};

use crate::access::AuthFailure;
use crate::error::AppError;
use crate::model::{PlayerSession, SessionEnd};
use crate::test_support::trading::*;
use crate::test_support::{NOW, OPERATOR};

fn session(id: u128, expires_at: OffsetDateTime) -> PlayerSession {
    PlayerSession {
        id: PlayerSessionId::from_u128(id),
        operator_id: OPERATOR,
        user_id: player().user.id,
        launch_id: LaunchId::from_u128(1),
        locale: None,
        product: opinion_wallet::Product::Opinion,
        created_at: expires_at - Duration::hours(8),
        expires_at,
        ended_at: None,
    }
}

fn text(event: &crate::model::NewEvent, key: &str) -> Option<String> {
    event.data.get(key).and_then(|v| v.as_str()).map(str::to_owned)
}

#[tokio::test]
async fn a_logout_ends_the_session_with_its_event_in_one_step() {
    let mut mocks = TradingMocks::new();
    let id = player().session_id;
    mocks
        .players
        .expect_end_player_session()
        .times(1)
        .withf(move |ending| {
            ending.session_id == id
                && ending.operator_id == OPERATOR
                && ending.end == SessionEnd::LoggedOut
                && ending.at == NOW
                && ending.now == NOW
                && ending.event.event_type == EventType::LogoutRequested
                && ending.event.created_at == NOW
                && text(&ending.event, "externalUserId").as_deref() == Some("player-7")
                && text(&ending.event, "playerSessionId") == Some(id.to_string())
                && text(&ending.event, "loggedOutAt").as_deref() == Some("2026-11-22T12:00:00Z")
        })
        .returning(|_| Ok(true));
    mocks.build_players().log_out(&player()).await.expect("logged out");
}

#[tokio::test]
async fn a_session_that_ended_meanwhile_cannot_log_out() {
    let mut mocks = TradingMocks::new();
    mocks.players.expect_end_player_session().returning(|_| Ok(false));
    let error = mocks.build_players().log_out(&player()).await.expect_err("refused");
    assert!(
        matches!(error, AppError::Unauthenticated(AuthFailure::SessionEnded)),
        "{error:?}"
    );
}

#[tokio::test]
async fn the_sweep_ends_each_expired_session_once_with_an_event_dated_at_its_expiry() {
    let mut mocks = TradingMocks::new();
    let first = NOW - Duration::minutes(10);
    let second = NOW - Duration::seconds(1);
    mocks
        .players
        .expect_expired_player_sessions()
        .times(1)
        .withf(|now, limit| *now == NOW && *limit == 100)
        .returning(move |_, _| {
            Ok(vec![
                (session(1, first), player().user),
                (session(2, second), player().user),
            ])
        });
    mocks
        .players
        .expect_end_player_session()
        .times(2)
        .withf(|ending| {
            ending.end == SessionEnd::Expired
                && ending.now == NOW
                && ending.event.event_type == EventType::SessionExpired
                && ending.event.created_at == ending.at
                && text(&ending.event, "playerSessionId") == Some(ending.session_id.to_string())
                && text(&ending.event, "externalUserId").as_deref() == Some("player-7")
        })
        // The second was ended by another instance first: it is skipped, not counted.
        .returning(move |ending| Ok(ending.at == first));
    let ended = mocks.build_players().end_expired_sessions(100).await.expect("swept");
    assert_eq!(ended, 1);
}

#[tokio::test]
async fn the_expiry_event_names_the_expiry_time() {
    let mut mocks = TradingMocks::new();
    let expiry = NOW - Duration::minutes(3);
    mocks
        .players
        .expect_expired_player_sessions()
        .returning(move |_, _| Ok(vec![(session(1, expiry), player().user)]));
    mocks
        .players
        .expect_end_player_session()
        .times(1)
        .withf(move |ending| {
            ending.at == expiry && text(&ending.event, "expiredAt").as_deref() == Some("2026-11-22T11:57:00Z")
        })
        .returning(|_| Ok(true));
    assert_eq!(mocks.build_players().end_expired_sessions(10).await.ok(), Some(1));
}
