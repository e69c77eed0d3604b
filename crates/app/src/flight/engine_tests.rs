//! The driver over an in-memory store and a clock the test moves: whole flights, auto
//! cash-outs, the crash and its revealed seed, settlement, the chain, and take-over.

use std::sync::Arc;

use opinion_core::{FlightTermsId, OperatorId, TicketId, UserId, WalletOperationId};
use opinion_flight::{
    FlightPhase, Multiplier, Rupiah, Seed, ShareBps, TicketStatus, commitment, crash_point, first_ms_at,
    seed_of_flight, verifies,
};
use opinion_wallet::{OperationState, WalletFlow};
use opinion_webhook::EventType;
use time::Duration;

use crate::flight::model::{FlightRecord, TicketRecord};
use crate::flight::ports::FlightStore;
use crate::flight::{DriverStep, FlightGame, FlightMove, FlightPorts, FlightSettings};
use crate::test_support::flight::{ManualClock, MemoryFlightStore, settings};
use crate::test_support::{NOW, counting_random};

const OPERATOR: OperatorId = OperatorId::from_u128(7);

struct Game {
    game: FlightGame,
    store: MemoryFlightStore,
    clock: Arc<ManualClock>,
}

fn game(secret: [u8; 32]) -> Game {
    game_with(secret, settings())
}

/// A game whose driver moves at most two tickets a step.
fn game_in_steps_of_two(secret: [u8; 32]) -> Game {
    game_with(
        secret,
        FlightSettings {
            tickets_a_step: 2,
            ..settings()
        },
    )
}

fn game_with(secret: [u8; 32], settings: FlightSettings) -> Game {
    let store = MemoryFlightStore::default();
    let clock = ManualClock::at(NOW);
    let mocks = crate::test_support::trading::TradingMocks::default();
    let ports = FlightPorts {
        store: Arc::new(store.clone()),
        operators: Arc::new(mocks.operators),
        wallet_adapters: Arc::new(mocks.wallet_adapters),
        wallet: Arc::new(mocks.wallet),
        wallet_test_runs: Arc::new(crate::wallet::ports::MockWalletTestRunStore::new()),
        webhooks: Arc::new(crate::webhooks::store::MockWebhookStore::new()),
        transactions: Arc::new(crate::ports::WithoutTransactions),
        clock: clock.clone(),
        random: counting_random(1_000, secret),
    };
    Game {
        game: FlightGame::new(ports, settings),
        store,
        clock,
    }
}

fn latest(store: &MemoryFlightStore) -> FlightRecord {
    store.memory().flights.last().cloned().expect("a flight")
}

fn ticket(flight: &FlightRecord, id: u128, auto: Option<u64>) -> TicketRecord {
    TicketRecord {
        operator_id: OPERATOR,
        id: TicketId::from_u128(id),
        flight_id: flight.id,
        user_id: UserId::from_u128(id),
        external_user_id: format!("player-{id}"),
        client_ticket_id: format!("c-{id}"),
        stake: Rupiah::new(10_000).expect("stake"),
        auto_cash_out: auto.map(Multiplier::from_hundredths),
        status: TicketStatus::Active,
        terms_id: FlightTermsId::from_u128(1),
        share_bps: ShareBps::new(1_500).expect("bps"),
        max_payout: Rupiah::new(1_000_000_000).expect("max"),
        purchase_operation_id: WalletOperationId::from_u128(id),
        cash_out: None,
        cashed_out_at: None,
        payout: None,
        refund_reason: None,
        failure_reason: None,
        created_at: flight.boarding_at,
        updated_at: flight.boarding_at,
        settled_at: None,
    }
}

fn add(store: &MemoryFlightStore, ticket: TicketRecord) {
    store.memory().tickets.insert(ticket.id, ticket);
}

fn status(store: &MemoryFlightStore, id: u128) -> TicketStatus {
    store.memory().tickets[&TicketId::from_u128(id)].status
}

/// How many events of `kind` the store holds.
fn events_of(store: &MemoryFlightStore, kind: EventType) -> usize {
    store
        .memory()
        .events
        .iter()
        .filter(|event| event.event_type == kind)
        .count()
}

