//! Platform staff scheduling and cancelling an operator's flight terms over an in-memory
//! store and a clock the test moves: a version takes effect at its boundary with no job,
//! every refusal writes nothing, and the event goes with the version.

use std::sync::Arc;

use opinion_core::FlightTermsId;
use opinion_flight::{Rupiah, SettlementPeriod, ShareBps, Terms, TicketLimits};
use opinion_webhook::EventType;
use time::OffsetDateTime;
use time::macros::datetime;

use crate::access::ports::MockOperatorStore;
use crate::error::{AppError, ProblemCode};
use crate::flight::{FlightGame, FlightPorts, MAX_SCHEDULED_TERMS};
use crate::model::Operator;
use crate::test_support::flight::{ManualClock, MemoryFlightStore, settings};
use crate::test_support::{NOW, OPERATOR, counting_random};

/// The first boundary after `NOW` (2026-11-22).
const DECEMBER: OffsetDateTime = datetime!(2026-12-01 00:00 UTC);
const JANUARY: OffsetDateTime = datetime!(2027-01-01 00:00 UTC);

struct Staff {
    game: FlightGame,
    store: MemoryFlightStore,
    clock: Arc<ManualClock>,
}

fn staff() -> Staff {
    let store = MemoryFlightStore::default();
    let clock = ManualClock::at(NOW);
    let mut operators = MockOperatorStore::new();
    operators.expect_find_operator().returning(|id| {
        Ok((id == OPERATOR).then(|| Operator {
            id,
            name: "Operator".into(),
            currency: "USD".parse().expect("currency"),
            created_at: NOW,
        }))
    });
    let mocks = crate::test_support::trading::TradingMocks::default();
    let ports = FlightPorts {
        store: Arc::new(store.clone()),
        operators: Arc::new(operators),
        wallet_adapters: Arc::new(mocks.wallet_adapters),
        wallet: Arc::new(mocks.wallet),
        wallet_test_runs: Arc::new(crate::wallet::ports::MockWalletTestRunStore::new()),
        webhooks: Arc::new(crate::webhooks::store::MockWebhookStore::new()),
        transactions: Arc::new(crate::ports::WithoutTransactions),
        clock: clock.clone(),
        random: counting_random(1_000, [4; 32]),
    };
    Staff {
        game: FlightGame::new(ports, settings()),
        store,
        clock,
    }
}

fn terms(share: u16) -> Terms {
    let idr = |value| Rupiah::new(value).expect("rupiah");
    let limits = TicketLimits::new(idr(1_000), idr(1_000_000), idr(100_000_000), 2).expect("limits");
    Terms::new(
        ShareBps::new(share).expect("share"),
        limits,
        SettlementPeriod::CalendarMonth,
        15,
    )
    .expect("terms")
}

fn share_in_force(book: &crate::flight::TermsBook) -> Option<u16> {
    book.current
        .as_ref()
        .map(|record| record.version.terms.share_bps().get())
}

#[tokio::test]
async fn a_scheduled_version_takes_effect_at_its_boundary_with_no_job() {
    let s = staff();
    s.game
        .set_first_terms(OPERATOR, terms(1_500), "Ana")
        .await
        .expect("first");
    let scheduled = s
        .game
        .schedule_terms(OPERATOR, terms(1_200), DECEMBER, "Ana")
        .await
        .expect("scheduled");

    let book = s.game.terms_book(OPERATOR).await.expect("book");
    assert_eq!(share_in_force(&book), Some(1_500));
    assert_eq!(book.scheduled, std::slice::from_ref(&scheduled));
    assert!(book.history.is_empty());

    s.clock.set(DECEMBER - time::Duration::milliseconds(1));
    assert_eq!(
        share_in_force(&s.game.terms_book(OPERATOR).await.expect("book")),
        Some(1_500)
    );
    s.clock.set(DECEMBER);
    let book = s.game.terms_book(OPERATOR).await.expect("book");
    assert_eq!(book.current, Some(scheduled));
    assert!(book.scheduled.is_empty());
    assert_eq!(
        book.history
            .iter()
            .map(|r| r.version.terms.share_bps().get())
            .collect::<Vec<_>>(),
        [1_500]
    );
}

