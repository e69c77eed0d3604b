//! The live feed's cash-out board: each cash-out shown once, bounded per update, only
//! its multiplier and payout band, its owner kept to mark the player's own; and the read
//! over the store (every operator's tickets, once per batch, only while it may change).

use opinion_core::{FlightId, OperatorId, TicketId, UserId};
use opinion_flight::{FlightPhase, Multiplier, Rupiah, TicketStatus};
use time::Duration;

use crate::flight::live_board::{BoardKeeper, MAX_LISTED};
use crate::flight::ports::{FeedCashOutRow, FeedTally};
use crate::flight::{FlightGame, LiveFlight};
use crate::test_support::NOW;
use crate::test_support::flight::{ManualClock, MemoryFlightStore};
use crate::test_support::flight_reads::{flight, ticket};
use crate::wallet::ports::MockWalletGateway;

const FLIGHT: FlightId = FlightId::from_u128(1);

fn row(n: u128, hundredths: u64, payout: i64, at_ms: i64) -> FeedCashOutRow {
    FeedCashOutRow {
        operator_id: OperatorId::from_u128(n % 2 + 1),
        ticket_id: TicketId::from_u128(n),
        user_id: UserId::from_u128(n + 100),
        multiplier: Multiplier::from_hundredths(hundredths),
        payout: Rupiah::new(payout).expect("payout"),
        cashed_out_at: NOW + Duration::milliseconds(at_ms),
    }
}

fn tally(players: u32, tickets: u32, cashed_out: u32) -> FeedTally {
    FeedTally {
        players,
        tickets,
        cashed_out,
    }
}

#[test]
fn a_first_read_shows_every_cash_out_oldest_first_with_its_payout_band() {
    let mut keeper = BoardKeeper::default();
    let rows = vec![row(2, 250, 34_600, 900), row(1, 150, 15_000, 400)];
    let board = keeper.absorb(FLIGHT, tally(3, 4, 2), rows).expect("a board");
    assert_eq!(board.flight, FLIGHT);
    assert_eq!(board.tally, tally(3, 4, 2));
    let shown: Vec<_> = board
        .recent
        .iter()
        .map(|cash_out| {
            (
                cash_out.seq,
                cash_out.multiplier.to_string(),
                cash_out.payout_band.get(),
            )
        })
        .collect();
    assert_eq!(
        shown,
        vec![(1, "1.50".to_owned(), 10_000), (2, "2.50".to_owned(), 20_000)]
    );
    assert_eq!((board.previous_seq, board.seq), (0, 2));
}

#[test]
fn a_cash_out_read_again_is_not_shown_again_and_nothing_new_is_no_update() {
    let mut keeper = BoardKeeper::default();
    keeper.absorb(FLIGHT, tally(2, 2, 1), vec![row(1, 150, 15_000, 400)]);
    assert_eq!(
        keeper.absorb(FLIGHT, tally(2, 2, 1), vec![row(1, 150, 15_000, 400)]),
        None
    );
    let next = keeper
        .absorb(
            FLIGHT,
            tally(2, 2, 2),
            vec![row(3, 180, 1_800, 700), row(1, 150, 15_000, 400)],
        )
        .expect("an update");
    assert_eq!((next.previous_seq, next.seq), (1, 2));
    let latest: Vec<_> = next
        .after(next.previous_seq)
        .iter()
        .map(|c| c.multiplier.hundredths())
        .collect();
    assert_eq!(latest, vec![180]);
    assert_eq!(next.recent.len(), 2);
}

#[test]
fn new_counts_alone_are_an_update_without_cash_outs() {
    let mut keeper = BoardKeeper::default();
    keeper.absorb(FLIGHT, tally(1, 1, 0), Vec::new());
    let next = keeper.absorb(FLIGHT, tally(2, 3, 0), Vec::new()).expect("an update");
    assert!(next.after(next.previous_seq).is_empty());
    assert_eq!(next.tally, tally(2, 3, 0));
}

#[test]
fn an_update_carries_at_most_the_newest_listed_cash_outs() {
    let mut keeper = BoardKeeper::default();
    let rows: Vec<_> = (1..=50).map(|n| row(n, 101 + n as u64, 1_000, n as i64)).collect();
    let board = keeper.absorb(FLIGHT, tally(50, 50, 50), rows).expect("a board");
    assert_eq!(board.recent.len(), MAX_LISTED);
    assert_eq!(board.recent[0].multiplier.hundredths(), 101 + 31);
    assert_eq!(board.recent[MAX_LISTED - 1].multiplier.hundredths(), 101 + 50);
    let more: Vec<_> = (51..=55).map(|n| row(n, 200 + n as u64, 1_000, n as i64)).collect();
    let next = keeper.absorb(FLIGHT, tally(55, 55, 55), more).expect("an update");
    assert_eq!(next.recent.len(), MAX_LISTED, "the board stays bounded");
    assert_eq!(next.after(next.previous_seq).len(), 5);
    assert_eq!(next.after(0).len(), MAX_LISTED, "what is no longer held is not shown");
}

