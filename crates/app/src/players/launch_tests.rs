//! Launch and player session rules over mocked ports: the player and its launch are
//! stored in one step with no event (a launch URL is not a login), the token opens one
//! session once with `mini_app.login.succeeded` in the same step, a session token
//! authenticates only while its row is live, a launch URL uses a host only if it is one
//! of the operator's, and bad input stores nothing.

use opinion_access::Grant;
use opinion_core::{LaunchId, PlayerSessionId};
use opinion_launch::{FrameOrigins, LaunchHosts};
use opinion_webhook::EventType;
use serde_json::json;
use time::Duration;

use crate::access::AuthFailure;
use crate::error::{AppError, ProblemCode};
use crate::model::{Launch, LaunchSettings, PlayerSession};
use crate::players::LaunchRequest;
use crate::test_support::trading::*;
use crate::test_support::{NOW, OPERATOR, api_key_caller};

fn request(external_user_id: &str) -> LaunchRequest {
    LaunchRequest {
        external_user_id: external_user_id.into(),
        display_name: Some("Ana".into()),
        language: Some("pt-BR".into()),
        return_url: Some("https://casino.example/lobby".into()),
        ..LaunchRequest::default()
    }
}

fn stored_launch(id: LaunchId) -> Launch {
    Launch {
        id,
        operator_id: OPERATOR,
        user_id: player().user.id,
        return_url: None,
        locale: None,
        metadata: None,
        product: opinion_wallet::Product::Opinion,
        created_at: NOW,
        expires_at: NOW + Duration::minutes(5),
    }
}

#[tokio::test]
async fn a_launch_stores_the_player_and_its_launch_and_its_token_logs_the_player_in_once() {
    let mut mocks = TradingMocks::new();
    mocks
        .players
        .expect_record_launch()
        .times(1)
        .withf(|user, launch| {
            user.external_user_id == "player-7"
                && launch.user_id == user.id
                && launch.expires_at == NOW + Duration::minutes(5)
        })
        .returning(|user, _| Ok(user.clone()));
    mocks
        .players
        .expect_find_launch()
        .times(1)
        .returning(|_, launch| Ok(Some((stored_launch(launch), player().user))));
    mocks
        .players
        .expect_open_player_session()
        .times(1)
        .withf(|operator, launch, id, at, expires_at, event| {
            let data = |key: &str| event.data.get(key).and_then(|v| v.as_str()).map(str::to_owned);
            *operator == OPERATOR
                && *at == NOW
                && *expires_at == NOW + Duration::hours(8)
                && event.event_type == EventType::LoginSucceeded
                && event.operator_id == OPERATOR
                && event.created_at == NOW
                && data("externalUserId").as_deref() == Some("player-7")
                && data("playerSessionId") == Some(id.to_string())
                && data("launchId") == Some(launch.to_string())
                && data("loggedInAt").as_deref() == Some("2026-11-22T12:00:00Z")
                && data("expiresAt").as_deref() == Some("2026-11-22T20:00:00Z")
        })
        .returning(|operator, launch, id, at, expires_at, _| {
            let session = PlayerSession {
                id,
                operator_id: operator,
                user_id: player().user.id,
                launch_id: launch,
                locale: None,
                product: opinion_wallet::Product::Opinion,
                created_at: at,
                expires_at,
                ended_at: None,
            };
            Ok(Some((session, player().user)))
        });
    let players = mocks.build_players();
    let launched = players
        .launch(&api_key_caller(Grant::All), request("player-7"))
        .await
        .expect("launched");
    assert!(launched.launch_url.starts_with("https://opinion.example/play#launch="));
    assert!(launched.launch_url.ends_with(&launched.launch_token));
    let opened = players
        .open_player_session(&launched.launch_token, None)
        .await
        .expect("session");
    assert_eq!(opened.session.expires_at, NOW + Duration::hours(8));
    assert_eq!(opened.session.operator_id, OPERATOR);
}

