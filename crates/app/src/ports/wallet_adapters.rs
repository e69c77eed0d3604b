//! The store of operators' wallet adapter configurations, as their management use cases
//! need it. (The callers of wallets read targets through `WalletAdapterStore`.)

use async_trait::async_trait;
use opinion_core::OperatorId;

use crate::model::WalletAdapterConfig;
use crate::ports::StoreError;

/// Operators' wallet adapter configurations, secrets included.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait WalletAdapterConfigStore: Send + Sync {
    /// The operator's configuration, if it has one.
    async fn find_wallet_adapter(&self, operator: OperatorId) -> Result<Option<WalletAdapterConfig>, StoreError>;

    /// Writes `config` if the stored revision is still `expected` (`None`: if the
    /// operator has none yet). `Ok(false)` when another change came first; nothing is
    /// written then.
    async fn save_wallet_adapter(
        &self,
        config: &WalletAdapterConfig,
        expected: Option<i64>,
    ) -> Result<bool, StoreError>;
}
