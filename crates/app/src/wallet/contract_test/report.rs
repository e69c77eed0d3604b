//! The wallet test's report: per product a section with its verdict and, per check, what
//! was sent, what came back, how long it took and what to change. The report is kept
//! with its run (as JSON, in the shape serialized here), so what an enablement relied on
//! can be read back.

use std::time::Duration;

use opinion_core::WalletTestRunId;
use opinion_wallet::Currency;
use serde::{Serialize, Serializer};
use time::OffsetDateTime;

/// The whole report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WalletTestReport {
    /// The run, as kept.
    pub id: WalletTestRunId,
    /// When the run started.
    #[serde(with = "time::serde::rfc3339")]
    pub ran_at: OffsetDateTime,
    /// The adapter tested.
    pub base_url: String,
    /// Its configured timeout.
    #[serde(rename = "timeoutMs", serialize_with = "millis")]
    pub timeout: Duration,
    /// Opinion's checks, in the operator's currency.
    pub opinion: SectionReport,
    /// The flight product's checks: its native-IDR reasons.
    pub flight: SectionReport,
}

/// The checks of one product, run with their own test player and currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SectionReport {
    /// Whether every check of the section passed.
    pub passed: bool,
    /// The test player.
    pub external_user_id: String,
    /// The test amount, minor units (whole rupiah for IDR).
    pub amount: i64,
    /// The currency of every mutation of the section.
    pub currency: Currency,
    /// The checks, in the order run.
    pub checks: Vec<CheckResult>,
    /// The end balance read, and the mutation sent after the checks to undo what a
    /// wallet applied but should have refused (only the read for a wallet that passes).
    pub cleanup: Vec<Exchange>,
    /// The test player's balance change over the section, cleanup included, when both
    /// balance reads worked.
    pub net_change: Option<i64>,
    /// Why the section made no call at all, when it did not run (then it has not passed
    /// and has no checks).
    pub not_run: Option<NotRun>,
}

impl SectionReport {
    /// A section that made no call, for `reason`.
    pub(super) fn not_run(external_user_id: String, amount: i64, currency: Currency, reason: NotRun) -> Self {
        Self {
            passed: false,
            external_user_id,
            amount,
            currency,
            checks: Vec::new(),
            cleanup: Vec::new(),
            net_change: None,
            not_run: Some(reason),
        }
    }
}

/// Why a section of the test made no wallet call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NotRun {
    /// In production, the operator held no valid production authorization when the
    /// flight section was due: no flight wallet call may be made for it.
    ProductionAuthorizationMissing,
}

impl NotRun {
    /// Its stable code, as on the wire.
    pub const fn code(self) -> &'static str {
        match self {
            Self::ProductionAuthorizationMissing => "production_authorization_missing",
        }
    }

    /// What the operator can do about it.
    pub const fn detail(self) -> &'static str {
        match self {
            Self::ProductionAuthorizationMissing => {
                "in production no flight wallet call is made for an operator without a valid production authorization; ask platform staff to record one, then run the test again"
            }
        }
    }
}

/// One check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckResult {
    /// Its stable name (`debit`, `repeat_same_key`, `flight_ticket_payout`, …).
    pub name: String,
    /// Passed or failed.
    pub verdict: Verdict,
    /// What passing means.
    pub expected: String,
    /// The calls it made.
    pub exchanges: Vec<Exchange>,
    /// The time of its calls together.
    #[serde(rename = "elapsedMs", serialize_with = "millis")]
    pub elapsed: Duration,
    /// On failure: what the operator must change.
    pub fix: Option<String>,
    /// On failure: what was wrong.
    pub problem: Option<String>,
}

/// Passed or failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The adapter did what the contract requires.
    Passed,
    /// It did not.
    Failed,
}

impl Verdict {
    /// The verdict of a section whose checks all passed, or not.
    pub fn of(passed: bool) -> Self {
        if passed { Self::Passed } else { Self::Failed }
    }

    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Passed => "passed",
            Self::Failed => "failed",
        }
    }
}

/// One call and its answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
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
    #[serde(rename = "elapsedMs", serialize_with = "millis")]
    pub elapsed: Duration,
}

fn millis<S: Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(u64::try_from(duration.as_millis()).unwrap_or(u64::MAX))
}
