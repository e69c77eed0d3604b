//! The rules of a contract-abiding wallet (`docs/operator/wallet-adapter.md`) as pure functions
//! over what the wallet has stored: the record under a key and the player's account.
//! [`crate::ReferenceWallet`] keeps that state in memory (for the test wallet); the
//! staging simulator keeps it in PostgreSQL and calls the same functions inside its
//! transactions, so both deduplicate and refuse exactly alike.
//!
//! | step | rule |
//! |---|---|
//! | [`read_mutation`] | the body is a mutation request and its `Idempotency-Key` header (if sent) is its key; else 400 `invalid_request`, nothing recorded |
//! | [`answer_for_key`] | a key already recorded: the recorded answer for the same payload, 409 while in progress, 422 `idempotency_key_reused` for another payload; `None` for a new key |
//! | [`apply_mutation`] | unknown player 404, blocked 403, other currency 422, debit above the balance 402; otherwise the new balance and 200 |
//! | [`answer_balance_read`] | unknown player 404, blocked 403, otherwise the balance |

use crate::balance::BalanceRequest;
use crate::fingerprint::RequestFingerprint;
use crate::flow::Direction;
use crate::money::Currency;
use crate::refusal::RefusalCode;
use crate::remote_reference::RemoteReference;
use crate::request_body::MutationRequest;
use crate::wallet_answer::WalletAnswer;

/// What a wallet has recorded under an idempotency key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyRecord {
    /// Admitted, not answered yet.
    InProgress {
        /// The payload the key was first used with.
        fingerprint: RequestFingerprint,
    },
    /// Answered; every repeat of the same payload gets this answer.
    Settled {
        /// The payload the key was first used with.
        fingerprint: RequestFingerprint,
        /// The answer given.
        answer: WalletAnswer,
    },
}

/// A player's account in a wallet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalletAccount {
    /// Minor units.
    pub balance: i64,
    /// Blocked players are refused `user_blocked`.
    pub blocked: bool,
    /// The account's currency.
    pub currency: Currency,
}

/// Reads a received mutation body, with the `Idempotency-Key` header if one was sent.
pub fn read_mutation(body: &[u8], idempotency_key_header: Option<&str>) -> Result<MutationRequest, WalletAnswer> {
    let request = MutationRequest::parse(body)
        .map_err(|error| WalletAnswer::refused(RefusalCode::InvalidRequest, error.to_string()))?;
    if idempotency_key_header.is_some_and(|header| header != request.idempotency_key.as_str()) {
        let message = "the Idempotency-Key header differs from the body's idempotencyKey";
        return Err(WalletAnswer::refused(RefusalCode::InvalidRequest, message));
    }
    Ok(request)
}

/// The answer owed to `request` because of what is recorded under its key, or `None`
/// when the key is new and the request may proceed.
pub fn answer_for_key(request: &MutationRequest, recorded: Option<&KeyRecord>) -> Option<WalletAnswer> {
    let fingerprint = request.fingerprint();
    match recorded? {
        KeyRecord::Settled {
            fingerprint: first,
            answer,
        } if *first == fingerprint => Some(answer.clone()),
        KeyRecord::InProgress { fingerprint: first } if *first == fingerprint => Some(WalletAnswer::in_progress()),
        _ => Some(WalletAnswer::refused(
            RefusalCode::IdempotencyKeyReused,
            "this idempotency key was first used with another payload",
        )),
    }
}

/// The business rules of one admitted mutation: `Ok` with the balance after it and the
/// applied answer (naming `reference`), or `Err` with the refusal.
pub fn apply_mutation(
    account: Option<&WalletAccount>,
    request: &MutationRequest,
    reference: RemoteReference,
) -> Result<(i64, WalletAnswer), WalletAnswer> {
    let account = account.ok_or_else(|| WalletAnswer::refused(RefusalCode::UserNotFound, "no such player"))?;
    if account.blocked {
        return Err(WalletAnswer::refused(RefusalCode::UserBlocked, "the player is blocked"));
    }
    if request.currency != account.currency {
        return Err(WalletAnswer::refused(
            RefusalCode::CurrencyMismatch,
            format!("the wallet is in {}", account.currency),
        ));
    }
    let amount = request.amount.minor_units();
    let balance = match request.direction {
        Direction::Debit if account.balance < amount => {
            let message = format!("balance {} is below {amount}", account.balance);
            return Err(WalletAnswer::refused(RefusalCode::InsufficientFunds, message));
        }
        Direction::Debit => account.balance - amount,
        Direction::Credit => account
            .balance
            .checked_add(amount)
            .ok_or_else(|| WalletAnswer::refused(RefusalCode::LimitExceeded, "the balance would overflow"))?,
    };
    Ok((balance, WalletAnswer::applied(reference, balance)))
}

