//! An operator API key as stored (never with its secret).

use opinion_access::Grant;
use opinion_core::{ApiKeyId, OperatorId};
use time::OffsetDateTime;

/// An API key's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKeyRecord {
    pub id: ApiKeyId,
    /// The operator it belongs to.
    pub operator_id: OperatorId,
    /// A name saying what workload uses it.
    pub name: String,
    /// What it may do.
    pub grant: Grant,
    /// The beginning of the secret, to tell keys apart.
    pub hint: String,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// When it stops working, if ever.
    pub expires_at: Option<OffsetDateTime>,
    /// When it was revoked, if it was.
    pub revoked_at: Option<OffsetDateTime>,
    /// When it was last used (recorded at most once a minute).
    pub last_used_at: Option<OffsetDateTime>,
}

impl ApiKeyRecord {
    /// Whether the key authenticates a request made at `now`.
    pub fn is_usable_at(&self, now: OffsetDateTime) -> bool {
        self.revoked_at.is_none() && self.expires_at.is_none_or(|expiry| now < expiry)
    }
}
