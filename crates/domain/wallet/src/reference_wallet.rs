//! How a wallet that obeys the contract (`docs/wallet-adapter.md`) answers, as a pure,
//! in-memory model: balances per player, durable deduplication by idempotency key with
//! the payload compared by fingerprint, and the business refusals. The test wallet and
//! the staging simulator are this model behind an HTTP server; signatures are checked by
//! them before a request reaches the model, so an unauthenticated request never touches
//! a key.
//!
//! A mutation is handled in two steps, so that a server can stand between them (delay,
//! fail, drop the connection): [`ReferenceWallet::admit`] reads the request and checks
//! its key, then [`ReferenceWallet::settle`] applies it (or [`ReferenceWallet::refuse`]
//! refuses it) and records the answer under the key, or [`ReferenceWallet::release`]
//! gives the key up unanswered. While a key is admitted and not settled, the same key
//! gets `409 idempotency_key_in_progress`.
//!
//! | request | answer |
//! |---|---|
//! | unreadable, or the `Idempotency-Key` header differs from the body | 400 `invalid_request`, nothing recorded |
//! | key settled, same payload | the recorded answer, again |
//! | key settled or in progress, other payload | 422 `idempotency_key_reused` |
//! | key in progress, same payload | 409 `idempotency_key_in_progress` |
//! | unknown player / blocked / other currency / debit above balance | 404 / 403 / 422 / 402, recorded |
//! | otherwise | applied: 200 with the new balance, recorded |

use std::collections::BTreeMap;

use crate::balance::BalanceRequest;
use crate::fingerprint::RequestFingerprint;
use crate::flow::Direction;
use crate::idempotency_key::IdempotencyKey;
use crate::money::Currency;
use crate::refusal::RefusalCode;
use crate::remote_reference::RemoteReference;
use crate::request_body::MutationRequest;
use crate::wallet_answer::WalletAnswer;

/// A player's account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Account {
    balance: i64,
    blocked: bool,
}

/// What is recorded under a key.
#[derive(Debug, Clone, PartialEq, Eq)]
enum KeyRecord {
    InProgress {
        fingerprint: RequestFingerprint,
    },
    Settled {
        fingerprint: RequestFingerprint,
        answer: WalletAnswer,
    },
}

/// What to do with a received mutation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission {
    /// A new key, now in progress: settle, refuse or release it.
    Proceed(MutationRequest),
    /// Answer this without applying anything.
    Answer(WalletAnswer),
}

/// An in-memory wallet in one currency that answers as the contract requires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceWallet {
    currency: Currency,
    accounts: BTreeMap<String, Account>,
    keys: BTreeMap<IdempotencyKey, KeyRecord>,
    applied: u64,
}

impl ReferenceWallet {
    /// An empty wallet keeping accounts in `currency`.
    pub fn new(currency: Currency) -> Self {
        Self {
            currency,
            accounts: BTreeMap::new(),
            keys: BTreeMap::new(),
            applied: 0,
        }
    }

    /// The wallet's currency.
    pub fn currency(&self) -> Currency {
        self.currency
    }

    /// Opens the player's account or sets its balance.
    pub fn set_balance(&mut self, external_user_id: &str, balance: i64) {
        self.accounts
            .entry(external_user_id.to_owned())
            .and_modify(|account| account.balance = balance)
            .or_insert(Account {
                balance,
                blocked: false,
            });
    }

    /// Blocks or unblocks a known player.
    pub fn set_blocked(&mut self, external_user_id: &str, blocked: bool) {
        if let Some(account) = self.accounts.get_mut(external_user_id) {
            account.blocked = blocked;
        }
    }

    /// The player's balance, if the wallet knows the player.
    pub fn balance(&self, external_user_id: &str) -> Option<i64> {
        self.accounts.get(external_user_id).map(|account| account.balance)
    }

