//! `MeasuredWallet`: the wallet gateway, counting every call by outcome and timing it.

use std::sync::Arc;

use async_trait::async_trait;
use opinion_app::wallet::ports::{
    BalanceOutcome, MutationOutcome, ProbeOutcome, WalletAdapterTarget, WalletGateway, WalletProbe,
};
use opinion_wallet::WalletMutation;

use crate::families::{balance_outcome, mutation_outcome, probe_outcome};
use crate::registry::Metrics;

/// Wraps the gateway the use cases call; what the calls do is unchanged.
pub struct MeasuredWallet {
    inner: Arc<dyn WalletGateway>,
    metrics: Arc<Metrics>,
}

impl MeasuredWallet {
    /// `inner`, measured into `metrics`.
    pub fn new(inner: Arc<dyn WalletGateway>, metrics: Arc<Metrics>) -> Self {
        Self { inner, metrics }
    }
}

#[async_trait]
impl WalletGateway for MeasuredWallet {
    async fn mutate(&self, target: &WalletAdapterTarget, mutation: &WalletMutation) -> MutationOutcome {
        let outcome = self.inner.mutate(target, mutation).await;
        self.metrics
            .wallet_call("mutation", mutation_outcome(&outcome.classification), outcome.elapsed);
        outcome
    }

    async fn balance(&self, target: &WalletAdapterTarget, external_user_id: &str) -> BalanceOutcome {
        let outcome = self.inner.balance(target, external_user_id).await;
        self.metrics
            .wallet_call("balance", balance_outcome(&outcome.reading), outcome.elapsed);
        outcome
    }

    async fn probe(&self, target: &WalletAdapterTarget, probe: &WalletProbe) -> ProbeOutcome {
        let outcome = self.inner.probe(target, probe).await;
        self.metrics
            .wallet_call("test_probe", probe_outcome(&outcome.observed), outcome.elapsed);
        outcome
    }
}