/// Reads a balance request body; 400 `invalid_request` when it is not one.
pub fn read_balance_request(body: &[u8]) -> Result<BalanceRequest, WalletAnswer> {
    serde_json::from_slice(body).map_err(|error| WalletAnswer::refused(RefusalCode::InvalidRequest, error.to_string()))
}

/// The answer to a balance read of `external_user_id`, whose account is `account`.
pub fn answer_balance_read(account: Option<&WalletAccount>, external_user_id: &str) -> WalletAnswer {
    match account {
        None => WalletAnswer::refused(RefusalCode::UserNotFound, "no such player"),
        Some(account) if account.blocked => WalletAnswer::refused(RefusalCode::UserBlocked, "the player is blocked"),
        Some(account) => WalletAnswer::balance(external_user_id, account.balance, account.currency),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::samples;
    use crate::money::Amount;
    use crate::mutation::WalletMutation;

    fn idr() -> Currency {
        "IDR".parse().unwrap()
    }

    fn request(index: usize, amount: i64) -> MutationRequest {
        let mutation = WalletMutation::new("p", Amount::new(amount).unwrap(), idr(), samples::all()[index]).unwrap();
        MutationRequest::of(&mutation, "2026-11-22T10:15:30Z".parse().unwrap())
    }

    fn reference() -> RemoteReference {
        RemoteReference::parse("sim-1").unwrap()
    }

    #[test]
    fn a_new_key_proceeds_and_a_known_one_is_answered_from_its_record() {
        let buy = request(0, 300);
        assert_eq!(answer_for_key(&buy, None), None);
        let in_progress = KeyRecord::InProgress {
            fingerprint: buy.fingerprint(),
        };
        assert_eq!(
            answer_for_key(&buy, Some(&in_progress)),
            Some(WalletAnswer::in_progress())
        );
        let first = WalletAnswer::applied(reference(), 700);
        let settled = KeyRecord::Settled {
            fingerprint: buy.fingerprint(),
            answer: first.clone(),
        };
        assert_eq!(answer_for_key(&buy, Some(&settled)), Some(first));
        let other = request(0, 301);
        for record in [&in_progress, &settled] {
            let answer = answer_for_key(&other, Some(record)).unwrap();
            assert_eq!(answer.status, 422);
        }
    }

    #[test]
    fn debits_need_the_money_and_credits_add_it() {
        let account = WalletAccount {
            balance: 1_000,
            blocked: false,
            currency: idr(),
        };
        let (balance, answer) = apply_mutation(Some(&account), &request(0, 300), reference()).unwrap();
        assert_eq!((balance, answer.is_applied()), (700, true));
        assert_eq!(
            apply_mutation(Some(&account), &request(0, 1_001), reference())
                .unwrap_err()
                .status,
            402
        );
        assert_eq!(
            apply_mutation(Some(&account), &request(1, 5), reference()).unwrap().0,
            1_005
        );
        assert_eq!(
            apply_mutation(None, &request(1, 5), reference()).unwrap_err().status,
            404
        );
        let blocked = WalletAccount {
            blocked: true,
            ..account
        };
        assert_eq!(
            apply_mutation(Some(&blocked), &request(1, 5), reference())
                .unwrap_err()
                .status,
            403
        );
        let euros = WalletAccount {
            currency: "EUR".parse().unwrap(),
            ..account
        };
        assert_eq!(
            apply_mutation(Some(&euros), &request(1, 5), reference())
                .unwrap_err()
                .status,
            422
        );
    }

    #[test]
    fn a_header_naming_another_key_is_invalid() {
        let body = request(0, 300).to_bytes().unwrap();
        assert!(read_mutation(&body, Some("buy:trd_00000000000000000000000002")).is_ok());
        assert_eq!(read_mutation(&body, Some("sell:x")).unwrap_err().status, 400);
        assert_eq!(read_mutation(b"{}", None).unwrap_err().status, 400);
    }
}
