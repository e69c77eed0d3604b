//! Faults: what the platform observes of each, and whether money moved.

use std::time::Duration;

use opinion_app::wallet::ports::WalletGateway;
use opinion_testkit::{Fault, LedgerAnswer};
use opinion_wallet::{Ambiguity, Classification, RefusalCode};

use crate::support::{PLAYER, SECRET, client, eventually, send, target, trade, wallet_with};

fn ambiguous(why: Ambiguity) -> Classification {
    Classification::Ambiguous { why }
}

#[tokio::test]
async fn a_dropped_connection_after_applying_moved_money_and_the_key_replays_it() {
    let wallet = wallet_with(1_000).await;
    wallet.fail_next(PLAYER, Fault::DropConnection { applied: true });
    let buy = trade(1, false, 300);
    let lost = send(&wallet, &buy).await;
    assert_eq!(lost.classification, ambiguous(Ambiguity::ConnectionLostAfterSend));
    assert_eq!(wallet.balance(PLAYER), Some(700));
    assert_eq!(wallet.ledger()[0].answer, LedgerAnswer::Dropped);
    assert!(wallet.ledger()[0].applied);
    let retried = send(&wallet, &buy).await;
    assert!(matches!(
        retried.classification,
        Classification::Applied { balance: 700, .. }
    ));
    assert_eq!(wallet.balance(PLAYER), Some(700));
}

#[tokio::test]
async fn a_dropped_connection_without_applying_moved_nothing_and_frees_the_key() {
    let wallet = wallet_with(1_000).await;
    wallet.fail_next(PLAYER, Fault::DropConnection { applied: false });
    let buy = trade(1, false, 300);
    assert_eq!(
        send(&wallet, &buy).await.classification,
        ambiguous(Ambiguity::ConnectionLostAfterSend)
    );
    assert_eq!(wallet.balance(PLAYER), Some(1_000));
    assert!(!wallet.ledger()[0].applied);
    assert!(matches!(
        send(&wallet, &buy).await.classification,
        Classification::Applied { .. }
    ));
    assert_eq!(wallet.balance(PLAYER), Some(700));
}

#[tokio::test]
async fn applying_then_answering_500_is_ambiguous_though_money_moved() {
    let wallet = wallet_with(1_000).await;
    wallet.fail_next(PLAYER, Fault::ApplyThenServerError);
    let buy = trade(1, false, 300);
    assert_eq!(
        send(&wallet, &buy).await.classification,
        ambiguous(Ambiguity::ServerError { status: 500 })
    );
    assert_eq!(wallet.balance(PLAYER), Some(700));
    assert!(matches!(
        send(&wallet, &buy).await.classification,
        Classification::Applied { balance: 700, .. }
    ));
}

#[tokio::test]
async fn a_server_error_moves_nothing_and_faults_are_taken_in_order() {
    let wallet = wallet_with(1_000).await;
    wallet.fail_next(PLAYER, Fault::ServerError(503));
    wallet.fail_next(PLAYER, Fault::Refuse(RefusalCode::InsufficientFunds));
    assert_eq!(
        send(&wallet, &trade(1, false, 300)).await.classification,
        ambiguous(Ambiguity::ServerError { status: 503 })
    );
    assert_eq!(
        send(&wallet, &trade(2, false, 300)).await.classification,
        Classification::Rejected {
            code: RefusalCode::InsufficientFunds
        }
    );
    assert!(matches!(
        send(&wallet, &trade(3, false, 300)).await.classification,
        Classification::Applied { .. }
    ));
    assert_eq!(wallet.balance(PLAYER), Some(700));
    let faults: Vec<_> = wallet.ledger().into_iter().map(|entry| entry.fault).collect();
    assert_eq!(
        faults,
        [
            Some(Fault::ServerError(503)),
            Some(Fault::Refuse(RefusalCode::InsufficientFunds)),
            None
        ]
    );
}

#[tokio::test]
async fn a_slow_answer_times_out_at_the_caller_is_in_progress_meanwhile_and_is_applied() {
    let wallet = wallet_with(1_000).await;
    wallet.fail_next(PLAYER, Fault::SlowAnswer(Duration::from_secs(3)));
    let buy = trade(1, false, 300);
    let impatient = target(&wallet, &[SECRET], Duration::from_millis(1_000));
    let timed_out = client().mutate(&impatient, &buy).await;
    assert_eq!(timed_out.classification, ambiguous(Ambiguity::TimedOut));
    assert_eq!(wallet.ledger()[0].answer, LedgerAnswer::Pending);
    let duplicate = send(&wallet, &buy).await;
    assert_eq!(duplicate.classification, ambiguous(Ambiguity::InProgress));
    eventually(&wallet, |wallet| wallet.balance(PLAYER) == Some(700)).await;
    let replayed = send(&wallet, &buy).await;
    assert!(matches!(
        replayed.classification,
        Classification::Applied { balance: 700, .. }
    ));
}

#[tokio::test]
async fn a_fault_source_decides_for_mutations_without_a_queued_fault() {
    let wallet = wallet_with(1_000).await;
    wallet.set_fault_source(std::sync::Arc::new(|request| {
        (request.amount.minor_units() == 300).then_some(Fault::Garbage { applied: true })
    }));
    wallet.fail_next(PLAYER, Fault::ServerError(503));
    assert_eq!(
        send(&wallet, &trade(1, false, 300)).await.classification,
        ambiguous(Ambiguity::ServerError { status: 503 }),
        "a queued fault comes first"
    );
    assert_eq!(
        send(&wallet, &trade(2, false, 300)).await.classification,
        ambiguous(Ambiguity::UnreadableSuccess { status: 200 })
    );
    assert_eq!(wallet.balance(PLAYER), Some(700));
    assert!(matches!(
        send(&wallet, &trade(3, false, 200)).await.classification,
        Classification::Applied { balance: 500, .. }
    ));
    assert_eq!(wallet.ledger()[1].fault, Some(Fault::Garbage { applied: true }));
    assert_eq!(wallet.ledger()[2].fault, None);
}