#[tokio::test]
async fn bad_launches_store_nothing() {
    let cases: Vec<(LaunchRequest, &str)> = vec![
        (request(""), "externalUserId"),
        (request(" padded "), "externalUserId"),
        (
            LaunchRequest {
                language: Some("english".into()),
                ..request("p")
            },
            "language",
        ),
        (
            LaunchRequest {
                return_url: Some("javascript:alert(1)".into()),
                ..request("p")
            },
            "returnUrl",
        ),
        (
            LaunchRequest {
                display_name: Some(" ".into()),
                ..request("p")
            },
            "displayName",
        ),
        (
            LaunchRequest {
                product: Some("poker".into()),
                ..request("p")
            },
            "product",
        ),
        (
            LaunchRequest {
                locale: Some("pt_BR".into()),
                ..request("p")
            },
            "locale",
        ),
        (
            LaunchRequest {
                metadata: Some(json!(["not", "an", "object"])),
                ..request("p")
            },
            "metadata",
        ),
        (
            LaunchRequest {
                metadata: Some(json!({"note": "x".repeat(4_096)})),
                ..request("p")
            },
            "metadata",
        ),
        (
            LaunchRequest {
                host: Some("https://play.casino.example".into()),
                ..request("p")
            },
            "host",
        ),
    ];
    for (bad, expected) in cases {
        let mut mocks = TradingMocks::new();
        mocks.players.expect_record_launch().never();
        let error = mocks
            .build_players()
            .launch(&api_key_caller(Grant::All), bad)
            .await
            .expect_err("refused");
        assert!(
            matches!(error, AppError::Invalid { field, .. } if field == expected),
            "{error:?}"
        );
    }
    let mut mocks = TradingMocks::new();
    mocks.players.expect_record_launch().never();
    let flight = LaunchRequest {
        product: Some("flight".into()),
        ..request("p")
    };
    let error = mocks
        .build_players()
        .launch(&api_key_caller(Grant::All), flight)
        .await
        .expect_err("refused");
    assert!(matches!(
        error,
        AppError::Conflict {
            code: ProblemCode::ProductNotEnabled,
            ..
        }
    ));
}

#[tokio::test]
async fn a_flight_launch_points_at_the_flight_page_and_an_opinion_launch_at_the_opinion_app() {
    for (product, path) in [(None, "/play#launch="), (Some("flight"), "/play/flight#launch=")] {
        let mut mocks = TradingMocks::new();
        mocks.products = Some(products(true));
        mocks
            .players
            .expect_record_launch()
            .times(1)
            .withf(move |_, launch| {
                launch.product
                    == if product.is_some() {
                        opinion_wallet::Product::Flight
                    } else {
                        opinion_wallet::Product::Opinion
                    }
            })
            .returning(|user, _| Ok(user.clone()));
        let launch = LaunchRequest {
            product: product.map(str::to_owned),
            ..request("p")
        };
        let launched = mocks
            .build_players()
            .launch(&api_key_caller(Grant::All), launch)
            .await
            .expect("launched");
        let expected = format!("https://opinion.example{path}{}", launched.launch_token);
        assert_eq!(launched.launch_url, expected);
    }
}

#[tokio::test]
async fn a_used_unknown_or_forged_launch_token_opens_nothing() {
    let mut mocks = TradingMocks::new();
    mocks
        .players
        .expect_find_launch()
        .returning(|_, launch| Ok((launch == LaunchId::from_u128(1)).then(|| (stored_launch(launch), player().user))));
    mocks
        .players
        .expect_open_player_session()
        .times(1)
        .returning(|_, _, _, _, _, _| Ok(None));
    let players = mocks.build_players();
    for launch in [1, 2] {
        let token = players
            .settings
            .tokens
            .launch_token(OPERATOR, LaunchId::from_u128(launch), NOW, NOW + Duration::minutes(5))
            .expect("token");
        assert!(matches!(
            players.open_player_session(&token, None).await,
            Err(AppError::Unauthenticated(AuthFailure::LaunchUsedOrExpired))
        ));
    }
    assert!(matches!(
        players.open_player_session("forged", None).await,
        Err(AppError::Unauthenticated(AuthFailure::InvalidLaunch))
    ));
}

#[tokio::test]
async fn a_session_token_works_only_while_its_session_is_live() {
    let later = NOW + Duration::minutes(1);
    for (expires_at, ended_at, live) in [
        (later, None, true),
        (NOW, None, false),
        (later, Some(NOW - Duration::minutes(1)), false),
    ] {
        let mut mocks = TradingMocks::new();
        mocks
            .players
            .expect_find_player_session()
            .returning(move |operator, id| {
                let session = PlayerSession {
                    id,
                    operator_id: operator,
                    user_id: player().user.id,
                    launch_id: LaunchId::from_u128(1),
                    locale: None,
                    product: opinion_wallet::Product::Opinion,
                    created_at: NOW - Duration::hours(1),
                    expires_at,
                    ended_at,
                };
                Ok(Some((session, player().user)))
            });
        let players = mocks.build_players();
        let token = players
            .settings
            .tokens
            .session_token(OPERATOR, PlayerSessionId::from_u128(5), NOW, expires_at)
            .expect("token");
        let authenticated = players.authenticate_player(&token, None).await;
        assert_eq!(authenticated.is_ok(), live, "{authenticated:?}");
        let launch = players
            .settings
            .tokens
            .launch_token(OPERATOR, LaunchId::from_u128(1), NOW, expires_at)
            .expect("token");
        assert!(
            players.authenticate_player(&launch, None).await.is_err(),
            "a launch token is no session"
        );
    }
}

