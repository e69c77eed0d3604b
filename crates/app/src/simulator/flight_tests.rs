//! The simulator's flight operations over mocks and the in-memory flight store: a ticket
//! is bought through the flight use case after a flight launch, a debit's ambiguity or
//! refusal is reported as the engine left the ticket, a cash-out is decided at the
//! service's clock and paid at once, and nothing runs for a user whose wallet is not in
//! IDR, for an operator not enabled, or for a ticket of another player.

use std::sync::Arc;

use opinion_access::Grant;
use opinion_core::{LaunchId, SimulatorUserId, TicketId};
use opinion_flight::{
    FlightPhase, Multiplier, Rupiah, SettlementPeriod, ShareBps, Terms, TicketLimits, TicketStatus, first_ms_at,
};
use opinion_wallet::{Currency, Product, WalletFlow};
use time::Duration;

use crate::error::{AppError, ProblemCode};
use crate::flight::model::{Enablement, FlightRecord};
use crate::model::{Launch, PlayerSession, SimulatedFault, SimulatedUser};
use crate::simulator::ports::MockSimulatorStore;
use crate::simulator::{OperationReport, SimulatedTicketOrder, Simulator, StepOutcome, UserOperation};
use crate::test_support::flight::{ManualClock, MemoryFlightStore};
use crate::test_support::simulator::{flight_game, simulator};
use crate::test_support::trading::{TradingMocks, applied, player, products, refused, timed_out};
use crate::test_support::{NOW, OPERATOR, api_key_caller};
use crate::wallet::ports::{MockWalletAdapterStore, MockWalletGateway, MutationOutcome};

const SIMULATED: SimulatorUserId = SimulatorUserId::from_u128(1);

fn rupiah(value: i64) -> Rupiah {
    Rupiah::new(value).expect("rupiah")
}

fn simulated_user(currency: Currency) -> SimulatedUser {
    SimulatedUser {
        id: SIMULATED,
        operator_id: OPERATOR,
        external_user_id: player().user.external_user_id,
        display_name: None,
        currency,
        starting_balance: 100_000,
        balance: 100_000,
        disabled: false,
        faults: Vec::new(),
        revision: 1,
        created_at: NOW,
        updated_at: NOW,
    }
}

/// The simulator's store holding one simulated user in `currency`.
fn store_of(currency: Currency) -> MockSimulatorStore {
    let mut store = MockSimulatorStore::new();
    store
        .expect_find_simulated_user()
        .returning(move |_, _| Ok(Some(simulated_user(currency))));
    store
        .expect_find_simulated_user_by_external()
        .returning(move |_, _| Ok(Some(simulated_user(currency))));
    store
}

/// Players whose launches of the flight product open sessions for `player()`, when
/// flight is `enabled`.
fn players(enabled: bool) -> TradingMocks {
    let mut mocks = TradingMocks::new();
    mocks.products = Some(products(enabled));
    mocks.players.expect_record_launch().returning(|_, _| Ok(player().user));
    mocks.players.expect_find_launch().returning(|_, id: LaunchId| {
        let launch = Launch {
            id,
            operator_id: OPERATOR,
            user_id: player().user.id,
            return_url: None,
            locale: None,
            metadata: None,
            product: Product::Flight,
            created_at: NOW,
            expires_at: NOW + Duration::minutes(5),
        };
        Ok(Some((launch, player().user)))
    });
    mocks
        .players
        .expect_open_player_session()
        .returning(|operator, launch, id, at, expires_at, _| {
            let session = PlayerSession {
                id,
                operator_id: operator,
                user_id: player().user.id,
                launch_id: launch,
                locale: None,
                product: Product::Flight,
                created_at: at,
                expires_at,
                ended_at: None,
            };
            Ok(Some((session, player().user)))
        });
    mocks
}

struct Setup {
    simulator: Simulator,
    store: MemoryFlightStore,
    clock: Arc<ManualClock>,
}

