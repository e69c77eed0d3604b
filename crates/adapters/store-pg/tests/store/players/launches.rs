//! What a launch stores beyond its player: the locale its session speaks, which the
//! session keeps, and the operator's metadata, read back with the launch.

use opinion_app::model::{Launch, NewEvent, User};
use opinion_app::players::ports::PlayerStore;
use opinion_core::{EventId, LaunchId, PlayerSessionId, UserId};
use opinion_launch::{LaunchMetadata, Locale};
use opinion_webhook::EventType;
use serde_json::{Value, json};

use crate::fixtures::*;

const USER: UserId = UserId::from_u128(60);

fn user() -> User {
    User {
        id: USER,
        operator_id: operator_id(1),
        external_user_id: "player-1".into(),
        display_name: None,
        language: None,
        created_at: T0,
        last_launched_at: T0,
    }
}

fn launch(n: u128, locale: Option<&str>, metadata: Option<Value>) -> Launch {
    Launch {
        id: LaunchId::from_u128(n),
        operator_id: operator_id(1),
        user_id: USER,
        return_url: None,
        locale: locale.map(|l| Locale::parse(l).expect("locale")),
        metadata: metadata.map(|m| LaunchMetadata::parse(m).expect("metadata")),
        product: opinion_wallet::Product::Opinion,
        created_at: T0,
        expires_at: at(60),
    }
}

fn event(n: u128) -> NewEvent {
    NewEvent::new(
        EventId::from_u128(n),
        operator_id(1),
        EventType::LoginSucceeded,
        json!({}),
        T0,
    )
}

#[tokio::test]
async fn a_session_speaks_its_launchs_locale_and_the_launch_keeps_the_metadata() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    let metadata = json!({"campaign": "spring", "ids": [1, 2]});
    store
        .record_launch(&user(), &launch(1, Some("pt-BR"), Some(metadata.clone())))
        .await
        .expect("launch");
    store
        .record_launch(&user(), &launch(2, None, None))
        .await
        .expect("launch");

    let session = PlayerSessionId::from_u128(9);
    let (opened, _) = store
        .open_player_session(
            operator_id(1),
            LaunchId::from_u128(1),
            session,
            at(1),
            at(3_600),
            &event(1),
        )
        .await
        .expect("open")
        .expect("a session");
    assert_eq!(opened.locale.as_ref().map(Locale::as_str), Some("pt-BR"));
    let (found, _) = store
        .find_player_session(operator_id(1), session)
        .await
        .expect("find")
        .expect("the session");
    assert_eq!(found, opened);
    let (plain, _) = store
        .open_player_session(
            operator_id(1),
            LaunchId::from_u128(2),
            PlayerSessionId::from_u128(10),
            at(1),
            at(3_600),
            &event(2),
        )
        .await
        .expect("open")
        .expect("a session");
    assert_eq!(plain.locale, None);

    let (stored, _) = store
        .find_launch(operator_id(1), LaunchId::from_u128(1))
        .await
        .expect("find")
        .expect("the launch");
    assert_eq!(stored.metadata.map(|m| m.to_value()), Some(metadata));
    assert_eq!(stored.locale.as_ref().map(Locale::as_str), Some("pt-BR"));
    let (plain, _) = store
        .find_launch(operator_id(1), LaunchId::from_u128(2))
        .await
        .expect("find")
        .expect("the launch");
    assert_eq!((plain.locale, plain.metadata), (None, None));
}
