//! The full-contract wallet test on the wire. The Opinion section's fields are the
//! report's top level, as they were before the flight section was added beside them.

use opinion_app::wallet::{CheckResult, Exchange, NotRun, SectionReport, Verdict, WalletTestReport};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

/// What to test with; every field optional.
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
    /// The flight section's test player (default `opinion-wallet-test-idr`), whose
    /// account is in IDR; it needs a balance of at least three flight test amounts.
    #[serde(default)]
    pub flight_external_user_id: Option<String>,
    /// The flight section's test amount in whole rupiah, an integer string (default "1000").
    #[serde(default)]
    pub flight_amount: Option<String>,
}

/// The test's report. The top-level `verdict`, `externalUserId`, `amount`, `checks`,
/// `cleanup` and `netChange` are Opinion's section; `flight` is the flight product's.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WalletTestReportBody {
    /// `passed` when every Opinion check passed, else `failed` (the flight section has
    /// its own verdict).
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
    /// The run, kept with its verdicts (`wtr_…`).
    pub test_run_id: String,
    /// When the run started (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub ran_at: OffsetDateTime,
    /// Each product's verdict.
    pub products: ProductVerdictsBody,
    /// The flight section: the flight product's native-IDR reasons, with their own test
    /// player in IDR.
    pub flight: WalletTestSectionBody,
}

/// Whether each product's section passed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductVerdictsBody {
    /// `passed` or `failed`: the Opinion section (the top-level `verdict`).
    pub opinion: String,
    /// `passed`, `failed` or `not_run` (see the section's `notRun`): the flight section.
    /// Enabling the flight product needs it passed, by the latest run against the
    /// adapter as configured now.
    pub flight: String,
}

/// One product's section of the report.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WalletTestSectionBody {
    /// `passed` when every check of the section passed, `not_run` when the section made
    /// no call (see `notRun`), else `failed`.
    pub verdict: String,
    /// The section's test player.
    pub external_user_id: String,
    /// The section's test amount, minor units of its currency (whole rupiah for IDR).
    pub amount: String,
    /// The currency of every mutation of the section.
    #[schema(example = "IDR")]
    pub currency: String,
    /// The section's checks, in the order run.
    pub checks: Vec<CheckBody>,
    /// The end balance read, and the mutation sent to undo what the wallet applied but
    /// should have refused (only the read for a passing wallet).
    pub cleanup: Vec<ExchangeBody>,
    /// The test player's balance change over the section (zero for a passing wallet).
    pub net_change: Option<String>,
    /// Why the section made no call, when its verdict is `not_run`; else null.
    pub not_run: Option<NotRunBody>,
}

/// Why a section of the test made no call.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotRunBody {
    /// Stable code: `production_authorization_missing` (in production, the flight
    /// section calls the wallet only while platform staff's production authorization of
    /// your operator is valid).
    #[schema(example = "production_authorization_missing")]
    pub reason: String,
    /// What to do about it.
    pub detail: String,
}

impl From<NotRun> for NotRunBody {
    fn from(reason: NotRun) -> Self {
        Self {
            reason: reason.code().to_owned(),
            detail: reason.detail().to_owned(),
        }
    }
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

impl From<SectionReport> for WalletTestSectionBody {
    fn from(section: SectionReport) -> Self {
        Self {
            verdict: match section.not_run {
                Some(_) => "not_run",
                None => Verdict::of(section.passed).as_str(),
            }
            .to_owned(),
            external_user_id: section.external_user_id,
            amount: section.amount.to_string(),
            currency: section.currency.as_str().to_owned(),
            checks: section.checks.into_iter().map(CheckBody::from).collect(),
            cleanup: section.cleanup.into_iter().map(ExchangeBody::from).collect(),
            net_change: section.net_change.map(|change| change.to_string()),
            not_run: section.not_run.map(NotRunBody::from),
        }
    }
}

impl From<WalletTestReport> for WalletTestReportBody {
    fn from(report: WalletTestReport) -> Self {
        let opinion = WalletTestSectionBody::from(report.opinion);
        let flight = WalletTestSectionBody::from(report.flight);
        Self {
            products: ProductVerdictsBody {
                opinion: opinion.verdict.clone(),
                flight: flight.verdict.clone(),
            },
            verdict: opinion.verdict,
            base_url: report.base_url,
            timeout_ms: millis(report.timeout),
            external_user_id: opinion.external_user_id,
            amount: opinion.amount,
            checks: opinion.checks,
            cleanup: opinion.cleanup,
            net_change: opinion.net_change,
            test_run_id: report.id.to_string(),
            ran_at: report.ran_at,
            flight,
        }
    }
}
