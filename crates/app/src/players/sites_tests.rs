//! Serving on launch hosts over mocked ports: on an operator's launch host only its own
//! launch tokens and sessions work (a refused token stays unused), and the public host
//! serves everyone without a lookup.

use opinion_core::{LaunchId, OperatorId, PlayerSessionId};
use opinion_launch::FrameOrigins;
use time::Duration;

use crate::access::AuthFailure;
use crate::error::AppError;
use crate::model::{LaunchSite, PlayerSession};
use crate::players::Players;
use crate::test_support::trading::*;
use crate::test_support::{NOW, OPERATOR};

const OTHER: OperatorId = OperatorId::from_u128(2);

/// Players whose store says `play.casino.example` belongs to `owner`.
fn players_where_the_host_belongs_to(owner: OperatorId, mut mocks: TradingMocks) -> Players {
    mocks.launch_settings.expect_find_launch_site().returning(move |host| {
        Ok((host.as_str() == "play.casino.example").then(|| LaunchSite {
            operator_id: owner,
            frame_origins: FrameOrigins::default(),
        }))
    });
    mocks.build_players()
}

fn session(operator: OperatorId, id: PlayerSessionId) -> PlayerSession {
    PlayerSession {
        id,
        operator_id: operator,
        user_id: player().user.id,
        launch_id: LaunchId::from_u128(1),
        locale: None,
        product: opinion_wallet::Product::Opinion,
        created_at: NOW,
        expires_at: NOW + Duration::hours(1),
        ended_at: None,
    }
}

#[tokio::test]
async fn another_operators_launch_token_is_refused_on_a_launch_host_and_stays_unused() {
    let mut mocks = TradingMocks::new();
    mocks.players.expect_open_player_session().never();
    let players = players_where_the_host_belongs_to(OTHER, mocks);
    let token = players
        .settings
        .tokens
        .launch_token(OPERATOR, LaunchId::from_u128(1), NOW, NOW + Duration::minutes(1))
        .expect("token");
    for host in ["play.casino.example", "PLAY.casino.example:443"] {
        assert!(
            matches!(
                players.open_player_session(&token, Some(host)).await,
                Err(AppError::Unauthenticated(AuthFailure::ForeignLaunchHost))
            ),
            "{host}"
        );
    }
}

#[tokio::test]
async fn another_operators_session_is_refused_on_a_launch_host_and_its_own_works() {
    for (owner, works) in [(OTHER, false), (OPERATOR, true)] {
        let mut mocks = TradingMocks::new();
        mocks
            .players
            .expect_find_player_session()
            .times(usize::from(works))
            .returning(|operator, id| Ok(Some((session(operator, id), player().user))));
        let players = players_where_the_host_belongs_to(owner, mocks);
        let token = players
            .settings
            .tokens
            .session_token(OPERATOR, PlayerSessionId::from_u128(5), NOW, NOW + Duration::hours(1))
            .expect("token");
        let authenticated = players.authenticate_player(&token, Some("play.casino.example")).await;
        assert_eq!(authenticated.is_ok(), works, "{authenticated:?}");
        if !works {
            assert!(matches!(
                authenticated,
                Err(AppError::Unauthenticated(AuthFailure::ForeignLaunchHost))
            ));
        }
    }
}

#[tokio::test]
async fn the_public_host_and_hosts_that_are_no_launch_host_serve_every_operator() {
    let mut mocks = TradingMocks::new();
    mocks
        .launch_settings
        .expect_find_launch_site()
        .withf(|host| host.as_str() == "unknown.example")
        .times(1)
        .returning(|_| Ok(None));
    mocks
        .players
        .expect_find_player_session()
        .returning(|operator, id| Ok(Some((session(operator, id), player().user))));
    let players = mocks.build_players();
    let token = players
        .settings
        .tokens
        .session_token(OPERATOR, PlayerSessionId::from_u128(5), NOW, NOW + Duration::hours(1))
        .expect("token");
    for host in [
        None,
        Some("opinion.example"),
        Some("127.0.0.1:8080"),
        Some("unknown.example"),
    ] {
        assert!(players.authenticate_player(&token, host).await.is_ok(), "{host:?}");
    }
    assert_eq!(
        players.site_for_host(Some("opinion.example:443")).await.expect("site"),
        None
    );
}
