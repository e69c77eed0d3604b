//! The reference wallet's answers, row by row, and its idempotency as a property.

use proptest::prelude::*;

use super::*;
use crate::classification::{Classification, classify};
use crate::metadata::samples;
use crate::money::Amount;
use crate::mutation::WalletMutation;
use crate::transport::TransportOutcome;
use crate::wallet_answer::AnswerBody;

fn idr() -> Currency {
    "IDR".parse().unwrap()
}

/// The body of sample flow `index` (buy, sell, compensation, redemption) for `user`.
fn body(index: usize, user: &str, amount: i64) -> Vec<u8> {
    let mutation = WalletMutation::new(user, Amount::new(amount).unwrap(), idr(), samples::all()[index]).unwrap();
    MutationRequest::of(&mutation, "2026-11-22T10:15:30Z".parse().unwrap())
        .to_bytes()
        .unwrap()
}

const BUY: usize = 0;
const SELL: usize = 1;

fn wallet_with(user: &str, balance: i64) -> ReferenceWallet {
    let mut wallet = ReferenceWallet::new(idr());
    wallet.set_balance(user, balance);
    wallet
}

fn classified(answer: &WalletAnswer) -> Classification {
    let bytes = answer.body_bytes().unwrap();
    classify(TransportOutcome::Answered {
        status: answer.status,
        body: &bytes,
    })
}

fn refusal(answer: &WalletAnswer) -> Option<RefusalCode> {
    match classified(answer) {
        Classification::Rejected { code } => Some(code),
        _ => None,
    }
}

#[test]
fn debits_and_credits_move_the_balance_and_answer_it() {
    let mut wallet = wallet_with("p", 1_000);
    let answer = wallet.receive(&body(BUY, "p", 300), None);
    assert_eq!(answer.status, 200);
    assert!(matches!(
        classified(&answer),
        Classification::Applied { balance: 700, ref remote_reference } if remote_reference.as_str() == "rw-000001"
    ));
    wallet.receive(&body(SELL, "p", 50), None);
    assert_eq!(wallet.balance("p"), Some(750));
}

#[test]
fn business_refusals_move_nothing() {
    let rows = [
        (body(BUY, "p", 1_001), RefusalCode::InsufficientFunds),
        (body(BUY, "stranger", 1), RefusalCode::UserNotFound),
    ];
    for (request, code) in rows {
        let mut wallet = wallet_with("p", 1_000);
        assert_eq!(refusal(&wallet.receive(&request, None)), Some(code));
        assert_eq!(wallet.balance("p"), Some(1_000));
    }
    let mut blocked = wallet_with("p", 1_000);
    blocked.set_blocked("p", true);
    assert_eq!(
        refusal(&blocked.receive(&body(SELL, "p", 5), None)),
        Some(RefusalCode::UserBlocked)
    );
    let mut euros = ReferenceWallet::new("EUR".parse().unwrap());
    euros.set_balance("p", 1_000);
    assert_eq!(
        refusal(&euros.receive(&body(SELL, "p", 5), None)),
        Some(RefusalCode::CurrencyMismatch)
    );
    assert_eq!(euros.balance("p"), Some(1_000));
}

#[test]
fn an_idr_account_takes_the_flight_flows_and_another_currency_refuses_them() {
    const PURCHASE: usize = 4;
    const PAYOUT: usize = 5;
    const REFUND: usize = 6;
    let euros = || {
        let mut wallet = ReferenceWallet::new("EUR".parse().unwrap());
        wallet.open_account("idr-player", 100_000, idr());
        wallet.set_balance("eur-player", 100_000);
        wallet
    };
    let mut wallet = euros();
    assert_eq!(wallet.receive(&body(PURCHASE, "idr-player", 20_000), None).status, 200);
    assert_eq!(wallet.receive(&body(PAYOUT, "idr-player", 69_200), None).status, 200);
    assert_eq!(wallet.receive(&body(REFUND, "idr-player", 20_000), None).status, 200);
    assert_eq!(wallet.balance("idr-player"), Some(169_200));
    let mut wallet = euros();
    for flight in [PURCHASE, PAYOUT, REFUND] {
        assert_eq!(
            refusal(&wallet.receive(&body(flight, "eur-player", 20_000), None)),
            Some(RefusalCode::CurrencyMismatch)
        );
    }
    assert_eq!(wallet.balance("eur-player"), Some(100_000));
}

#[test]
fn the_same_key_and_payload_gets_the_first_answer_again() {
    let mut wallet = wallet_with("p", 1_000);
    let first = wallet.receive(&body(BUY, "p", 300), None);
    wallet.set_balance("p", 5_000);
    let again = wallet.receive(&body(BUY, "p", 300), None);
    assert_eq!(
        again, first,
        "the balance in the answer is the one right after the mutation"
    );
    assert_eq!(wallet.balance("p"), Some(5_000));
    let mut poor = wallet_with("q", 0);
    let refused = poor.receive(&body(BUY, "q", 300), None);
    poor.set_balance("q", 1_000);
    assert_eq!(
        poor.receive(&body(BUY, "q", 300), None),
        refused,
        "a refusal is final for its key"
    );
}

