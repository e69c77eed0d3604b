//! An operator API key as stored (never with its secret).

use std::net::IpAddr;

use opinion_access::{ApiKeyEnvironment, Grant, RecordedUserAgent};
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
    /// The environment it was issued in, as its secret's prefix says.
    pub environment: ApiKeyEnvironment,
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
    /// The client address of that recorded use, when it was known.
    pub last_used_ip: Option<IpAddr>,
    /// The user agent of that recorded use, when one was sent.
    pub last_used_user_agent: Option<RecordedUserAgent>,
}

impl ApiKeyRecord {
    /// Whether the key authenticates a request made at `now`.
    pub fn is_usable_at(&self, now: OffsetDateTime) -> bool {
        self.revoked_at.is_none() && self.expires_at.is_none_or(|expiry| now < expiry)
    }
}

/// One use of a key as it is recorded: when, from which address, with which user agent.
/// The three are written together, so a listing never mixes two uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKeyUse {
    /// When the key authenticated a request.
    pub at: OffsetDateTime,
    /// The client's address (see `RequestClient`).
    pub ip: Option<IpAddr>,
    /// The client's user agent, bounded.
    pub user_agent: Option<RecordedUserAgent>,
}
