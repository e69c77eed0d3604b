//! An operator's wallet adapter configuration as the use cases keep it: where the
//! platform calls, how long a call may take, and the secrets that sign the calls.

use opinion_core::OperatorId;
use opinion_wallet::{AdapterBaseUrl, AdapterSecrets, AdapterTimeout};
use time::OffsetDateTime;

use crate::wallet::ports::WalletAdapterTarget;

/// One operator's wallet adapter (an operator has at most one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletAdapterConfig {
    pub operator_id: OperatorId,
    /// Where the calls go.
    pub base_url: AdapterBaseUrl,
    /// How long one call may take.
    pub timeout: AdapterTimeout,
    /// The signing secrets; never leave the service except once, when made.
    pub secrets: AdapterSecrets,
    /// When it was first configured.
    pub created_at: OffsetDateTime,
    /// When it was last changed.
    pub updated_at: OffsetDateTime,
    /// Counts changes, so two concurrent changes cannot both win.
    pub revision: i64,
}

impl WalletAdapterConfig {
    /// The previous secret's end of signing, while it still signs at `now`.
    pub fn overlap_ends_at(&self, now: OffsetDateTime) -> Option<OffsetDateTime> {
        self.secrets
            .overlapping(now.unix_timestamp())
            .and_then(|previous| OffsetDateTime::from_unix_timestamp(previous.signs_until).ok())
    }

    /// Where and how to call the wallet at `now`: the secrets signing at that time.
    pub fn target(&self, now: OffsetDateTime) -> WalletAdapterTarget {
        WalletAdapterTarget {
            operator_id: self.operator_id,
            base_url: self.base_url.as_str().to_owned(),
            timeout: self.timeout.as_duration(),
            signing_secrets: self.secrets.signing(now.unix_timestamp()),
        }
    }
}