/// An enabled operator with terms, a flight boarding since `NOW`, and a wallet giving
/// `answers` in turn (the purchase debit first).
async fn setup(currency: Currency, enabled: bool, answers: Vec<MutationOutcome>) -> Setup {
    let store = MemoryFlightStore::default();
    let clock = ManualClock::at(NOW);
    let mut wallet = MockWalletGateway::new();
    let mut answers = answers.into_iter();
    wallet
        .expect_mutate()
        .withf(|_, mutation| mutation.currency() == Currency::IDR)
        .returning(move |_, _| answers.next().expect("an answer for every wallet call"));
    let game = flight_game(&store, clock.clone(), wallet);
    let limits = TicketLimits::new(rupiah(1_000), rupiah(1_000_000), rupiah(100_000_000), 2).expect("limits");
    let terms = Terms::new(
        ShareBps::new(1_500).expect("bps"),
        limits,
        SettlementPeriod::CalendarMonth,
        15,
    );
    game.set_first_terms(OPERATOR, terms.expect("terms"), "ops@platform.example")
        .await
        .expect("terms");
    store.memory().enablements.insert(
        OPERATOR,
        Enablement {
            operator_id: OPERATOR,
            enabled,
            changed_at: NOW,
            changed_by: "ops@platform.example".into(),
        },
    );
    game.drive(false).await.expect("boarded");
    let simulator = simulator(
        store_of(currency),
        MockWalletAdapterStore::new(),
        players(enabled),
        game,
    );
    Setup {
        simulator,
        store,
        clock,
    }
}

fn flight(store: &MemoryFlightStore) -> FlightRecord {
    store.memory().flights.last().cloned().expect("a flight")
}

fn buy(client_ticket_id: &str) -> UserOperation {
    UserOperation::BuyTicket(SimulatedTicketOrder {
        stake: rupiah(10_000),
        auto_cash_out: None,
        client_ticket_id: Some(client_ticket_id.into()),
    })
}

async fn run(setup: &Setup, operation: UserOperation) -> Result<OperationReport, AppError> {
    setup
        .simulator
        .run_user_operation(&api_key_caller(Grant::All), SIMULATED, operation, Vec::new())
        .await
}

fn step<'a>(report: &'a OperationReport, name: &str) -> &'a crate::simulator::ReportStep {
    report
        .steps
        .iter()
        .rev()
        .find(|step| step.step == name)
        .unwrap_or_else(|| panic!("no step {name} in {report:?}"))
}

fn names(report: &OperationReport) -> Vec<&str> {
    report.steps.iter().map(|step| step.step.as_str()).collect()
}

#[tokio::test]
async fn a_ticket_is_bought_on_the_boarding_flight_through_the_flight_use_case() {
    let setup = setup(Currency::IDR, true, vec![applied()]).await;
    let report = run(&setup, buy("sim-first")).await.expect("report");
    assert!(report.completed, "{report:?}");
    assert_eq!(
        names(&report),
        ["launch", "open_session", "wait_for_boarding", "buy_ticket", "wallet"]
    );
    assert_eq!(step(&report, "launch").ids["product"], "flight");
    let flight = flight(&setup.store);
    assert_eq!(
        step(&report, "wait_for_boarding").ids["flightId"],
        flight.id.to_string()
    );
    let bought = &step(&report, "buy_ticket").ids;
    let ticket_id: TicketId = bought["ticketId"].parse().expect("ticket id");
    let stored = setup.store.memory().tickets[&ticket_id].clone();
    assert_eq!(stored.status, TicketStatus::Active);
    assert_eq!(stored.flight_id, flight.id);
    assert_eq!(stored.client_ticket_id, "sim-first");
    assert_eq!(bought["status"], "active");
    assert_eq!(bought["flightId"], flight.id.to_string());
    assert_eq!(bought["stake"], "10000");
    assert_eq!(bought["idempotencyKey"], format!("flight_ticket_purchase:{ticket_id}"));
    let memory = setup.store.memory();
    assert_eq!(memory.operations.len(), 1);
    assert_eq!(memory.operations[0].flow, WalletFlow::FlightTicketPurchase);
}

#[tokio::test]
async fn a_debit_without_an_answer_leaves_the_ticket_in_review_and_a_refused_one_rejected() {
    let setup = setup(Currency::IDR, true, vec![timed_out(), refused()]).await;
    let report = run(&setup, buy("sim-ambiguous")).await.expect("report");
    assert!(report.completed, "{report:?}");
    assert_eq!(step(&report, "buy_ticket").ids["status"], "review");

    let report = run(&setup, buy("sim-refused")).await.expect("report");
    assert_eq!(step(&report, "buy_ticket").ids["status"], "rejected");
    let statuses: Vec<_> = setup.store.memory().tickets.values().map(|t| t.status).collect();
    assert_eq!(statuses, [TicketStatus::Review, TicketStatus::Rejected]);
}

