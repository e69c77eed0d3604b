//! The wallet test's report: a verdict, and per check what was sent, what came back,
//! how long it took and what to change.

use std::time::Duration;

/// The whole report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletTestReport {
    /// Whether every check passed.
    pub passed: bool,
    /// The adapter tested.
    pub base_url: String,
    /// Its configured timeout.
    pub timeout: Duration,
    /// The test player.
    pub external_user_id: String,
    /// The test amount, minor units.
    pub amount: i64,
    /// The checks, in the order run.
    pub checks: Vec<CheckResult>,
    /// The end balance read, and the mutation sent after the checks to undo what a
    /// wallet applied but should have refused (only the read for a wallet that passes).
    pub cleanup: Vec<Exchange>,
    /// The test player's balance change over the whole test, cleanup included, when
    /// both balance reads worked.
    pub net_change: Option<i64>,
}

/// One check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckResult {
    /// Its stable name (`debit`, `repeat_same_key`, `metadata_buy_market_id`, …).
    pub name: String,
    /// Passed or failed.
    pub verdict: Verdict,
    /// What passing means.
    pub expected: String,
    /// The calls it made.
    pub exchanges: Vec<Exchange>,
    /// The time of its calls together.
    pub elapsed: Duration,
    /// On failure: what the operator must change.
    pub fix: Option<String>,
    /// On failure: what was wrong.
    pub problem: Option<String>,
}

/// Passed or failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The adapter did what the contract requires.
    Passed,
    /// It did not.
    Failed,
}

impl Verdict {
    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Passed => "passed",
            Self::Failed => "failed",
        }
    }
}

/// One call and its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    /// `POST /v1/mutations` or `POST /v1/balance`, and what was special about it.
    pub call: String,
    /// The `Idempotency-Key` sent, if any.
    pub idempotency_key: Option<String>,
    /// The exact body sent.
    pub sent: String,
    /// What came back: the status and body, or what happened instead.
    pub received: String,
    /// How long it took.
    pub elapsed: Duration,
}
