//! What the fake wallet records of every mutation it receives, and the faults a test can
//! make it commit.

use std::time::Duration;

use opinion_wallet::{MutationRequest, RefusalCode};
use time::OffsetDateTime;

/// A fault the wallet commits on the next mutation of a player (see `FakeWallet::fail_next`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Holds the request for this long, then applies it and answers. While held, the same
    /// key gets `409 idempotency_key_in_progress`; a caller with a shorter time-out times
    /// out although the mutation is applied.
    SlowAnswer(Duration),
    /// Answers this status (a 5xx, a 429, …) without applying anything; the key stays free.
    ServerError(u16),
    /// Applies the mutation, then answers 500: the mutation moved money but the answer says failure.
    ApplyThenServerError,
    /// Reads the request, then closes the connection without answering, after applying
    /// the mutation (`applied: true`) or without applying it (`applied: false`).
    DropConnection {
        /// Whether the mutation is applied before the connection is closed.
        applied: bool,
    },
    /// Answers 200 with a body that is not JSON (a proxy's page, a broken wallet), after
    /// applying the mutation (`applied: true`) or without applying it.
    Garbage {
        /// Whether the mutation is applied before the answer.
        applied: bool,
    },
    /// Refuses with this code whatever the balance (e.g. `InsufficientFunds`,
    /// `LimitExceeded`), recorded under the key like any refusal.
    Refuse(RefusalCode),
}

/// A way a broken wallet breaks the contract, always (unlike a [`Fault`], which is one
/// mutation's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Breakage {
    /// Applies a repeat of an applied key again, answering it as a new mutation.
    DoubleAppliesRepeats,
    /// Accepts mutations lacking required metadata (fills the gaps itself).
    IgnoresMetadata,
    /// Answers 200 `applied` to a debit above the balance, moving nothing.
    AcceptsOverdraft,
}

/// Whether a request's signature was checked and how it came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureCheck {
    /// No secret is set, so nothing was checked.
    NotChecked,
    /// A set secret verified it.
    Valid,
    /// No set secret verified it; it was answered `401 invalid_signature`.
    Invalid,
}

/// What the wallet did with the connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedgerAnswer {
    /// Still being handled (a slow answer).
    Pending,
    /// Answered with this status and body.
    Answered {
        /// The status.
        status: u16,
        /// The body.
        body: String,
    },
    /// Closed without answering.
    Dropped,
}

/// One mutation request as received, and what came of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerEntry {
    /// When it arrived (UTC).
    pub received_at: OffsetDateTime,
    /// The body as received.
    pub body: String,
    /// The body read as a contract request, if it is one.
    pub request: Option<MutationRequest>,
    /// The signature check.
    pub signature: SignatureCheck,
    /// The fault committed on it, if any.
    pub fault: Option<Fault>,
    /// Whether this request moved money (a replay of an applied key did not).
    pub applied: bool,
    /// The answer given.
    pub answer: LedgerAnswer,
}

impl LedgerEntry {
    /// The idempotency key, if the body had one.
    pub fn idempotency_key(&self) -> Option<&str> {
        self.request.as_ref().map(|request| request.idempotency_key.as_str())
    }

    /// The amount in minor units, if the body had one.
    pub fn amount(&self) -> Option<i64> {
        self.request.as_ref().map(|request| request.amount.minor_units())
    }

    /// A metadata value, e.g. `metadata("marketId")`.
    pub fn metadata(&self, key: &str) -> Option<&str> {
        self.request
            .as_ref()
            .and_then(|request| request.metadata.get(key))
            .map(String::as_str)
    }

    /// The status answered, if one was.
    pub fn status(&self) -> Option<u16> {
        match self.answer {
            LedgerAnswer::Answered { status, .. } => Some(status),
            LedgerAnswer::Pending | LedgerAnswer::Dropped => None,
        }
    }
}