#[test]
fn a_new_flight_starts_a_new_board() {
    let mut keeper = BoardKeeper::default();
    keeper.absorb(FLIGHT, tally(1, 1, 1), vec![row(1, 150, 15_000, 400)]);
    let other = FlightId::from_u128(2);
    let board = keeper
        .absorb(other, tally(0, 0, 0), vec![row(1, 150, 15_000, 400)])
        .expect("a new board");
    assert_eq!((board.flight, board.previous_seq, board.seq), (other, 0, 1));
    assert_eq!(board.recent.len(), 1);
}

#[test]
fn only_the_owner_is_told_a_cash_out_is_theirs() {
    let mut keeper = BoardKeeper::default();
    let board = keeper
        .absorb(FLIGHT, tally(1, 1, 1), vec![row(1, 150, 15_000, 400)])
        .expect("a board");
    let cash_out = &board.recent[0];
    assert!(cash_out.is_of(OperatorId::from_u128(2), UserId::from_u128(101)));
    assert!(!cash_out.is_of(OperatorId::from_u128(1), UserId::from_u128(101)));
    assert!(!cash_out.is_of(OperatorId::from_u128(2), UserId::from_u128(102)));
}

fn game(store: &MemoryFlightStore) -> FlightGame {
    crate::test_support::simulator::flight_game(store, ManualClock::at(NOW), MockWalletGateway::new())
}

fn cashed_out(n: u128, operator: u128, at: time::OffsetDateTime) -> crate::flight::model::TicketRecord {
    let mut ticket = ticket(n, TicketStatus::CashedOut);
    ticket.operator_id = OperatorId::from_u128(operator);
    ticket.user_id = UserId::from_u128(n);
    ticket.cash_out = Some(Multiplier::from_hundredths(200));
    ticket.payout = Some(Rupiah::new(20_000).expect("payout"));
    ticket.cashed_out_at = Some(at);
    ticket
}

#[tokio::test]
async fn the_read_counts_every_operators_tickets_and_shows_their_cash_outs() {
    let store = MemoryFlightStore::default();
    let mut in_air = flight(1, FlightPhase::InFlight);
    in_air.take_off_at = NOW - Duration::seconds(2);
    in_air.crash_at = NOW + Duration::seconds(20);
    store.memory().flights.push(in_air.clone());
    for ticket in [
        cashed_out(1, 1, NOW - Duration::milliseconds(200)),
        cashed_out(2, 2, NOW - Duration::milliseconds(100)),
        cashed_out(3, 2, NOW - Duration::seconds(10)),
        ticket(4, TicketStatus::Active),
        ticket(5, TicketStatus::Refunded),
    ] {
        store.memory().tickets.insert(ticket.id, ticket);
    }
    let game = game(&store);
    let live = LiveFlight::of(&in_air, NOW);
    let mut keeper = BoardKeeper::default();
    let board = game
        .read_cash_out_board(&live, &mut keeper)
        .await
        .expect("read")
        .expect("a board");
    assert_eq!(board.tally, tally(4, 4, 3));
    assert_eq!(
        board.recent.len(),
        2,
        "a cash-out older than the look-back is counted, not listed"
    );
    assert!(board.recent[0].is_of(OperatorId::from_u128(1), UserId::from_u128(1)));
    assert!(board.recent[1].is_of(OperatorId::from_u128(2), UserId::from_u128(2)));
    assert_eq!(game.read_cash_out_board(&live, &mut keeper).await.expect("read"), None);
}

#[tokio::test]
async fn a_flight_long_over_is_read_once_and_then_left_alone() {
    let store = MemoryFlightStore::default();
    let crashed = flight(5, FlightPhase::Crashed);
    store.memory().flights.push(crashed.clone());
    let game = game(&store);
    let live = LiveFlight::of(&crashed, NOW);
    let mut keeper = BoardKeeper::default();
    let first = game.read_cash_out_board(&live, &mut keeper).await.expect("read");
    assert_eq!(first.map(|board| board.flight), Some(crashed.id));
    let mut late = ticket(9, TicketStatus::Lost);
    late.flight_id = crashed.id;
    store.memory().tickets.insert(late.id, late);
    assert_eq!(game.read_cash_out_board(&live, &mut keeper).await.expect("read"), None);
}
