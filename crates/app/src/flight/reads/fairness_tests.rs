//! The fairness reads over mocks: the player's list asks the store for crashed flights
//! only and still shows every row through `FlightView`, and the published chains pass
//! through page by page, an unknown one being 404.

use opinion_core::{FlightChainId, Page, PageLimit, PageRequest};
use opinion_flight::{ChainLength, FlightPhase, Salt, Seed};

use crate::error::AppError;
use crate::flight::model::ChainRecord;
use crate::flight::reads::ports::ChainSummary;
use crate::test_support::NOW;
use crate::test_support::flight_reads::{FlightReadMocks, flight};

fn summary() -> ChainSummary {
    ChainSummary {
        chain: ChainRecord {
            id: FlightChainId::from_u128(1),
            length: ChainLength::new(10).expect("length"),
            salt: Salt::new("flight-test-vector-salt-0001").expect("salt"),
            commitment: Seed::from_bytes([0; 32]),
            created_at: NOW,
        },
        first_flight: Some(1),
        last_flight: Some(4),
    }
}

#[tokio::test]
async fn the_players_list_asks_for_crashed_flights_and_never_shows_a_secret_of_another_phase() {
    let mut mocks = FlightReadMocks::default();
    mocks
        .store
        .expect_list_flights()
        .times(1)
        .withf(|filter, page| {
            filter.phase == Some(FlightPhase::Crashed) && filter.boarded == Default::default() && page.limit.get() == 2
        })
        .returning(|_, _| {
            let mut flying = flight(2, FlightPhase::InFlight);
            flying.revealed_seed = Some(Seed::from_bytes([9; 32]));
            flying.crashed_at = Some(flying.crash_at);
            Ok(Page {
                items: vec![flying, flight(1, FlightPhase::Crashed)],
                next: None,
            })
        });
    let page = PageRequest {
        limit: PageLimit::new(2).expect("limit"),
        after: None,
    };
    let listed = mocks.build().crashed_flights(page).await.expect("listed");
    let (flying, crashed) = (&listed.items[0], &listed.items[1]);
    assert_eq!(
        (flying.seed.as_ref(), flying.crash, flying.crashed_at),
        (None, None, None)
    );
    assert!(crashed.seed.is_some() && crashed.crash.is_some() && crashed.crashed_at.is_some());
}

#[tokio::test]
async fn chains_pass_through_page_by_page_and_an_unknown_chain_is_not_found() {
    let mut mocks = FlightReadMocks::default();
    mocks.store.expect_list_chains().times(1).returning(|_| {
        Ok(Page {
            items: vec![summary()],
            next: None,
        })
    });
    mocks
        .store
        .expect_find_chain()
        .returning(|id| Ok((id == FlightChainId::from_u128(1)).then(summary)));
    let reads = mocks.build();
    let listed = reads.chains(PageRequest::default()).await.expect("listed");
    assert_eq!(listed.items, vec![summary()]);
    assert_eq!(
        reads.chain(FlightChainId::from_u128(1)).await.expect("found"),
        summary()
    );
    let missing = reads.chain(FlightChainId::from_u128(2)).await.expect_err("unknown");
    assert!(matches!(missing, AppError::NotFound("flight chain")), "{missing:?}");
}
