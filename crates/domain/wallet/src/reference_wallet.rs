//! How a wallet that obeys the contract (`docs/operator/wallet-adapter.md`) answers, as a pure,
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
//!
//! The rules themselves are `wallet_rules.rs`'s, shared with the staging simulator.

use std::collections::BTreeMap;

use crate::idempotency_key::IdempotencyKey;
use crate::money::Currency;
use crate::refusal::RefusalCode;
use crate::remote_reference::RemoteReference;
use crate::request_body::MutationRequest;
use crate::wallet_answer::WalletAnswer;
use crate::wallet_rules::{
    KeyRecord, WalletAccount, answer_balance_read, answer_for_key, apply_mutation, read_balance_request, read_mutation,
};

/// What to do with a received mutation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission {
    /// A new key, now in progress: settle, refuse or release it.
    Proceed(MutationRequest),
    /// Answer this without applying anything.
    Answer(WalletAnswer),
}

/// An in-memory wallet that answers as the contract requires, by the rules of
/// `wallet_rules.rs`. Accounts are in the wallet's currency unless opened in another
/// (an IDR account for the flight product beside accounts in the operator's currency).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceWallet {
    currency: Currency,
    accounts: BTreeMap<String, WalletAccount>,
    keys: BTreeMap<IdempotencyKey, KeyRecord>,
    applied: u64,
}

impl ReferenceWallet {
    /// An empty wallet keeping accounts in `currency` by default.
    pub fn new(currency: Currency) -> Self {
        Self {
            currency,
            accounts: BTreeMap::new(),
            keys: BTreeMap::new(),
            applied: 0,
        }
    }

    /// The wallet's default currency.
    pub fn currency(&self) -> Currency {
        self.currency
    }

    /// Opens the player's account in `currency` with `balance`, replacing any earlier one.
    pub fn open_account(&mut self, external_user_id: &str, balance: i64, currency: Currency) {
        let account = WalletAccount {
            balance,
            blocked: false,
            currency,
        };
        self.accounts.insert(external_user_id.to_owned(), account);
    }

    /// Opens the player's account (in the wallet's currency) or sets its balance.
    pub fn set_balance(&mut self, external_user_id: &str, balance: i64) {
        let currency = self.currency;
        self.accounts
            .entry(external_user_id.to_owned())
            .and_modify(|account| account.balance = balance)
            .or_insert(WalletAccount {
                balance,
                blocked: false,
                currency,
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
        let request = match read_mutation(body, idempotency_key_header) {
            Ok(request) => request,
            Err(answer) => return Admission::Answer(answer),
        };
        if let Some(answer) = answer_for_key(&request, self.keys.get(&request.idempotency_key)) {
            return Admission::Answer(answer);
        }
        let record = KeyRecord::InProgress {
            fingerprint: request.fingerprint(),
        };
        self.keys.insert(request.idempotency_key.clone(), record);
        Admission::Proceed(request)
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
        match read_balance_request(body) {
            Ok(request) => answer_balance_read(self.accounts.get(&request.external_user_id), &request.external_user_id),
            Err(answer) => answer,
        }
    }

    /// One mutation by the rules: `Ok` applied (the account moved), `Err` refused.
    fn apply(&mut self, request: &MutationRequest) -> Result<WalletAnswer, WalletAnswer> {
        let reference = RemoteReference::parse(&format!("rw-{:06}", self.applied + 1))
            .map_err(|error| WalletAnswer::error(500, "internal_error", error.to_string()))?;
        let (balance, answer) = apply_mutation(self.accounts.get(&request.external_user_id), request, reference)?;
        if let Some(account) = self.accounts.get_mut(&request.external_user_id) {
            account.balance = balance;
        }
        self.applied += 1;
        Ok(answer)
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
