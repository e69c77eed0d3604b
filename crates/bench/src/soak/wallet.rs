//! The faulty wallet: testkit's `FakeWallet` (the contract's reference wallet: balances,
//! durable deduplication by key, signature checks, a ledger of every request and of what
//! moved money) committing faults at the soak's rates. Its ledger is the truth of what
//! money really moved, the reconciliation's first side.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use opinion_testkit::{FakeWallet, Fault, LedgerEntry};
use rand::Rng;

use crate::settings::{FaultRates, Settings};

/// The balance every player starts with: no buy is ever refused for lack of money.
pub const OPENING_BALANCE: i64 = 1_000_000_000_000;

/// How far past the service's timeout a slow answer comes.
const SLOW_MARGIN: Duration = Duration::from_millis(700);

/// Starts the wallet in `currency` with an account for each of `players`, committing
/// faults at the rates of `settings`.
pub async fn start(settings: &Settings, currency: &str, players: &[String]) -> FakeWallet {
    let wallet = FakeWallet::start_in(currency).await;
    for player in players {
        wallet.set_balance(player, OPENING_BALANCE);
    }
    let rates = settings.faults;
    let slow = Duration::from_millis(settings.wallet_timeout_ms) + SLOW_MARGIN;
    wallet.set_fault_source(Arc::new(move |_| pick(&rates, slow, rand::thread_rng().r#gen())));
    wallet
}

/// A kind of fault, applied first or not.
type FaultKind = fn(bool) -> Fault;

/// The fault for a draw in `[0, 1)`: each kind over its own slice of the interval, each
/// but the slow answer applied first in the lower half of its slice.
fn pick(rates: &FaultRates, slow: Duration, draw: f64) -> Option<Fault> {
    let kinds: [(f64, FaultKind); 3] = [
        (rates.server_error, |applied| {
            if applied {
                Fault::ApplyThenServerError
            } else {
                Fault::ServerError(503)
            }
        }),
        (rates.garbage, |applied| Fault::Garbage { applied }),
        (rates.drop, |applied| Fault::DropConnection { applied }),
    ];
    if draw < rates.slow {
        return Some(Fault::SlowAnswer(slow));
    }
    let mut from = rates.slow;
    for (rate, fault) in kinds {
        if draw < from + rate {
            return Some(fault(draw < from + rate / 2.0));
        }
        from += rate;
    }
    None
}

/// What the ledger says moved money, by idempotency key.
#[derive(Debug, Default)]
pub struct AppliedMutations {
    /// Every key applied, with its flow, direction, amount and how many requests applied it.
    pub by_key: HashMap<String, AppliedMutation>,
    /// Requests received, replays and faults included.
    pub requests: usize,
    /// Requests that carried a fault.
    pub faulted: usize,
    /// Requests still being answered (a slow answer) when read.
    pub pending: usize,
}

/// One key's applied mutation.
#[derive(Debug, Clone)]
pub struct AppliedMutation {
    /// The flow (`buy`, `sell`, …).
    pub flow: String,
    /// `debit` or `credit`.
    pub direction: String,
    /// Minor units.
    pub amount: i64,
    /// Requests under this key that moved money: more than one is a double application.
    pub times: usize,
    /// The trade a buy or sale pays (`tradeId`).
    pub trade_id: Option<String>,
    /// The debit a buy compensation gives back (`compensatedOperationId`).
    pub compensated: Option<String>,
    /// The redemption a payout pays (`redemptionId`).
    pub redemption_id: Option<String>,
}

/// Reads the ledger.
pub fn applied(entries: &[LedgerEntry]) -> AppliedMutations {
    let mut applied = AppliedMutations {
        requests: entries.len(),
        ..AppliedMutations::default()
    };
    for entry in entries {
        if entry.fault.is_some() {
            applied.faulted += 1;
        }
        if entry.answer == opinion_testkit::LedgerAnswer::Pending {
            applied.pending += 1;
        }
        let (true, Some(request)) = (entry.applied, &entry.request) else {
            continue;
        };
        applied
            .by_key
            .entry(request.idempotency_key.as_str().to_owned())
            .and_modify(|mutation| mutation.times += 1)
            .or_insert_with(|| AppliedMutation {
                flow: request.flow.to_string(),
                direction: request.direction.to_string(),
                amount: request.amount.minor_units(),
                times: 1,
                trade_id: request.metadata.get("tradeId").cloned(),
                compensated: request.metadata.get("compensatedOperationId").cloned(),
                redemption_id: request.metadata.get("redemptionId").cloned(),
            });
    }
    applied
}

#[cfg(test)]
mod tests {
    use super::*;

    const RATES: FaultRates = FaultRates {
        slow: 0.1,
        server_error: 0.2,
        garbage: 0.2,
        drop: 0.2,
    };

    #[test]
    fn each_fault_has_its_slice_and_the_rest_is_healthy() {
        let slow = Duration::from_secs(2);
        assert_eq!(pick(&RATES, slow, 0.05), Some(Fault::SlowAnswer(slow)));
        assert_eq!(pick(&RATES, slow, 0.15), Some(Fault::ApplyThenServerError));
        assert_eq!(pick(&RATES, slow, 0.25), Some(Fault::ServerError(503)));
        assert_eq!(pick(&RATES, slow, 0.35), Some(Fault::Garbage { applied: true }));
        assert_eq!(pick(&RATES, slow, 0.45), Some(Fault::Garbage { applied: false }));
        assert_eq!(pick(&RATES, slow, 0.55), Some(Fault::DropConnection { applied: true }));
        assert_eq!(pick(&RATES, slow, 0.65), Some(Fault::DropConnection { applied: false }));
        assert_eq!(pick(&RATES, slow, 0.75), None);
    }
}