#[tokio::test]
async fn a_session_authenticates_for_the_product_it_was_launched_into_only() {
    use opinion_wallet::Product;
    for (launched, asked, accepted) in [
        (Product::Opinion, Product::Opinion, true),
        (Product::Flight, Product::Flight, true),
        (Product::Opinion, Product::Flight, false),
        (Product::Flight, Product::Opinion, false),
    ] {
        let mut mocks = TradingMocks::new();
        mocks
            .players
            .expect_find_player_session()
            .returning(move |operator, id| {
                let session = PlayerSession {
                    id,
                    operator_id: operator,
                    user_id: player().user.id,
                    launch_id: LaunchId::from_u128(1),
                    locale: None,
                    product: launched,
                    created_at: NOW - Duration::hours(1),
                    expires_at: NOW + Duration::hours(1),
                    ended_at: None,
                };
                Ok(Some((session, player().user)))
            });
        let players = mocks.build_players();
        let token = players
            .settings
            .tokens
            .session_token(OPERATOR, PlayerSessionId::from_u128(5), NOW, NOW + Duration::hours(1))
            .expect("token");
        let authenticated = players.authenticate_player_for(&token, None, asked).await;
        if accepted {
            assert!(authenticated.is_ok(), "{launched} for {asked}: {authenticated:?}");
        } else {
            assert!(
                matches!(
                    authenticated,
                    Err(AppError::Conflict {
                        code: ProblemCode::WrongProduct,
                        ..
                    })
                ),
                "{launched} for {asked}: {authenticated:?}"
            );
        }
        assert!(players.authenticate_player(&token, None).await.is_ok(), "any product");
    }
}

/// Settings whose only launch host is `play.casino.example`.
fn casino_settings() -> LaunchSettings {
    LaunchSettings {
        operator_id: OPERATOR,
        hosts: LaunchHosts::parse(&["play.casino.example".to_owned()]).expect("hosts"),
        frame_origins: FrameOrigins::default(),
        updated_at: Some(NOW),
    }
}

#[tokio::test]
async fn a_launch_on_one_of_the_operators_hosts_stores_its_locale_and_metadata() {
    let mut mocks = TradingMocks::new();
    mocks
        .launch_settings
        .expect_find_launch_settings()
        .withf(|operator| *operator == OPERATOR)
        .returning(|_| Ok(Some(casino_settings())));
    mocks.players.expect_record_launch().times(1).returning(|user, launch| {
        assert_eq!(
            launch.locale.as_ref().map(|l| l.as_str()),
            Some("pt-BR"),
            "the locale is stored"
        );
        assert_eq!(
            launch.metadata.as_ref().map(|m| m.to_value()),
            Some(json!({"campaign": "spring"})),
            "the metadata is stored"
        );
        Ok(user.clone())
    });
    let launch = LaunchRequest {
        host: Some("play.casino.example".into()),
        locale: Some("pt-BR".into()),
        metadata: Some(json!({"campaign": "spring"})),
        ..request("player-7")
    };
    let launched = mocks
        .build_players()
        .launch(&api_key_caller(Grant::All), launch)
        .await
        .expect("launched");
    assert!(
        launched
            .launch_url
            .starts_with("https://play.casino.example/play#launch="),
        "{}",
        launched.launch_url
    );
    assert_eq!(launched.locale.map(|l| l.into_string()), Some("pt-BR".into()));
}

#[tokio::test]
async fn a_host_that_is_not_the_operators_is_refused_and_stores_nothing() {
    for settings in [None, Some(casino_settings())] {
        let mut mocks = TradingMocks::new();
        mocks
            .launch_settings
            .expect_find_launch_settings()
            .returning(move |_| Ok(settings.clone()));
        mocks.players.expect_record_launch().never();
        let launch = LaunchRequest {
            host: Some("play.other.example".into()),
            ..request("p")
        };
        let error = mocks
            .build_players()
            .launch(&api_key_caller(Grant::All), launch)
            .await
            .expect_err("refused");
        assert!(
            matches!(&error, AppError::Invalid { field: "host", message } if message.contains("play.other.example")),
            "{error:?}"
        );
    }
}