fn statuses(store: &MemoryFlightStore, ids: std::ops::RangeInclusive<u128>) -> Vec<TicketStatus> {
    ids.map(|id| status(store, id)).collect()
}

/// A step that moved a batch and left more of its tickets for the next, due at once.
fn batch_of(moved: usize) -> DriverStep {
    DriverStep {
        moved: Some(FlightMove::Batch(moved)),
        next_in: std::time::Duration::ZERO,
    }
}

/// `flight` in the air: the clock at its take-off and the take-off step made.
async fn take_off(t: &Game, flight: &FlightRecord) {
    t.clock.set(flight.take_off_at);
    assert_eq!(
        t.game.drive(false).await.expect("take off").moved,
        Some(FlightMove::TookOff)
    );
}

#[tokio::test]
async fn the_first_step_makes_a_chain_and_boards_its_first_flight_with_its_crash_point() {
    let t = game([3; 32]);
    let step = t.game.drive(false).await.expect("step");
    assert_eq!(step.moved, Some(FlightMove::Boarded));
    assert_eq!(step.next_in, std::time::Duration::from_secs(5));
    let memory = t.store.memory();
    let (chain, terminal) = &memory.chains[0];
    assert_eq!(terminal, &Seed::from_bytes([3; 32]));
    assert_eq!(chain.commitment, commitment(terminal, chain.length));
    let flight = &memory.flights[0];
    assert_eq!((flight.number, flight.phase), (1, FlightPhase::Boarding));
    let seed = seed_of_flight(terminal, chain.length, 1).expect("seed");
    assert_eq!(flight.crash, crash_point(&seed, &chain.salt));
    assert_eq!(flight.take_off_at, NOW + Duration::seconds(5));
    assert_eq!(flight.revealed_seed, None);
}

#[tokio::test]
async fn a_flight_boards_takes_off_crashes_with_its_seed_revealed_settles_and_the_next_one_follows() {
    let t = game([5; 32]);
    t.game.drive(false).await.expect("board");
    let first = latest(&t.store);

    t.clock.set(first.take_off_at - Duration::milliseconds(1));
    assert_eq!(
        t.game.drive(false).await.expect("wait").moved,
        None,
        "boarding lasts until take-off"
    );
    t.clock.set(first.take_off_at);
    assert_eq!(
        t.game.drive(false).await.expect("take off").moved,
        Some(FlightMove::TookOff)
    );
    assert_eq!(latest(&t.store).phase, FlightPhase::InFlight);

    t.clock.set(first.crash_at);
    assert_eq!(
        t.game.drive(false).await.expect("crash").moved,
        Some(FlightMove::Crashed)
    );
    let crashed = latest(&t.store);
    assert_eq!(crashed.phase, FlightPhase::Crashed);
    assert_eq!(crashed.crashed_at, Some(first.crash_at));
    let seed = crashed.revealed_seed.clone().expect("seed revealed");
    assert!(
        verifies(&seed, &first.commitment),
        "flight 1's seed hashes to the commitment"
    );

    t.clock.set(first.crash_at + Duration::milliseconds(999));
    assert_eq!(
        t.game.drive(false).await.expect("wait").moved,
        None,
        "losers wait for the settle delay"
    );
    t.clock.set(first.crash_at + Duration::seconds(1));
    assert_eq!(
        t.game.drive(false).await.expect("settle").moved,
        Some(FlightMove::Settled(0))
    );

    t.clock.set(first.crash_at + Duration::seconds(3));
    assert_eq!(
        t.game.drive(false).await.expect("board").moved,
        Some(FlightMove::Boarded)
    );
    let second = latest(&t.store);
    assert_eq!((second.number, second.chain_id), (2, first.chain_id));
    t.clock.set(second.crash_at);
    t.game.drive(false).await.expect("take off");
    t.game.drive(false).await.expect("crash");
    let revealed = latest(&t.store).revealed_seed.expect("seed");
    assert!(verifies(&revealed, &seed), "flight 2's seed hashes to flight 1's");
}