#[test]
fn the_same_key_with_another_payload_is_refused_and_moves_nothing() {
    let mut wallet = wallet_with("p", 1_000);
    wallet.receive(&body(BUY, "p", 300), None);
    let reused = wallet.receive(&body(BUY, "p", 301), None);
    assert_eq!(refusal(&reused), Some(RefusalCode::IdempotencyKeyReused));
    assert_eq!(wallet.balance("p"), Some(700));
}

#[test]
fn a_key_in_progress_is_answered_409_until_settled_or_released() {
    let mut wallet = wallet_with("p", 1_000);
    let Admission::Proceed(request) = wallet.admit(&body(BUY, "p", 300), None) else {
        panic!("a new key proceeds")
    };
    assert_eq!(
        wallet.admit(&body(BUY, "p", 300), None),
        Admission::Answer(WalletAnswer::in_progress())
    );
    assert!(matches!(
        wallet.admit(&body(BUY, "p", 999), None),
        Admission::Answer(answer) if refusal(&answer) == Some(RefusalCode::IdempotencyKeyReused)
    ));
    wallet.release(&request);
    assert!(matches!(
        wallet.admit(&body(BUY, "p", 300), None),
        Admission::Proceed(_)
    ));
    let settled = wallet.settle(&request);
    assert!(settled.is_applied());
    assert_eq!(wallet.receive(&body(BUY, "p", 300), None), settled);
}

#[test]
fn a_forced_refusal_is_recorded_under_the_key() {
    let mut wallet = wallet_with("p", 1_000);
    let Admission::Proceed(request) = wallet.admit(&body(BUY, "p", 300), None) else {
        panic!("proceeds")
    };
    let refused = wallet.refuse(&request, RefusalCode::LimitExceeded);
    assert_eq!(refusal(&refused), Some(RefusalCode::LimitExceeded));
    assert_eq!(wallet.receive(&body(BUY, "p", 300), None), refused);
    assert_eq!(wallet.balance("p"), Some(1_000));
}

#[test]
fn unreadable_requests_are_invalid_and_claim_no_key() {
    let mut wallet = wallet_with("p", 1_000);
    assert_eq!(refusal(&wallet.receive(b"{}", None)), Some(RefusalCode::InvalidRequest));
    let request = body(BUY, "p", 300);
    let mismatch = wallet.receive(&request, Some("sell:trd_00000000000000000000000002"));
    assert_eq!(refusal(&mismatch), Some(RefusalCode::InvalidRequest));
    let answer = wallet.receive(&request, Some("buy:trd_00000000000000000000000002"));
    assert!(answer.is_applied(), "the refused attempts did not claim the key");
}

#[test]
fn balance_reads() {
    let mut wallet = wallet_with("p", 1_000);
    let read = |wallet: &ReferenceWallet, user: &str| {
        wallet.read_balance(format!(r#"{{"externalUserId":"{user}","requestedAt":"2026-11-22T10:15:30Z"}}"#).as_bytes())
    };
    assert_eq!(read(&wallet, "p"), WalletAnswer::balance("p", 1_000, idr()));
    assert_eq!(read(&wallet, "q").status, 404);
    wallet.set_blocked("p", true);
    assert!(matches!(read(&wallet, "p").body, AnswerBody::Error(ref e) if e.error.code == "user_blocked"));
    assert_eq!(wallet.read_balance(b"nope").status, 400);
}

proptest! {
    /// Rule 2 from the wallet's side: whatever order requests arrive in and however often
    /// they are repeated, each key moves money at most once, every repeat of a key's
    /// first payload gets the first answer, and the balance is the sum of what applied.
    #[test]
    fn repeats_never_move_money_twice(
        requests in proptest::collection::vec((0..4usize, 1..400i64), 1..40),
    ) {
        let mut wallet = wallet_with("p", 1_000);
        let mut first: BTreeMap<usize, (i64, WalletAnswer)> = BTreeMap::new();
        let mut expected = 1_000i64;
        for (index, amount) in requests {
            let answer = wallet.receive(&body(index, "p", amount), None);
            match first.get(&index) {
                None => {
                    if answer.is_applied() {
                        expected += if index == BUY { -amount } else { amount };
                    }
                    first.insert(index, (amount, answer));
                }
                Some((first_amount, first_answer)) if *first_amount == amount => {
                    prop_assert_eq!(&answer, first_answer);
                }
                Some(_) => prop_assert_eq!(refusal(&answer), Some(RefusalCode::IdempotencyKeyReused)),
            }
            prop_assert_eq!(wallet.balance("p"), Some(expected));
        }
    }
}
