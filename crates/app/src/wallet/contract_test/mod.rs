//! `POST /api/operator/wallet-adapter/test`: the full-contract test of the operator's
//! configured wallet adapter (contract rule 9). It calls the adapter exactly as the
//! contract allows and reports, check by check, what was sent, what came back, how long
//! it took and what to change. There is no lookup-by-key step: whether a mutation moved
//! money is read from its answer and from balance reads only.
//!
//! The checks and their pass rules are in `checks/`; how each probe is built in
//! `probes.rs`. The test has two sections, each with its own dedicated test player of
//! the operator's wallet: Opinion's, in the operator's currency, and the flight
//! product's, in IDR. Each section's own mutations net to zero, and if a wallet moved
//! money it should have refused, a last cleanup mutation brings the balance back to
//! where the section found it.
//!
//! In production the flight section runs only for an operator that holds a valid
//! production authorization when the section is due (FLIGHT.md §3: no flight wallet
//! call without one); otherwise it makes no call and reports why it did not run.
//!
//! Every run is kept with its verdicts and report (`verdict.rs`): enabling the flight
//! product needs the latest run against the current adapter to have passed the flight
//! section, which a section that did not run has not.

#[cfg(test)]
mod authorization_tests;
mod checks;
mod probes;
mod report;
#[cfg(test)]
mod tests;
mod verdict;

pub(crate) use verdict::flight_section_passed;

use std::sync::Arc;

use opinion_core::{ExternalUserId, WalletTestRunId};
use opinion_wallet::Currency;

use crate::access::Principal;
use crate::access::operator_currency;
use crate::access::ports::OperatorStore;
use crate::error::{AppError, ProblemCode};
use crate::ports::{Clock, Random};
use crate::wallet::ports::{FlightMoneyGate, WalletAdapterStore, WalletGateway, WalletTestRunStore};

use checks::{Section, TestRun};

pub use report::{CheckResult, Exchange, NotRun, SectionReport, Verdict, WalletTestReport};

/// The test player used when the request names none.
pub const DEFAULT_TEST_USER: &str = "opinion-wallet-test";

/// The test amount when the request names none, in minor units.
pub const DEFAULT_TEST_AMOUNT: i64 = 100;

/// The flight section's test player (an account in IDR) when the request names none.
pub const DEFAULT_FLIGHT_TEST_USER: &str = "opinion-wallet-test-idr";

/// The flight section's test amount when the request names none, in whole rupiah.
pub const DEFAULT_FLIGHT_TEST_AMOUNT: i64 = 1_000;

/// The largest test amount of either section.
pub const MAX_TEST_AMOUNT: i64 = 1_000_000_000;

/// The ports the wallet test needs.
#[derive(Clone)]
pub struct WalletTestPorts {
    /// Where the operator's adapter is.
    pub adapters: Arc<dyn WalletAdapterStore>,
    /// The wallet client.
    pub wallet: Arc<dyn WalletGateway>,
    /// Operators (their currency).
    pub operators: Arc<dyn OperatorStore>,
    /// Where each run is kept with its verdicts.
    pub runs: Arc<dyn WalletTestRunStore>,
    /// Whether the flight section may call the wallet (in production, the operator's
    /// production authorization).
    pub flight_money: Arc<dyn FlightMoneyGate>,
    /// When a run started.
    pub clock: Arc<dyn Clock>,
    /// Ids of the test's mutations and secrets nobody knows.
    pub random: Arc<dyn Random>,
}

/// What the operator asks to test with.
#[derive(Debug, Clone, Default)]
pub struct WalletTestRequest {
    /// The dedicated test player; [`DEFAULT_TEST_USER`] when absent.
    pub external_user_id: Option<String>,
    /// The test amount (1 to 10^9 minor units); [`DEFAULT_TEST_AMOUNT`] when absent.
    pub amount: Option<i64>,
    /// The flight section's test player, whose account is in IDR;
    /// [`DEFAULT_FLIGHT_TEST_USER`] when absent.
    pub flight_external_user_id: Option<String>,
    /// The flight section's test amount (1 to 10^9 whole rupiah);
    /// [`DEFAULT_FLIGHT_TEST_AMOUNT`] when absent.
    pub flight_amount: Option<i64>,
}