/// Plays flights until one crashes at `at_least` or more; returns it, boarding.
async fn boarding_flight_crashing_at_least(t: &Game, at_least: u64) -> FlightRecord {
    loop {
        t.game.drive(false).await.expect("board");
        let flight = latest(&t.store);
        if flight.phase == FlightPhase::Boarding && flight.crash.hundredths() >= at_least {
            return flight;
        }
        t.clock.set(flight.crash_at + Duration::seconds(10));
        while latest(&t.store).phase != FlightPhase::Crashed || latest(&t.store).settled_at.is_none() {
            t.game.drive(false).await.expect("play");
        }
        t.clock.advance_ms(10_000);
    }
}

#[tokio::test]
async fn auto_cash_outs_win_at_their_target_as_the_curve_reaches_it_and_the_rest_lose_after_the_crash() {
    let t = game([9; 32]);
    let flight = boarding_flight_crashing_at_least(&t, 150).await;
    add(&t.store, ticket(&flight, 1, Some(120)));
    add(&t.store, ticket(&flight, 2, Some(flight.crash.hundredths() + 1)));
    add(&t.store, ticket(&flight, 3, None));
    t.clock.set(flight.take_off_at);
    t.game.drive(false).await.expect("take off");

    let reached = flight.take_off_at
        + Duration::milliseconds(i64::try_from(first_ms_at(Multiplier::from_hundredths(120))).expect("ms"));
    t.clock.set(reached - Duration::milliseconds(1));
    t.game.drive(false).await.expect("fly");
    assert_eq!(status(&t.store, 1), TicketStatus::Active, "not yet at 1.20x");
    t.clock.set(reached);
    assert_eq!(
        t.game.drive(false).await.expect("fly").moved,
        Some(FlightMove::AutoCashedOut(1))
    );
    let won = t.store.memory().tickets[&TicketId::from_u128(1)].clone();
    assert_eq!(won.status, TicketStatus::CashedOut);
    assert_eq!(won.cash_out, Some(Multiplier::from_hundredths(120)));
    assert_eq!(won.payout, Some(Rupiah::new(12_000).expect("payout")));
    assert_eq!(won.cashed_out_at, Some(reached));
    {
        let memory = t.store.memory();
        let payout = memory
            .operations
            .iter()
            .find(|op| op.ticket_id == Some(won.id))
            .expect("payout op");
        assert_eq!(
            (payout.flow, payout.state, payout.amount),
            (WalletFlow::FlightTicketPayout, OperationState::Prepared, 12_000)
        );
        assert_eq!(payout.currency.as_str(), "IDR");
        assert!(
            memory
                .events
                .iter()
                .any(|event| event.event_type == EventType::FlightTicketCashedOut)
        );
    }

    t.clock.set(flight.crash_at);
    t.game.drive(false).await.expect("crash");
    t.clock.set(flight.crash_at + Duration::seconds(1));
    assert_eq!(
        t.game.drive(false).await.expect("settle").moved,
        Some(FlightMove::Settled(2))
    );
    assert_eq!(
        status(&t.store, 2),
        TicketStatus::Lost,
        "a target above the crash point loses"
    );
    assert_eq!(status(&t.store, 3), TicketStatus::Lost);
    let lost = events_of(&t.store, EventType::FlightTicketLost);
    assert_eq!(lost, 2);
}

#[tokio::test]
async fn a_target_equal_to_the_crash_point_wins_at_the_crash() {
    let t = game([11; 32]);
    let flight = boarding_flight_crashing_at_least(&t, 101).await;
    add(&t.store, ticket(&flight, 1, Some(flight.crash.hundredths())));
    t.clock.set(flight.take_off_at);
    t.game.drive(false).await.expect("take off");
    t.clock.set(flight.crash_at);
    t.game.drive(false).await.expect("crash");
    let won = t.store.memory().tickets[&TicketId::from_u128(1)].clone();
    assert_eq!(
        (won.status, won.cash_out),
        (TicketStatus::CashedOut, Some(flight.crash))
    );
}

