//! The outbox adds the operator's launch metadata to the events about a player: a session
//! event carries its own session's launch's object, a trade or payout event the player's
//! most recent session's, `null` when that launch had none, and an event about no single
//! player carries no `metadata` at all.

use diesel::sql_types::{Jsonb, Uuid as SqlUuid};
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::{Launch, NewEvent, User};
use opinion_app::players::ports::PlayerStore;
use opinion_app::webhooks::store::WebhookStore;
use opinion_core::{EventId, LaunchId, PlayerSessionId, UserId};
use opinion_launch::LaunchMetadata;
use opinion_store_pg::PgStore;
use opinion_webhook::EventType;
use serde_json::{Value, json};

use super::{commit_events, endpoint};
use crate::fixtures::*;

#[derive(QueryableByName)]
struct StoredData {
    #[diesel(sql_type = Jsonb)]
    data: Value,
}

/// The `data` of event `n` as stored in the outbox.
async fn stored_data(url: &str, n: u128) -> Value {
    let mut conn = AsyncPgConnection::establish(url).await.expect("connect");
    let rows: Vec<StoredData> = sql_query("SELECT data FROM webhook_events WHERE id = $1")
        .bind::<SqlUuid, _>(uuid::Uuid::from_u128(n))
        .load(&mut conn)
        .await
        .expect("read");
    rows.into_iter().next().expect("the event").data
}

fn event(n: u128, event_type: EventType, data: Value) -> NewEvent {
    NewEvent::new(EventId::from_u128(n), operator_id(1), event_type, data, at(n as i64))
}

/// Player `player-1`'s session `n` opened from launch `n` carrying `metadata`, with a
/// login event `n` about that session.
async fn logged_in(store: &PgStore, n: u128, metadata: Option<Value>) -> PlayerSessionId {
    let user = User {
        id: UserId::from_u128(7),
        operator_id: operator_id(1),
        external_user_id: "player-1".into(),
        display_name: None,
        language: None,
        created_at: T0,
        last_launched_at: T0,
    };
    let launch = Launch {
        id: LaunchId::from_u128(n),
        operator_id: operator_id(1),
        user_id: user.id,
        return_url: None,
        locale: None,
        metadata: metadata.map(|m| LaunchMetadata::parse(m).expect("metadata")),
        product: opinion_wallet::Product::Opinion,
        created_at: T0,
        expires_at: at(3_600),
    };
    store.record_launch(&user, &launch).await.expect("launch");
    let session = PlayerSessionId::from_u128(n);
    let login = event(
        n,
        EventType::LoginSucceeded,
        json!({"externalUserId": "player-1", "playerSessionId": session}),
    );
    store
        .open_player_session(operator_id(1), launch.id, session, at(1), at(7_200), &login)
        .await
        .expect("open")
        .expect("a session");
    session
}

#[tokio::test]
async fn player_events_carry_their_launchs_metadata_and_other_events_none() {
    let (db, store) = keyed_store().await;
    given_operator(&store, 1).await;
    let carrier = endpoint(1, 12, &[EventType::MarketResolved]);
    store.insert_endpoint(&carrier).await.expect("insert");
    let first = logged_in(&store, 10, Some(json!({"campaign": "a"}))).await;
    assert_eq!(stored_data(db.url(), 10).await["metadata"], json!({"campaign": "a"}));
    logged_in(&store, 11, Some(json!({"campaign": "b"}))).await;
    assert_eq!(stored_data(db.url(), 11).await["metadata"], json!({"campaign": "b"}));

    commit_events(
        &store,
        &carrier,
        vec![
            event(
                20,
                EventType::LogoutRequested,
                json!({"externalUserId": "player-1", "playerSessionId": first}),
            ),
            event(21, EventType::TradeProcessed, json!({"externalUserId": "player-1"})),
            event(22, EventType::RedemptionProcessed, json!({"externalUserId": "nobody"})),
            event(23, EventType::MarketResolved, json!({"marketId": "mkt_x"})),
        ],
    )
    .await;
    assert_eq!(
        stored_data(db.url(), 20).await["metadata"],
        json!({"campaign": "a"}),
        "a session event echoes its own session's launch, not the latest"
    );
    assert_eq!(
        stored_data(db.url(), 21).await["metadata"],
        json!({"campaign": "b"}),
        "a trade echoes the player's most recent session's launch"
    );
    let unknown = stored_data(db.url(), 22).await;
    assert!(unknown.get("metadata").is_some_and(Value::is_null), "{unknown}");
    let market = stored_data(db.url(), 23).await;
    assert!(market.get("metadata").is_none(), "{market}");

    logged_in(&store, 12, None).await;
    let plain = stored_data(db.url(), 12).await;
    assert!(plain.get("metadata").is_some_and(Value::is_null), "{plain}");
}
