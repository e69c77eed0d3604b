//! Market visibility: the per-market choice and the mode, each written over the revision
//! it was computed from with its events in the same transaction, a stale write refused
//! with nothing of it written, and another operator untouched.

use diesel::sql_types::BigInt;
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::NewEvent;
use opinion_app::opinion::ports::{MarketStore, VisibilitySettings, VisibilityWrite};
use opinion_app::opinion::reads::ports::OperatorReadStore;
use opinion_app::ports::{ChangedRecord, StoreError};
use opinion_core::{EventId, MarketId};
use opinion_market::{MarketChoice, VisibilityMode};
use opinion_webhook::EventType;
use serde_json::json;

use crate::fixtures::*;
use crate::opinion::trading::fixtures::*;

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

async fn events(url: &str, operator: u128) -> i64 {
    let mut conn = AsyncPgConnection::establish(url).await.expect("connect");
    let rows: Vec<Count> = sql_query(format!(
        "SELECT count(*) AS count FROM webhook_events WHERE operator_id = '{}' AND event_type = '{}'",
        uuid::Uuid::from_u128(operator),
        EventType::MarketVisibilityChanged.as_str()
    ))
    .load(&mut conn)
    .await
    .expect("count");
    rows[0].count
}

fn event(n: u128, operator: u128, seconds: i64) -> NewEvent {
    NewEvent::new(
        EventId::from_u128(n),
        operator_id(operator),
        EventType::MarketVisibilityChanged,
        json!({"visible": false}),
        at(seconds),
    )
}

fn write(expected_revision: i64, mode: VisibilityMode, seconds: i64, events: Vec<NewEvent>) -> VisibilityWrite {
    VisibilityWrite {
        expected_revision,
        mode,
        at: at(seconds),
        events,
    }
}

#[tokio::test]
async fn a_choice_moves_the_revision_on_with_its_event_and_leaves_other_operators_alone() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    seeder(&db).await.market(&market(1)).await;
    let id = MarketId::from_u128(market_id(1));
    assert_eq!(
        store.visibility_settings(operator_id(1)).await.expect("settings"),
        VisibilitySettings::default(),
        "no row: the default mode at revision 0"
    );

    let hidden = store
        .set_market_choice(
            operator_id(1),
            id,
            MarketChoice::Hidden,
            &write(0, VisibilityMode::Blocklist, 10, vec![event(1, 1, 10)]),
        )
        .await
        .expect("hide")
        .expect("market exists");
    assert_eq!(hidden.choice, MarketChoice::Hidden);
    assert!(hidden.hidden());
    assert_eq!(events(db.url(), 1).await, 1);
    let settings = store.visibility_settings(operator_id(1)).await.expect("settings");
    assert_eq!((settings.mode, settings.revision), (VisibilityMode::Blocklist, 1));
    assert_eq!(settings.updated_at, Some(at(10)));

    let theirs = OperatorReadStore::find_market(&store, operator_id(2), id)
        .await
        .expect("find")
        .expect("shared");
    assert!(!theirs.hidden(), "another operator's players still see it");
    assert_eq!(events(db.url(), 2).await, 0);

    let shown = store
        .set_market_choice(
            operator_id(1),
            id,
            MarketChoice::Shown,
            &write(1, VisibilityMode::Blocklist, 20, vec![event(2, 1, 20)]),
        )
        .await
        .expect("show")
        .expect("market exists");
    assert!(!shown.hidden());
    assert_eq!(events(db.url(), 1).await, 2);
}

#[tokio::test]
async fn a_write_over_a_stale_revision_is_refused_and_writes_nothing() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    seeder(&db).await.market(&market(1)).await;
    let id = MarketId::from_u128(market_id(1));
    store
        .set_visibility_mode(
            operator_id(1),
            &write(0, VisibilityMode::Allowlist, 10, vec![event(1, 1, 10)]),
        )
        .await
        .expect("first mode");
    let stale = store
        .set_market_choice(
            operator_id(1),
            id,
            MarketChoice::Shown,
            &write(0, VisibilityMode::Blocklist, 20, vec![event(2, 1, 20)]),
        )
        .await;
    assert!(
        matches!(stale, Err(StoreError::Conflict(ChangedRecord::Visibility))),
        "{stale:?}"
    );
    let stale_mode = store
        .set_visibility_mode(
            operator_id(1),
            &write(0, VisibilityMode::All, 20, vec![event(3, 1, 20)]),
        )
        .await;
    assert!(
        matches!(stale_mode, Err(StoreError::Conflict(ChangedRecord::Visibility))),
        "{stale_mode:?}"
    );
    assert_eq!(events(db.url(), 1).await, 1, "only the first write's event");
    let market = OperatorReadStore::find_market(&store, operator_id(1), id)
        .await
        .expect("find")
        .expect("market");
    assert_eq!(market.choice, MarketChoice::Unset, "the refused choice left nothing");
    assert_eq!(market.mode, VisibilityMode::Allowlist);
    assert!(market.hidden(), "allowlist hides an untouched market");
}

#[tokio::test]
async fn choices_list_the_markets_not_yet_resolved_with_unset_for_untouched_ones() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    let mut seed = seeder(&db).await;
    seed.market(&market(1)).await;
    seed.market(&market(2)).await;
    let mut resolved = market(3);
    resolved.status = "resolved";
    resolved.resolution = Some("yes");
    seed.market(&resolved).await;
    seed.pool(&pool(1, 2, 0, 0, true)).await;
    let choices = store.market_choices(operator_id(1)).await.expect("choices");
    assert_eq!(
        choices,
        [
            (MarketId::from_u128(market_id(1)), MarketChoice::Unset),
            (MarketId::from_u128(market_id(2)), MarketChoice::Hidden),
        ]
    );
}

#[tokio::test]
async fn an_unknown_market_is_none_and_moves_nothing() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    let unknown = store
        .set_market_choice(
            operator_id(1),
            MarketId::from_u128(market_id(9)),
            MarketChoice::Hidden,
            &write(0, VisibilityMode::Blocklist, 10, vec![event(1, 1, 10)]),
        )
        .await
        .expect("answer");
    assert!(unknown.is_none());
    assert_eq!(events(db.url(), 1).await, 0);
    assert_eq!(
        store
            .visibility_settings(operator_id(1))
            .await
            .expect("settings")
            .revision,
        0
    );
}
