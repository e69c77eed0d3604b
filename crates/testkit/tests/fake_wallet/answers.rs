//! Ordinary answers: applied, replayed, refused, and balance reads.

use std::time::Duration;

use opinion_app::wallet::ports::WalletGateway;
use opinion_testkit::{LedgerAnswer, SignatureCheck};
use opinion_wallet::{BalanceReading, Classification, RefusalCode};

use crate::support::{PLAYER, SECRET, client, send, target, trade, wallet_with};

fn rejected(code: RefusalCode) -> Classification {
    Classification::Rejected { code }
}

#[tokio::test]
async fn a_debit_is_applied_once_and_a_repeat_gets_the_same_answer() {
    let wallet = wallet_with(1_000).await;
    let buy = trade(1, false, 300);
    let first = send(&wallet, &buy).await;
    let Classification::Applied { balance, .. } = &first.classification else {
        panic!("{first:?}")
    };
    assert_eq!(*balance, 700);
    let again = send(&wallet, &buy).await;
    assert_eq!(again.classification, first.classification);
    assert_eq!(wallet.balance(PLAYER), Some(700));

    let ledger = wallet.ledger();
    assert_eq!(ledger.len(), 2);
    assert_eq!(ledger[0].idempotency_key(), Some(buy.idempotency_key().as_str()));
    assert_eq!(ledger[0].amount(), Some(300));
    assert_eq!(ledger[0].metadata("marketId"), Some("mkt_00000000000000000000000007"));
    assert_eq!(ledger[0].signature, SignatureCheck::Valid);
    assert_eq!((ledger[0].applied, ledger[1].applied), (true, false));
    assert_eq!(ledger[1].status(), Some(200));
    assert!(ledger[0].received_at <= ledger[1].received_at);
}

#[tokio::test]
async fn the_same_key_with_another_payload_is_refused() {
    let wallet = wallet_with(1_000).await;
    send(&wallet, &trade(1, false, 300)).await;
    let reused = send(&wallet, &trade(1, false, 301)).await;
    assert_eq!(reused.classification, rejected(RefusalCode::IdempotencyKeyReused));
    assert_eq!(wallet.balance(PLAYER), Some(700));
}

#[tokio::test]
async fn business_refusals_are_definite() {
    let wallet = wallet_with(100).await;
    assert_eq!(
        send(&wallet, &trade(1, false, 300)).await.classification,
        rejected(RefusalCode::InsufficientFunds)
    );
    wallet.block(PLAYER);
    assert_eq!(
        send(&wallet, &trade(2, true, 5)).await.classification,
        rejected(RefusalCode::UserBlocked)
    );
    let stranger = opinion_testkit::FakeWallet::start().await;
    assert_eq!(
        send(&stranger, &trade(3, true, 5)).await.classification,
        rejected(RefusalCode::UserNotFound)
    );
    let euros = opinion_testkit::FakeWallet::start_in("EUR").await;
    euros.set_balance(PLAYER, 1_000);
    assert_eq!(
        send(&euros, &trade(4, true, 5)).await.classification,
        rejected(RefusalCode::CurrencyMismatch)
    );
    assert_eq!(wallet.balance(PLAYER), Some(100));
}

#[tokio::test]
async fn only_a_set_secret_verifies_and_a_bad_signature_claims_no_key() {
    let wallet = wallet_with(1_000).await;
    let other = "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    let buy = trade(1, false, 300);
    let wrong = client()
        .mutate(&target(&wallet, &[other], Duration::from_secs(2)), &buy)
        .await;
    assert_eq!(wrong.classification, rejected(RefusalCode::InvalidSignature));
    assert_eq!(wallet.ledger()[0].signature, SignatureCheck::Invalid);
    assert!(matches!(
        wallet.ledger()[0].answer,
        LedgerAnswer::Answered { status: 401, .. }
    ));

    let rotating = client()
        .mutate(&target(&wallet, &[other, SECRET], Duration::from_secs(2)), &buy)
        .await;
    assert!(matches!(rotating.classification, Classification::Applied { .. }));
    wallet.set_secrets(&[other, SECRET]);
    let new_only = client()
        .mutate(&target(&wallet, &[other], Duration::from_secs(2)), &trade(2, true, 1))
        .await;
    assert!(matches!(new_only.classification, Classification::Applied { .. }));
    assert_eq!(wallet.balance(PLAYER), Some(701));
}

#[tokio::test]
async fn balance_reads_are_signed_and_answered() {
    let wallet = wallet_with(1_000).await;
    let read = client()
        .balance(&target(&wallet, &[SECRET], Duration::from_secs(2)), PLAYER)
        .await;
    assert_eq!(
        read.reading,
        BalanceReading::Balance {
            balance: 1_000,
            currency: "IDR".parse().expect("currency")
        }
    );
    let unknown = client()
        .balance(&target(&wallet, &[SECRET], Duration::from_secs(2)), "nobody")
        .await;
    assert_eq!(
        unknown.reading,
        BalanceReading::Refused {
            code: RefusalCode::UserNotFound
        }
    );
    assert!(wallet.ledger().is_empty(), "balance reads are not mutations");
}
