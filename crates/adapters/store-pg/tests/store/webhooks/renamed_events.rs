//! The migrations of the event namespace and of dead letters carry a database made by an
//! earlier build over: reverted, the rows hold the earlier names and statuses; migrated
//! again, they are read under the new ones.

use diesel::sql_types::{BigInt, Text};
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use opinion_app::model::DeliveryFilter;
use opinion_app::webhooks::store::WebhookStore;
use opinion_core::{PageRequest, WebhookEndpointId};
use opinion_webhook::{DeliveryStatus, EventType};

use super::{commit_events, endpoint, event};
use crate::fixtures::*;

const EVENTS_UP: &str = include_str!("../../../../../../migrations/2026-11-22-000011_mini_app_events/up.sql");
const EVENTS_DOWN: &str = include_str!("../../../../../../migrations/2026-11-22-000011_mini_app_events/down.sql");
const SETTINGS_UP: &str =
    include_str!("../../../../../../migrations/2026-11-22-000012_endpoint_delivery_settings/up.sql");
const SETTINGS_DOWN: &str =
    include_str!("../../../../../../migrations/2026-11-22-000012_endpoint_delivery_settings/down.sql");

#[derive(QueryableByName)]
struct Name {
    #[diesel(sql_type = Text)]
    name: String,
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

async fn names(conn: &mut AsyncPgConnection, query: &str) -> Vec<String> {
    let rows: Vec<Name> = sql_query(query).load(conn).await.expect("query");
    rows.into_iter().map(|row| row.name).collect()
}

/// Runs a migration script in one transaction, as the migration harness does.
async fn run(conn: &mut AsyncPgConnection, script: &str) {
    conn.batch_execute(&format!("BEGIN;\n{script}\nCOMMIT;"))
        .await
        .expect("script");
}

#[tokio::test]
async fn rows_written_under_the_earlier_names_are_read_under_the_new_ones() {
    let (db, store) = keyed_store().await;
    given_operator(&store, 1).await;
    let carrier = endpoint(1, 12, &[EventType::MarketResolved]);
    store.insert_endpoint(&carrier).await.expect("insert");
    store
        .insert_endpoint(&endpoint(
            1,
            10,
            &[EventType::TradeProcessed, EventType::LoginSucceeded],
        ))
        .await
        .expect("insert");
    commit_events(&store, &carrier, vec![event(1, 100, EventType::TradeProcessed)]).await;

    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    run(&mut conn, SETTINGS_DOWN).await;
    run(&mut conn, EVENTS_DOWN).await;
    let old_events = names(&mut conn, "SELECT event_type AS name FROM webhook_events").await;
    assert_eq!(old_events, ["trade.executed"]);
    let old_types = names(
        &mut conn,
        "SELECT unnest(event_types) AS name FROM webhook_endpoints WHERE id = '00000000-0000-0000-0000-00000000000a' ORDER BY 1",
    )
    .await;
    assert_eq!(old_types, ["trade.executed", "user.launched"]);
    // An earlier build gave up on a delivery after its twelve attempts: `failed`.
    conn.batch_execute(
        "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, \
         scheduled_attempts = 12, attempt_count = 12",
    )
    .await
    .expect("exhaust");

    run(&mut conn, EVENTS_UP).await;
    run(&mut conn, SETTINGS_UP).await;
    let found = store
        .find_endpoint(operator_id(1), WebhookEndpointId::from_u128(10))
        .await
        .expect("find")
        .expect("readable");
    assert_eq!(
        found.subscription.types().collect::<Vec<_>>(),
        [EventType::LoginSucceeded, EventType::TradeProcessed]
    );
    assert_eq!((found.max_attempts.get(), found.timeout.secs()), (12, 15));
    let log = store
        .list_deliveries(operator_id(1), &DeliveryFilter::default(), PageRequest::default())
        .await
        .expect("readable");
    assert_eq!(log.items.len(), 1);
    assert_eq!(log.items[0].event_type, EventType::TradeProcessed);
    assert_eq!(log.items[0].status, DeliveryStatus::DeadLetter, "it was exhausted");
    let unnamed: Vec<Count> =
        sql_query("SELECT count(*) AS count FROM webhook_events WHERE event_type NOT LIKE 'mini\\_app.%'")
            .load(&mut conn)
            .await
            .expect("count");
    assert_eq!(unnamed[0].count, 0);
}
