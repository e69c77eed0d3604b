//! `FakeWallet`: an operator's wallet adapter for tests, a real HTTP server on
//! `127.0.0.1:0` that obeys the wallet adapter contract (`docs/operator/wallet-adapter.md`). Its
//! answers are `opinion_wallet::ReferenceWallet`'s (balances, durable deduplication by
//! key with the payload compared, business refusals); on top of it, it checks signatures,
//! keeps a ledger of every mutation received, and commits faults on request.
//!
//! Use it from a black-box test like an operator's wallet:
//!
//! ```no_run
//! # async fn demo() {
//! use opinion_testkit::{FakeWallet, Fault};
//! let wallet = FakeWallet::start().await; // accounts in IDR; start_in("EUR") for another currency
//! wallet.open_account("player-2", 1_000_000, "IDR"); // one account in a currency of its own
//! wallet.set_balance("player-1", 500_000);
//! // PUT /api/operator/wallet-adapter {"baseUrl": wallet.url()} answers a signingSecret:
//! # let signing_secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
//! wallet.set_secret(signing_secret); // from now on every call must verify under it
//! wallet.fail_next("player-1", Fault::DropConnection { applied: true });
//! // … trade through the API: the buy is applied but its answer is lost …
//! assert_eq!(wallet.balance("player-1"), Some(350_000));
//! let entry = &wallet.ledger()[0];
//! assert_eq!(entry.metadata("marketId"), Some("mkt_…"));
//! # }
//! ```
//!
//! [`FakeWallet::break_contract`] makes one that breaks the contract on purpose (see
//! [`Breakage`]).
//!
//! Faults are queued per player and each is taken by that player's next mutation with a
//! new key (a repeated key is answered from the record, without a fault). Until a secret
//! is set, signatures are not checked. The server stops when the `FakeWallet` is dropped.

mod handler;
mod ledger;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use opinion_wallet::{Currency, MutationRequest, ReferenceWallet};
use opinion_webhook::SigningSecret;
use tokio::task::JoinHandle;

pub use ledger::{Breakage, Fault, LedgerAnswer, LedgerEntry, SignatureCheck};

use crate::http_wire::{accept_each, bind_local};

/// Everything the server shares between connections.
struct State {
    wallet: ReferenceWallet,
    secrets: Vec<SigningSecret>,
    faults: HashMap<String, VecDeque<Fault>>,
    ledger: Vec<LedgerEntry>,
    breakage: Option<Breakage>,
    fault_source: Option<FaultSource>,
}

/// Decides a fault for a mutation no queued fault applies to (see
/// [`FakeWallet::set_fault_source`]).
pub type FaultSource = Arc<dyn Fn(&MutationRequest) -> Option<Fault> + Send + Sync>;

/// A contract-abiding wallet adapter on a local port.
pub struct FakeWallet {
    url: String,
    state: Arc<Mutex<State>>,
    task: JoinHandle<()>,
}

impl FakeWallet {
    /// Starts a wallet keeping accounts in IDR.
    pub async fn start() -> Self {
        Self::start_in("IDR").await
    }

    /// Starts a wallet keeping accounts in `currency` (an ISO 4217 code).
    pub async fn start_in(currency: &str) -> Self {
        let currency: Currency = currency
            .parse()
            .unwrap_or_else(|error| panic!("FakeWallet currency: {error}"));
        let listener = bind_local().await;
        let url = match listener.local_addr() {
            Ok(address) => format!("http://{address}"),
            Err(error) => panic!("the fake wallet has no address: {error}"),
        };
        let state = Arc::new(Mutex::new(State {
            wallet: ReferenceWallet::new(currency),
            secrets: Vec::new(),
            faults: HashMap::new(),
            ledger: Vec::new(),
            breakage: None,
            fault_source: None,
        }));
        let shared = state.clone();
        let task = tokio::spawn(accept_each(listener, move |stream| {
            handler::handle(stream, shared.clone())
        }));
        Self { url, state, task }
    }

    /// The base URL to configure (`http://127.0.0.1:<port>`).
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// Accepts only calls signed with this `whsec_…` secret.
    pub fn set_secret(&self, secret: &str) {
        self.set_secrets(&[secret]);
    }

    /// Accepts calls signed with any of these `whsec_…` secrets (e.g. before and after a rotation).
    pub fn set_secrets(&self, secrets: &[&str]) {
        let parsed = secrets
            .iter()
            .map(|text| {
                text.parse::<SigningSecret>()
                    .unwrap_or_else(|error| panic!("FakeWallet secret: {error}"))
            })
            .collect();
        self.lock().secrets = parsed;
    }

    /// From now on breaks the contract in one way, for tests proving that the
    /// full-contract wallet test catches it.
    pub fn break_contract(&self, breakage: Breakage) {
        self.lock().breakage = Some(breakage);
    }

    /// Opens the player's account in `currency` (an ISO 4217 code) with `balance`,
    /// replacing any earlier one: an IDR account for the flight product beside accounts
    /// in the wallet's currency.
    pub fn open_account(&self, external_user_id: &str, balance: i64, currency: &str) {
        let currency: Currency = currency
            .parse()
            .unwrap_or_else(|error| panic!("FakeWallet currency: {error}"));
        self.lock().wallet.open_account(external_user_id, balance, currency);
    }

    /// Opens the player's account with `balance` minor units, or sets its balance.
    pub fn set_balance(&self, external_user_id: &str, balance: i64) {
        self.lock().wallet.set_balance(external_user_id, balance);
    }

    /// The player's balance, if the wallet knows the player.
    pub fn balance(&self, external_user_id: &str) -> Option<i64> {
        self.lock().wallet.balance(external_user_id)
    }

    /// Blocks a known player: mutations and balance reads are refused `user_blocked`.
    pub fn block(&self, external_user_id: &str) {
        self.lock().wallet.set_blocked(external_user_id, true);
    }

    /// Queues `fault` for the player's next mutation with a new key; call again to
    /// queue faults for the mutations after it.
    pub fn fail_next(&self, external_user_id: &str, fault: Fault) {
        self.lock()
            .faults
            .entry(external_user_id.to_owned())
            .or_default()
            .push_back(fault);
    }

    /// Asks `source` for the fault of every mutation with a new key that no queued
    /// fault applies to: faults at set rates, for a long run with many players.
    pub fn set_fault_source(&self, source: FaultSource) {
        self.lock().fault_source = Some(source);
    }

    /// Every mutation request received so far, in order of arrival.
    pub fn ledger(&self) -> Vec<LedgerEntry> {
        self.lock().ledger.clone()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for FakeWallet {
    fn drop(&mut self) {
        self.task.abort();
    }
}
