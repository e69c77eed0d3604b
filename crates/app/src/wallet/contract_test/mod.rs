//! `POST /api/operator/wallet-adapter/test`: the full-contract test of the operator's
//! configured wallet adapter (contract rule 9). It calls the adapter exactly as the
//! contract allows and reports, check by check, what was sent, what came back, how long
//! it took and what to change. There is no lookup-by-key step: whether a mutation moved
//! money is read from its answer and from balance reads only.
//!
//! The checks and their pass rules are in `checks.rs`; how each probe is built in
//! `probes.rs`. Every mutation names a dedicated test player of the operator's wallet;
//! the test's own mutations net to zero (a debit of three test amounts, then a sale, a
//! buy compensation and a redemption of one each), and if a wallet moved money it
//! should have refused, a last cleanup mutation brings the balance back to where the
//! test found it.

mod checks;
mod probes;
mod report;

use std::sync::Arc;

use opinion_core::ExternalUserId;

use crate::access::Principal;
use crate::access::operator_currency;
use crate::access::ports::OperatorStore;
use crate::error::{AppError, ProblemCode};
use crate::ports::Random;
use crate::wallet::ports::{WalletAdapterStore, WalletGateway};

pub use report::{CheckResult, Exchange, Verdict, WalletTestReport};

/// The test player used when the request names none.
pub const DEFAULT_TEST_USER: &str = "opinion-wallet-test";

/// The test amount when the request names none, in minor units.
pub const DEFAULT_TEST_AMOUNT: i64 = 100;

/// The ports the wallet test needs.
#[derive(Clone)]
pub struct WalletTestPorts {
    /// Where the operator's adapter is.
    pub adapters: Arc<dyn WalletAdapterStore>,
    /// The wallet client.
    pub wallet: Arc<dyn WalletGateway>,
    /// Operators (their currency).
    pub operators: Arc<dyn OperatorStore>,
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

    /// Runs every check against the caller's operator's configured adapter.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id))]
    pub async fn run(&self, caller: &Principal, request: WalletTestRequest) -> Result<WalletTestReport, AppError> {
        let user = request.external_user_id.unwrap_or_else(|| DEFAULT_TEST_USER.to_owned());
        let user = ExternalUserId::parse(&user)
            .map_err(|e| AppError::invalid("externalUserId", e))?
            .into_string();
        let amount = request.amount.unwrap_or(DEFAULT_TEST_AMOUNT);
        if !(1..=1_000_000_000).contains(&amount) {
            return Err(AppError::invalid("amount", "must be between 1 and 10^9 minor units"));
        }
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
        let run = checks::TestRun::new(&self.ports, target, user, amount, currency);
        let report = run.run().await;
        tracing::info!(passed = report.passed, "wallet adapter tested");
        Ok(report)
    }
}