#[tokio::test]
async fn a_new_driver_cancels_a_flight_it_finds_boarding_and_refunds_its_tickets() {
    let t = game([13; 32]);
    t.game.drive(false).await.expect("board");
    let flight = latest(&t.store);
    add(&t.store, ticket(&flight, 1, None));
    assert_eq!(
        t.game.drive(true).await.expect("take over").moved,
        Some(FlightMove::Cancelled)
    );
    let cancelled = latest(&t.store);
    assert_eq!(cancelled.phase, FlightPhase::Cancelled);
    assert_eq!(cancelled.revealed_seed, None, "a cancelled flight's seed stays secret");
    assert_eq!(status(&t.store, 1), TicketStatus::Refunding);
    let memory = t.store.memory();
    let refund = memory
        .operations
        .iter()
        .find(|op| op.flow == WalletFlow::FlightTicketRefund)
        .expect("refund");
    assert_eq!((refund.state, refund.amount), (OperationState::Prepared, 10_000));
    assert_eq!(
        refund.metadata.get("refundOf").map(String::as_str),
        Some("wop_00000000000000000000000001")
    );
}

#[tokio::test]
async fn a_new_driver_resumes_a_flight_in_the_air_exactly() {
    let t = game([17; 32]);
    t.game.drive(false).await.expect("board");
    let flight = latest(&t.store);
    add(&t.store, ticket(&flight, 1, None));
    t.clock.set(flight.take_off_at);
    t.game.drive(false).await.expect("take off");
    t.clock.set(flight.crash_at + Duration::seconds(30));
    assert_eq!(
        t.game.drive(true).await.expect("take over").moved,
        Some(FlightMove::Crashed)
    );
    let crashed = latest(&t.store);
    assert_eq!(
        crashed.crashed_at,
        Some(flight.crash_at),
        "the crash keeps its planned instant"
    );
    assert_eq!(status(&t.store, 1), TicketStatus::Active, "settled by the next step");
    t.game.drive(true).await.expect("settle");
    assert_eq!(status(&t.store, 1), TicketStatus::Lost);
}

#[tokio::test]
async fn a_used_up_chain_is_followed_by_a_new_one() {
    let t = game([19; 32]);
    for _ in 0..10 {
        t.game.drive(false).await.expect("board");
        let flight = latest(&t.store);
        t.clock.set(flight.crash_at + Duration::seconds(10));
        while latest(&t.store).settled_at.is_none() {
            t.game.drive(false).await.expect("play");
        }
        t.clock.advance_ms(10_000);
    }
    t.game.drive(false).await.expect("board the eleventh");
    let memory = t.store.memory();
    assert_eq!(memory.chains.len(), 2);
    let eleventh = memory.flights.last().expect("flight");
    assert_eq!((eleventh.chain_id, eleventh.number), (memory.chains[1].0.id, 1));
}

#[tokio::test]
async fn a_second_driver_cannot_open_a_second_flight() {
    let t = game([23; 32]);
    t.game.drive(false).await.expect("board");
    let mut rival = latest(&t.store);
    rival.id = opinion_core::FlightId::from_u128(99);
    rival.number = 2;
    let opened = FlightStore::open_flight(&t.store, &rival).await.expect("store");
    assert!(!opened, "one flight at a time");
}

#[tokio::test]
async fn a_flight_with_more_losers_than_a_step_moves_is_settled_over_several_steps() {
    let t = game_in_steps_of_two([23; 32]);
    t.game.drive(false).await.expect("board");
    let flight = latest(&t.store);
    for id in 1..=5 {
        add(&t.store, ticket(&flight, id, None));
    }
    take_off(&t, &flight).await;
    t.clock.set(flight.crash_at);
    t.game.drive(false).await.expect("crash");
    t.clock.set(flight.crash_at + Duration::seconds(1));

    assert_eq!(t.game.drive(false).await.expect("first batch"), batch_of(2));
    let lost_so_far = statuses(&t.store, 1..=5)
        .into_iter()
        .filter(|status| *status == TicketStatus::Lost)
        .count();
    assert_eq!(lost_so_far, 2, "one batch");
    assert_eq!(latest(&t.store).settled_at, None, "settled with the last batch");
    assert_eq!(t.game.drive(false).await.expect("second batch"), batch_of(2));
    assert_eq!(
        t.game.drive(false).await.expect("last batch").moved,
        Some(FlightMove::Settled(1))
    );
    assert!(latest(&t.store).settled_at.is_some());
    assert_eq!(statuses(&t.store, 1..=5), [TicketStatus::Lost; 5]);
    let lost = events_of(&t.store, EventType::FlightTicketLost);
    assert_eq!(lost, 5, "one event a ticket");
}

