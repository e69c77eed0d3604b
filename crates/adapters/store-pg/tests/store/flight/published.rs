//! What players and the public read of the game against a real database: crashed flights
//! only when asked, and the seed chains newest first across pages with the numbers of
//! their first and last flights (none before a chain's first flight).

use opinion_app::flight::reads::ports::{FlightFilter, FlightReadStore};
use opinion_core::{FlightChainId, IdKind, PageLimit, PageRequest};
use opinion_flight::FlightPhase;
use opinion_testkit::{ChainSeed, FlightSeed, Seeder, ulid_at};

use crate::fixtures::*;
use crate::opinion::trading::fixtures::*;

fn page<K: IdKind>(limit: u32) -> PageRequest<K> {
    PageRequest {
        limit: PageLimit::new(limit).expect("limit"),
        after: None,
    }
}

/// Chain `n`, created `n` hours after `T0`.
fn chain_bits(n: u16) -> u128 {
    ulid_at(at(i64::from(n) * 3_600), n)
}

/// Flight `number` of chain `chain`, boarding `number` minutes after the chain.
fn flight(chain: u16, number: u16, phase: &'static str) -> FlightSeed {
    let boarding_at = at(i64::from(chain) * 3_600 + i64::from(number) * 60);
    FlightSeed {
        id: ulid_at(boarding_at, 100 * chain + number),
        chain: chain_bits(chain),
        number: i32::from(number),
        phase,
        crash_hundredths: 346,
        boarding_at,
        revealed_seed: (phase == "crashed").then(|| format!("{number:064x}")),
    }
}

/// Chain 1 played flights 1 to 3 and is done; chain 2 played 1 (crashed) and 2 (in the
/// air); chain 3 has no flight yet.
async fn given_chains(seed: &mut Seeder) {
    for n in 1..=3 {
        seed.flight_chain(&ChainSeed {
            id: chain_bits(n),
            length: 3,
            salt: format!("salt-{n}"),
            commitment: format!("{n}").repeat(64),
            created_at: at(i64::from(n) * 3_600),
        })
        .await;
    }
    for (chain, number, phase) in [
        (1, 1, "crashed"),
        (1, 2, "cancelled"),
        (1, 3, "crashed"),
        (2, 1, "crashed"),
        (2, 2, "in_flight"),
    ] {
        seed.flight(&flight(chain, number, phase)).await;
    }
}

#[tokio::test]
async fn only_crashed_flights_when_asked_newest_first() {
    let (db, store) = store().await;
    given_chains(&mut seeder(&db).await).await;
    let crashed = FlightFilter {
        phase: Some(FlightPhase::Crashed),
        ..FlightFilter::default()
    };
    let first = store.list_flights(&crashed, page(2)).await.expect("page");
    let listed: Vec<(String, u32)> = first
        .items
        .iter()
        .map(|flight| (flight.salt.as_str().to_owned(), flight.number))
        .collect();
    assert_eq!(listed, [("salt-2".to_owned(), 1), ("salt-1".to_owned(), 3)]);
    assert!(first.items.iter().all(|flight| flight.phase == FlightPhase::Crashed));
    let rest = store
        .list_flights(
            &crashed,
            PageRequest {
                after: first.next,
                ..page(2)
            },
        )
        .await
        .expect("page");
    assert_eq!(rest.items.iter().map(|flight| flight.number).collect::<Vec<_>>(), [1]);
    assert!(!rest.has_more());
}

#[tokio::test]
async fn chains_page_newest_first_with_their_first_and_last_flights() {
    let (db, store) = store().await;
    given_chains(&mut seeder(&db).await).await;

    let first = store.list_chains(page(2)).await.expect("page");
    let summary: Vec<(String, Option<u32>, Option<u32>)> = first
        .items
        .iter()
        .map(|chain| {
            (
                chain.chain.salt.as_str().to_owned(),
                chain.first_flight,
                chain.last_flight,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("salt-3".to_owned(), None, None),
            ("salt-2".to_owned(), Some(1), Some(2))
        ]
    );
    assert_eq!(first.items[1].chain.commitment.to_hex(), "2".repeat(64));
    assert_eq!(first.items[1].chain.length.get(), 3);
    assert_eq!(first.items[1].chain.created_at, at(2 * 3_600));
    let rest = store
        .list_chains(PageRequest {
            after: first.next,
            ..page(2)
        })
        .await
        .expect("page");
    assert_eq!(rest.items.len(), 1);
    assert_eq!(
        (rest.items[0].first_flight, rest.items[0].last_flight),
        (Some(1), Some(3))
    );
    assert!(!rest.has_more());

    let found = store
        .find_chain(FlightChainId::from_u128(chain_bits(1)))
        .await
        .expect("read")
        .expect("found");
    assert_eq!(found, rest.items[0]);
    let unknown = store.find_chain(FlightChainId::from_u128(4)).await.expect("read");
    assert_eq!(unknown, None);
}
