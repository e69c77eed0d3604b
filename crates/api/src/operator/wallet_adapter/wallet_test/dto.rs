//! The full-contract wallet test on the wire.

use opinion_app::wallet::{CheckResult, Exchange, WalletTestReport};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What to test with; both fields optional.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WalletTestBody {
    /// The dedicated test player of your wallet (default `opinion-wallet-test`); it needs
    /// a balance of at least three test amounts.
    #[serde(default)]
    pub external_user_id: Option<String>,
    /// The test amount in minor units, an integer string (default "100").
    #[serde(default)]
    pub amount: Option<String>,
}

/// The test's report.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WalletTestReportBody {
    /// `passed` when every check passed, else `failed`.
    pub verdict: String,
    /// The adapter tested.
    pub base_url: String,
    /// Its configured timeout.
    pub timeout_ms: u64,
    /// The test player.
    pub external_user_id: String,
    /// The test amount, minor units.
    pub amount: String,
    /// Every check, in the order run.
    pub checks: Vec<CheckBody>,
    /// The end balance read, and the mutation sent to undo what the wallet applied but
    /// should have refused (only the read for a passing wallet).
    pub cleanup: Vec<ExchangeBody>,
    /// The test player's balance change over the whole test (zero for a passing wallet).
    pub net_change: Option<String>,
}

/// One check.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckBody {
    /// Stable name.
    pub name: String,
    /// `passed` or `failed`.
    pub verdict: String,
    /// What passing means.
    pub expected: String,
    /// What was sent and what came back.
    pub exchanges: Vec<ExchangeBody>,
    /// How long its calls took together.
    pub elapsed_ms: u64,
    /// On failure: what was wrong.
    pub problem: Option<String>,
    /// On failure: what to change in the wallet adapter.
    pub fix: Option<String>,
}

/// One call and its answer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExchangeBody {
    /// The call.
    pub call: String,
    /// The `Idempotency-Key` sent.
    pub idempotency_key: Option<String>,
    /// The exact body sent.
    pub sent: String,
    /// The status and body received, or what happened instead.
    pub received: String,
    /// How long it took.
    pub elapsed_ms: u64,
}

fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl From<Exchange> for ExchangeBody {
    fn from(exchange: Exchange) -> Self {
        Self {
            call: exchange.call,
            idempotency_key: exchange.idempotency_key,
            sent: exchange.sent,
            received: exchange.received,
            elapsed_ms: millis(exchange.elapsed),
        }
    }
}

impl From<CheckResult> for CheckBody {
    fn from(check: CheckResult) -> Self {
        Self {
            name: check.name,
            verdict: check.verdict.as_str().to_owned(),
            expected: check.expected,
            exchanges: check.exchanges.into_iter().map(ExchangeBody::from).collect(),
            elapsed_ms: millis(check.elapsed),
            problem: check.problem,
            fix: check.fix,
        }
    }
}

impl From<WalletTestReport> for WalletTestReportBody {
    fn from(report: WalletTestReport) -> Self {
        Self {
            verdict: if report.passed { "passed" } else { "failed" }.to_owned(),
            base_url: report.base_url,
            timeout_ms: millis(report.timeout),
            external_user_id: report.external_user_id,
            amount: report.amount.to_string(),
            checks: report.checks.into_iter().map(CheckBody::from).collect(),
            cleanup: report.cleanup.into_iter().map(ExchangeBody::from).collect(),
            net_change: report.net_change.map(|change| change.to_string()),
        }
    }
}