/// A test player as asked for, or `default`.
fn test_user(field: &'static str, asked: Option<String>, default: &str) -> Result<String, AppError> {
    let user = asked.unwrap_or_else(|| default.to_owned());
    Ok(ExternalUserId::parse(&user)
        .map_err(|e| AppError::invalid(field, e))?
        .into_string())
}

/// A test amount as asked for, or `default`.
fn test_amount(field: &'static str, asked: Option<i64>, default: i64, unit: &str) -> Result<i64, AppError> {
    let amount = asked.unwrap_or(default);
    if (1..=MAX_TEST_AMOUNT).contains(&amount) {
        Ok(amount)
    } else {
        Err(AppError::invalid(field, format!("must be between 1 and 10^9 {unit}")))
    }
}

/// The full-contract wallet test.
#[derive(Clone)]
pub struct WalletAdapterTest {
    ports: WalletTestPorts,
}

impl WalletAdapterTest {
    /// Builds the use case.
    pub fn new(ports: WalletTestPorts) -> Self {
        Self { ports }
    }

    /// Runs every check of both sections against the caller's operator's configured
    /// adapter, and keeps the run with its verdicts. The flight section runs only if
    /// flight money may move for the operator when it is due; otherwise it reports
    /// `NotRun` and makes no call.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id))]
    pub async fn run(&self, caller: &Principal, request: WalletTestRequest) -> Result<WalletTestReport, AppError> {
        let user = test_user("externalUserId", request.external_user_id, DEFAULT_TEST_USER)?;
        let amount = test_amount("amount", request.amount, DEFAULT_TEST_AMOUNT, "minor units")?;
        let flight_user = test_user(
            "flightExternalUserId",
            request.flight_external_user_id,
            DEFAULT_FLIGHT_TEST_USER,
        )?;
        let flight_amount = test_amount(
            "flightAmount",
            request.flight_amount,
            DEFAULT_FLIGHT_TEST_AMOUNT,
            "rupiah",
        )?;
        let target = self
            .ports
            .adapters
            .find_wallet_target(caller.operator_id)
            .await?
            .ok_or_else(|| AppError::Conflict {
                code: ProblemCode::WalletAdapterNotConfigured,
                detail: "configure the wallet adapter with PUT /api/operator/wallet-adapter first".into(),
            })?;
        let currency = operator_currency(self.ports.operators.as_ref(), caller.operator_id).await?;
        let id = WalletTestRunId::from_ulid(self.ports.random.ulid());
        let ran_at = self.ports.clock.now();
        let opinion = Section { user, amount, currency };
        let flight = Section {
            user: flight_user,
            amount: flight_amount,
            currency: Currency::IDR,
        };
        let base_url = target.base_url.clone();
        let timeout = target.timeout;
        let opinion = TestRun::new(&self.ports, target.clone(), opinion).run_opinion().await;
        let flight = if self
            .ports
            .flight_money
            .flight_money_may_move(caller.operator_id)
            .await?
        {
            TestRun::new(&self.ports, target, flight).run_flight().await
        } else {
            tracing::info!("flight section not run: no valid production authorization");
            SectionReport::not_run(
                flight.user,
                flight.amount,
                flight.currency,
                NotRun::ProductionAuthorizationMissing,
            )
        };
        let report = WalletTestReport {
            id,
            ran_at,
            base_url,
            timeout,
            opinion,
            flight,
        };
        self.keep(caller.operator_id, &report).await?;
        tracing::info!(
            wallet_test_run_id = %report.id,
            opinion_passed = report.opinion.passed,
            flight_passed = report.flight.passed,
            "wallet adapter tested"
        );
        Ok(report)
    }
}