#[tokio::test]
async fn scheduling_writes_the_event_with_every_term() {
    let s = staff();
    let record = s
        .game
        .schedule_terms(OPERATOR, terms(1_200), DECEMBER, "Ana")
        .await
        .expect("scheduled");
    let memory = s.store.memory();
    let [event] = memory.events.as_slice() else {
        panic!("one event: {:?}", memory.events);
    };
    assert_eq!(event.event_type, EventType::FlightTermsScheduled);
    assert_eq!(event.data["termsId"], record.version.id.to_string());
    assert_eq!(event.data["effectiveFrom"], "2026-12-01T00:00:00Z");
    assert_eq!(event.data["shareBps"], 1_200);
    assert_eq!(event.data["maxPayout"], "100000000");
    assert_eq!(event.data["ticketsPerFlight"], 2);
    assert_eq!(event.data["settlementPeriod"], "calendar_month");
    assert_eq!(event.data["currency"], "IDR");
    assert_eq!(memory.terms[0].created_by, "Ana");
}

#[tokio::test]
async fn a_version_off_a_boundary_in_the_past_or_beyond_the_limit_is_refused_and_nothing_is_written() {
    let s = staff();
    for (at, code) in [
        (datetime!(2026-12-02 00:00 UTC), "effectiveFrom"),
        (datetime!(2026-11-01 00:00 UTC), "effectiveFrom"),
    ] {
        let error = s
            .game
            .schedule_terms(OPERATOR, terms(1_200), at, "Ana")
            .await
            .unwrap_err();
        assert!(
            matches!(&error, AppError::Invalid { field, .. } if *field == code),
            "{error:?}"
        );
    }
    let error = s
        .game
        .schedule_terms(OPERATOR, terms(1_200), DECEMBER, " ")
        .await
        .unwrap_err();
    assert!(
        matches!(&error, AppError::Invalid { field, .. } if *field == "by"),
        "{error:?}"
    );
    let stranger = opinion_core::OperatorId::from_u128(999);
    let error = s
        .game
        .schedule_terms(stranger, terms(1_200), DECEMBER, "Ana")
        .await
        .unwrap_err();
    assert!(matches!(error, AppError::NotFound(_)), "{error:?}");
    assert!(s.store.memory().terms.is_empty());

    let mut boundary = DECEMBER;
    for _ in 0..MAX_SCHEDULED_TERMS {
        s.game
            .schedule_terms(OPERATOR, terms(1_200), boundary, "Ana")
            .await
            .expect("scheduled");
        boundary = SettlementPeriod::CalendarMonth.period_containing(boundary).1;
    }
    let error = s
        .game
        .schedule_terms(OPERATOR, terms(1_200), boundary, "Ana")
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            AppError::Conflict {
                code: ProblemCode::TermsScheduleFull,
                ..
            }
        ),
        "{error:?}"
    );
    let memory = s.store.memory();
    assert_eq!(memory.terms.len(), MAX_SCHEDULED_TERMS);
    assert_eq!(memory.events.len(), MAX_SCHEDULED_TERMS);
}

#[tokio::test]
async fn a_version_is_cancelled_once_and_only_before_it_takes_effect() {
    let s = staff();
    let december = s
        .game
        .schedule_terms(OPERATOR, terms(1_200), DECEMBER, "Ana")
        .await
        .expect("december");
    let january = s
        .game
        .schedule_terms(OPERATOR, terms(1_000), JANUARY, "Ana")
        .await
        .expect("january");

    let cancelled = s
        .game
        .cancel_terms(OPERATOR, january.version.id, "Budi")
        .await
        .expect("cancelled");
    let cancellation = cancelled.cancelled.expect("cancellation");
    assert_eq!((cancellation.at, cancellation.by.as_str()), (NOW, "Budi"));
    let again = s
        .game
        .cancel_terms(OPERATOR, january.version.id, "Budi")
        .await
        .unwrap_err();
    assert!(
        matches!(
            again,
            AppError::Conflict {
                code: ProblemCode::TermsNotCancellable,
                ..
            }
        ),
        "{again:?}"
    );

    s.clock.set(DECEMBER);
    let late = s
        .game
        .cancel_terms(OPERATOR, december.version.id, "Budi")
        .await
        .unwrap_err();
    assert!(
        matches!(
            late,
            AppError::Conflict {
                code: ProblemCode::TermsNotCancellable,
                ..
            }
        ),
        "{late:?}"
    );
    let unknown = s
        .game
        .cancel_terms(OPERATOR, FlightTermsId::from_u128(5), "Budi")
        .await
        .unwrap_err();
    assert!(matches!(unknown, AppError::NotFound(_)), "{unknown:?}");

    let book = s.game.terms_book(OPERATOR).await.expect("book");
    assert_eq!(book.current.map(|r| r.version.id), Some(december.version.id));
    assert!(book.scheduled.is_empty(), "a cancelled version never takes effect");
    assert_eq!(
        book.history.iter().map(|r| r.version.id).collect::<Vec<_>>(),
        [january.version.id]
    );
}
