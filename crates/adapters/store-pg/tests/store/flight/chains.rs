//! Seed chains (the terminal seed sealed at rest) and flights (one unfinished at a time,
//! numbers unique in their chain).

use opinion_app::flight::ports::{FlightChange, FlightStore, FlightUpdate};
use opinion_app::ports::StoreError;
use opinion_core::FlightId;
use opinion_flight::{FlightPhase, seed_of_flight};
use opinion_store_pg::DataKey;

use super::*;

/// The flight crashed at its crash instant, its seed revealed.
pub fn crashed(flight: &FlightRecord) -> FlightRecord {
    let mut crashed = flight.clone();
    crashed.phase = FlightPhase::Crashed;
    crashed.revealed_seed = Some(seed_of_flight(&terminal(), flight.chain_length, flight.number).expect("seed"));
    crashed.crashed_at = Some(flight.crash_at);
    crashed
}

async fn crash(store: &PgStore, flight: &FlightRecord) -> FlightRecord {
    let after = crashed(flight);
    let change = FlightChange {
        flight: Some(FlightUpdate {
            expected: flight.phase,
            flight: after.clone(),
        }),
        ..FlightChange::default()
    };
    assert!(store.apply_flight_change(&change).await.expect("crash"));
    after
}

#[tokio::test]
async fn a_chain_keeps_its_terminal_seed_sealed_and_opens_it_with_the_data_key() {
    let (db, store) = flight_store().await;
    assert_eq!(store.current_chain().await.expect("none yet"), None);

    store.create_chain(&chain(), &terminal()).await.expect("create");

    assert_eq!(store.current_chain().await.expect("chain"), Some((chain(), None)));
    assert_eq!(store.chains(10).await.expect("chains"), vec![chain()]);
    assert_eq!(store.terminal_seed(CHAIN).await.expect("unsealed"), terminal());
    let clear_hex = terminal().to_hex();
    let sealed_apart = count(
        &db,
        &format!(
            "SELECT count(*) AS count FROM flight_chains WHERE terminal_seed_sealed LIKE 'v2.%' \
             AND position('{clear_hex}' in terminal_seed_sealed) = 0 \
             AND position(encode(decode('{clear_hex}', 'hex'), 'base64') in terminal_seed_sealed) = 0"
        ),
    )
    .await;
    assert_eq!(
        sealed_apart, 1,
        "the stored value is sealed, neither the seed nor its encodings"
    );

    let other_key = opinion_store_pg::PgStore::connect(db.url(), 1)
        .await
        .expect("connect")
        .with_data_key(DataKey::derive(&[9; 32]).expect("key"));
    assert!(matches!(
        other_key.terminal_seed(CHAIN).await,
        Err(StoreError::Unavailable(_))
    ));
    let no_key = opinion_store_pg::PgStore::connect(db.url(), 1).await.expect("connect");
    assert!(matches!(
        no_key.terminal_seed(CHAIN).await,
        Err(StoreError::Unavailable(_))
    ));
    assert!(matches!(
        no_key.create_chain(&chain(), &terminal()).await,
        Err(StoreError::Unavailable(_))
    ));
}

#[tokio::test]
async fn only_one_flight_is_unfinished_and_a_number_is_played_once() {
    let (_db, store) = flight_store().await;
    let first = given_flight(&store, 1).await;

    assert!(
        !store.open_flight(&flight(2)).await.expect("refused"),
        "flight 1 is unfinished"
    );
    let first = crash(&store, &first).await;
    let mut again = flight(1);
    again.id = FlightId::from_u128(99);
    assert!(!store.open_flight(&again).await.expect("refused"), "number 1 is taken");
    assert!(store.open_flight(&flight(2)).await.expect("opened"));

    assert_eq!(store.find_flight(first.id).await.expect("find"), Some(first.clone()));
    assert_eq!(store.latest_flight().await.expect("latest"), Some(flight(2)));
    assert_eq!(store.current_chain().await.expect("chain"), Some((chain(), Some(2))));
    assert_eq!(store.find_flight(again.id).await.expect("find"), None);
}

#[tokio::test]
async fn flights_page_newest_first() {
    let (_db, store) = flight_store().await;
    let mut played = Vec::new();
    for number in 1..=3 {
        let flight = given_flight(&store, number).await;
        played.push(crash(&store, &flight).await);
    }

    let page = store.flights(None, 2).await.expect("page");
    assert_eq!(page, vec![played[2].clone(), played[1].clone()]);
    let last = &page[1];
    let next = store.flights(Some((last.boarding_at, last.id)), 2).await.expect("next");
    assert_eq!(next, vec![played[0].clone()]);
}