    /// Step one: reads `body` (with the `Idempotency-Key` header, if sent) and checks its key.
    pub fn admit(&mut self, body: &[u8], idempotency_key_header: Option<&str>) -> Admission {
        let request = match MutationRequest::parse(body) {
            Ok(request) => request,
            Err(error) => {
                return Admission::Answer(WalletAnswer::refused(RefusalCode::InvalidRequest, error.to_string()));
            }
        };
        if idempotency_key_header.is_some_and(|header| header != request.idempotency_key.as_str()) {
            let message = "the Idempotency-Key header differs from the body's idempotencyKey";
            return Admission::Answer(WalletAnswer::refused(RefusalCode::InvalidRequest, message));
        }
        let fingerprint = request.fingerprint();
        match self.keys.get(&request.idempotency_key) {
            Some(KeyRecord::Settled {
                fingerprint: first,
                answer,
            }) if *first == fingerprint => Admission::Answer(answer.clone()),
            Some(KeyRecord::InProgress { fingerprint: first }) if *first == fingerprint => {
                Admission::Answer(WalletAnswer::in_progress())
            }
            Some(_) => Admission::Answer(WalletAnswer::refused(
                RefusalCode::IdempotencyKeyReused,
                "this idempotency key was first used with another payload",
            )),
            None => {
                self.keys
                    .insert(request.idempotency_key.clone(), KeyRecord::InProgress { fingerprint });
                Admission::Proceed(request)
            }
        }
    }

    /// Step two: applies an admitted request, or refuses it for a business reason, and
    /// records the answer under its key.
    pub fn settle(&mut self, request: &MutationRequest) -> WalletAnswer {
        let answer = match self.apply(request) {
            Ok(answer) | Err(answer) => answer,
        };
        self.record(request, answer)
    }

    /// Step two, refusing an admitted request with `code` whatever the balance, and
    /// recording the refusal under its key.
    pub fn refuse(&mut self, request: &MutationRequest, code: RefusalCode) -> WalletAnswer {
        self.record(request, WalletAnswer::refused(code, "refused by the wallet"))
    }

    /// Step two, giving an admitted request up: nothing applied, nothing recorded, and
    /// the key free again.
    pub fn release(&mut self, request: &MutationRequest) {
        if matches!(
            self.keys.get(&request.idempotency_key),
            Some(KeyRecord::InProgress { .. })
        ) {
            self.keys.remove(&request.idempotency_key);
        }
    }

    /// Both steps at once, as an ordinary wallet does.
    pub fn receive(&mut self, body: &[u8], idempotency_key_header: Option<&str>) -> WalletAnswer {
        match self.admit(body, idempotency_key_header) {
            Admission::Proceed(request) => self.settle(&request),
            Admission::Answer(answer) => answer,
        }
    }

    /// Answers a balance read.
    pub fn read_balance(&self, body: &[u8]) -> WalletAnswer {
        let request: BalanceRequest = match serde_json::from_slice(body) {
            Ok(request) => request,
            Err(error) => return WalletAnswer::refused(RefusalCode::InvalidRequest, error.to_string()),
        };
        match self.accounts.get(&request.external_user_id) {
            None => WalletAnswer::refused(RefusalCode::UserNotFound, "no such player"),
            Some(account) if account.blocked => {
                WalletAnswer::refused(RefusalCode::UserBlocked, "the player is blocked")
            }
            Some(account) => WalletAnswer::balance(&request.external_user_id, account.balance, self.currency),
        }
    }

    /// The business rules of one mutation: `Ok` applied, `Err` refused.
    fn apply(&mut self, request: &MutationRequest) -> Result<WalletAnswer, WalletAnswer> {
        let currency = self.currency;
        let account = self
            .accounts
            .get_mut(&request.external_user_id)
            .ok_or_else(|| WalletAnswer::refused(RefusalCode::UserNotFound, "no such player"))?;
        if account.blocked {
            return Err(WalletAnswer::refused(RefusalCode::UserBlocked, "the player is blocked"));
        }
        if request.currency != currency {
            return Err(WalletAnswer::refused(
                RefusalCode::CurrencyMismatch,
                format!("the wallet is in {currency}"),
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
        let reference = RemoteReference::parse(&format!("rw-{:06}", self.applied + 1))
            .map_err(|error| WalletAnswer::error(500, "internal_error", error.to_string()))?;
        account.balance = balance;
        self.applied += 1;
        Ok(WalletAnswer::applied(reference, balance))
    }

    fn record(&mut self, request: &MutationRequest, answer: WalletAnswer) -> WalletAnswer {
        let record = KeyRecord::Settled {
            fingerprint: request.fingerprint(),
            answer: answer.clone(),
        };
        self.keys.insert(request.idempotency_key.clone(), record);
        answer
    }
}

#[cfg(test)]
mod tests;