#[tokio::test]
async fn auto_cash_outs_due_at_once_beyond_a_step_are_paid_by_the_next_step_at_once() {
    let t = game_in_steps_of_two([29; 32]);
    let flight = boarding_flight_crashing_at_least(&t, 150).await;
    for id in 1..=3 {
        add(&t.store, ticket(&flight, id, Some(120)));
    }
    add(&t.store, ticket(&flight, 4, None));
    take_off(&t, &flight).await;
    let reached = flight.take_off_at
        + Duration::milliseconds(i64::try_from(first_ms_at(Multiplier::from_hundredths(120))).expect("ms"));
    t.clock.set(reached);

    let first = t.game.drive(false).await.expect("fly");
    assert_eq!(
        first,
        DriverStep {
            moved: Some(FlightMove::AutoCashedOut(2)),
            next_in: std::time::Duration::ZERO,
        }
    );
    let second = t.game.drive(false).await.expect("fly on");
    assert_eq!(second.moved, Some(FlightMove::AutoCashedOut(1)));
    assert!(second.next_in > std::time::Duration::ZERO, "back to the tick");
    assert_eq!(
        statuses(&t.store, 1..=4),
        [
            TicketStatus::CashedOut,
            TicketStatus::CashedOut,
            TicketStatus::CashedOut,
            TicketStatus::Active
        ]
    );
    let at_target = t.store.memory().tickets[&TicketId::from_u128(3)].cashed_out_at;
    assert_eq!(at_target, Some(reached), "paid at the instant its target was reached");
}

#[tokio::test]
async fn a_crash_with_more_winners_than_a_step_moves_crashes_with_the_last_of_them() {
    let t = game_in_steps_of_two([31; 32]);
    let flight = boarding_flight_crashing_at_least(&t, 101).await;
    for id in 1..=3 {
        add(&t.store, ticket(&flight, id, Some(flight.crash.hundredths())));
    }
    take_off(&t, &flight).await;
    t.clock.set(flight.crash_at);

    assert_eq!(t.game.drive(false).await.expect("first winners"), batch_of(2));
    assert_eq!(
        latest(&t.store).phase,
        FlightPhase::InFlight,
        "crashes with the last batch"
    );
    assert_eq!(
        t.game.drive(false).await.expect("crash").moved,
        Some(FlightMove::Crashed)
    );
    let crashed = latest(&t.store);
    assert_eq!(crashed.phase, FlightPhase::Crashed);
    assert!(crashed.revealed_seed.is_some());
    assert_eq!(statuses(&t.store, 1..=3), [TicketStatus::CashedOut; 3]);
}

#[tokio::test]
async fn a_take_over_cancels_a_boarding_with_more_tickets_than_a_step_over_its_continued_steps() {
    let t = game_in_steps_of_two([37; 32]);
    t.game.drive(false).await.expect("board");
    let flight = latest(&t.store);
    for id in 1..=3 {
        add(&t.store, ticket(&flight, id, None));
    }

    let first = t.game.drive(true).await.expect("take over");
    assert_eq!(first, batch_of(2));
    assert!(first.continues(), "the loop keeps the take-over for the next step");
    assert_eq!(
        latest(&t.store).phase,
        FlightPhase::Boarding,
        "cancelled with the last batch"
    );
    let last = t.game.drive(true).await.expect("take over, continued");
    assert_eq!(last.moved, Some(FlightMove::Cancelled));
    assert!(!last.continues());
    assert_eq!(latest(&t.store).phase, FlightPhase::Cancelled);
    assert_eq!(statuses(&t.store, 1..=3), [TicketStatus::Refunding; 3]);
    let refunds = t
        .store
        .memory()
        .operations
        .iter()
        .filter(|op| op.flow == WalletFlow::FlightTicketRefund)
        .count();
    assert_eq!(refunds, 3, "one refund a ticket");
}
