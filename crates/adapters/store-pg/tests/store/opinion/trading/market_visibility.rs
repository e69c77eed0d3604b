//! Hiding and showing markets: the pool row, the outbox event in the same transaction,
//! no event when nothing changes, and another operator's visibility untouched.

use diesel::sql_types::BigInt;
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::NewEvent;
use opinion_app::opinion::ports::MarketStore;
use opinion_app::opinion::reads::ports::OperatorReadStore;
use opinion_core::{EventId, MarketId};
use opinion_webhook::EventType;
use serde_json::{Map, Value};

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
        "SELECT count(*) AS count FROM webhook_events WHERE operator_id = '{}' AND event_type = 'mini_app.market.visibility_changed'",
        uuid::Uuid::from_u128(operator)
    ))
    .load(&mut conn)
    .await
    .expect("count");
    rows[0].count
}

fn event(n: u128, operator: u128, seconds: i64) -> NewEvent {
    let mut data = Map::new();
    data.insert("visible".into(), Value::Bool(false));
    NewEvent {
        id: EventId::from_u128(n),
        operator_id: operator_id(operator),
        event_type: EventType::MarketVisibilityChanged,
        data,
        created_at: at(seconds),
    }
}

#[tokio::test]
async fn hiding_writes_one_event_and_repeating_it_writes_none() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    seeder(&db).await.market(&market(1)).await;
    let id = MarketId::from_u128(market_id(1));

    let hidden = store
        .set_market_visibility(operator_id(1), id, true, &event(1, 1, 10))
        .await
        .expect("hide")
        .expect("market exists");
    assert!(hidden.changed && hidden.market.hidden);
    assert_eq!(events(db.url(), 1).await, 1);

    let again = store
        .set_market_visibility(operator_id(1), id, true, &event(2, 1, 20))
        .await
        .expect("hide again")
        .expect("market exists");
    assert!(!again.changed && again.market.hidden);
    assert_eq!(events(db.url(), 1).await, 1);

    let theirs = OperatorReadStore::find_market(&store, operator_id(2), id)
        .await
        .expect("find")
        .expect("shared");
    assert!(!theirs.hidden, "another operator's players still see it");
    assert_eq!(events(db.url(), 2).await, 0);

    let shown = store
        .set_market_visibility(operator_id(1), id, false, &event(3, 1, 30))
        .await
        .expect("show")
        .expect("market exists");
    assert!(shown.changed && !shown.market.hidden);
    assert_eq!(events(db.url(), 1).await, 2);
}

#[tokio::test]
async fn showing_an_untouched_market_changes_nothing_and_unknown_markets_are_none() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    seeder(&db).await.market(&market(1)).await;
    let shown = store
        .set_market_visibility(
            operator_id(1),
            MarketId::from_u128(market_id(1)),
            false,
            &event(1, 1, 10),
        )
        .await
        .expect("show")
        .expect("market exists");
    assert!(!shown.changed && !shown.market.hidden);
    assert_eq!(events(db.url(), 1).await, 0);
    let unknown = store
        .set_market_visibility(
            operator_id(1),
            MarketId::from_u128(market_id(9)),
            true,
            &event(2, 1, 10),
        )
        .await
        .expect("answer");
    assert!(unknown.is_none());
    assert_eq!(events(db.url(), 1).await, 0);
}