#[tokio::test]
async fn a_cash_out_in_flight_is_decided_at_the_services_clock_and_paid_at_once() {
    let setup = setup(Currency::IDR, true, vec![applied(), applied()]).await;
    let report = run(&setup, buy("sim-cash-out")).await.expect("report");
    let ticket_id: TicketId = step(&report, "buy_ticket").ids["ticketId"].parse().expect("id");
    let flight = flight(&setup.store);
    assert!(
        flight.crash > Multiplier::from_hundredths(120),
        "this test's seed crashes above 1.20x"
    );
    setup.clock.set(flight.take_off_at);
    drive_until(&setup, FlightPhase::InFlight).await;
    let at = Multiplier::from_hundredths(110);
    setup
        .clock
        .set(flight.take_off_at + Duration::milliseconds(i64::try_from(first_ms_at(at)).expect("ms")));

    let report = run(&setup, UserOperation::CashOut { ticket_id }).await.expect("report");
    assert!(report.completed, "{report:?}");
    assert_eq!(
        names(&report),
        ["launch", "open_session", "cash_out", "settle", "wallet"]
    );
    let cashed = &step(&report, "cash_out").ids;
    assert_eq!(cashed["cashOut"], "1.10");
    assert_eq!(cashed["payout"], "11000");
    assert_eq!(
        cashed["payoutIdempotencyKey"],
        format!("flight_ticket_payout:{ticket_id}")
    );
    let stored = setup.store.memory().tickets[&ticket_id].clone();
    assert_eq!(stored.status, TicketStatus::CashedOut);
    assert!(stored.settled_at.is_some(), "the payout was sent and applied at once");
    assert_eq!(step(&report, "settle").ids["status"], "cashed_out");
}

/// Moves the driver until the latest flight is in `phase`.
async fn drive_until(setup: &Setup, phase: FlightPhase) {
    let game = setup.simulator.flight.clone();
    for _ in 0..10 {
        if flight(&setup.store).phase == phase {
            return;
        }
        game.drive(false).await.expect("drive");
    }
    panic!("the flight never reached {phase:?}");
}

#[tokio::test]
async fn a_ticket_of_another_player_cannot_be_cashed_out() {
    let setup = setup(Currency::IDR, true, Vec::new()).await;
    let report = run(
        &setup,
        UserOperation::CashOut {
            ticket_id: TicketId::from_u128(99),
        },
    )
    .await
    .expect("report");
    assert!(!report.completed);
    let failed = step(&report, "cash_out");
    assert_eq!(failed.outcome, StepOutcome::Failed);
    assert_eq!(failed.ids["code"], "not_found");
}

#[tokio::test]
async fn a_user_whose_wallet_is_not_in_idr_is_refused_before_anything_is_queued_or_called() {
    let setup = setup("USD".parse().expect("currency"), true, Vec::new()).await;
    let refused = setup
        .simulator
        .run_user_operation(
            &api_key_caller(Grant::All),
            SIMULATED,
            buy("sim-usd"),
            vec![SimulatedFault::Timeout],
        )
        .await
        .expect_err("refused");
    assert!(
        matches!(
            refused,
            AppError::Conflict {
                code: ProblemCode::SimulatedUserNotIdr,
                ..
            }
        ),
        "{refused:?}"
    );
    assert!(setup.store.memory().tickets.is_empty());
}

#[tokio::test]
async fn an_operator_not_enabled_for_flight_gets_a_failed_launch_and_no_ticket() {
    let setup = setup(Currency::IDR, false, Vec::new()).await;
    let report = run(&setup, buy("sim-disabled")).await.expect("report");
    assert!(!report.completed);
    assert_eq!(names(&report), ["launch"]);
    assert_eq!(step(&report, "launch").ids["code"], "product_not_enabled");
    assert!(setup.store.memory().tickets.is_empty());
}

#[tokio::test]
async fn a_target_the_simulator_cannot_wait_for_is_refused_before_anything_runs() {
    let setup = setup(Currency::IDR, true, Vec::new()).await;
    for target in [100, 10_001] {
        let play = UserOperation::PlayFlight {
            stake: rupiah(10_000),
            cash_out_at: Multiplier::from_hundredths(target),
        };
        let refused = run(&setup, play).await.expect_err("refused");
        assert!(matches!(refused, AppError::Invalid { .. }), "{refused:?}");
    }
    assert!(setup.store.memory().tickets.is_empty());
}
