//! Persistence ports. Every tenant-owned read and write names the operator, so a
//! store can never answer with another operator's rows.

use async_trait::async_trait;
use opinion_access::{LoginThrottle, PlaygroundConsole, SecretHash, ThrottleKey};
use opinion_core::{ApiKeyId, ApiKeyKind, OperatorId, Page, PageRequest, StaffId, StaffKind, StaffSessionId};
use time::{Duration, OffsetDateTime};

use crate::model::{ApiKeyRecord, ApiKeyUse, Operator, PlaygroundSetting, StaffMember, StaffPatch, StaffSession};
use crate::ports::StoreError;

/// Operators (tenants).
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait OperatorStore: Send + Sync {
    /// Creates an operator together with its first API key, atomically.
    async fn insert_operator(
        &self,
        operator: &Operator,
        first_key: &ApiKeyRecord,
        key_hash: &SecretHash,
    ) -> Result<(), StoreError>;
    /// Reads an operator.
    async fn find_operator(&self, id: OperatorId) -> Result<Option<Operator>, StoreError>;
    /// The operator's playground console choice; the default before any was stored.
    async fn find_playground_setting(&self, operator: OperatorId) -> Result<PlaygroundSetting, StoreError>;
    /// Stores the operator's playground console choice made at `at`, replacing the
    /// previous one.
    async fn save_playground_console(
        &self,
        operator: OperatorId,
        console: PlaygroundConsole,
        at: OffsetDateTime,
    ) -> Result<(), StoreError>;
    /// Whether the store can answer at all (readiness).
    async fn ping(&self) -> Result<(), StoreError>;
}

/// Operator API keys.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait ApiKeyStore: Send + Sync {
    /// Stores a new key under its secret's hash.
    async fn insert_api_key(&self, key: &ApiKeyRecord, hash: &SecretHash) -> Result<(), StoreError>;
    /// Finds a key by its secret's hash, whatever its operator (this is how a key names its operator).
    async fn find_api_key_by_hash(&self, hash: &SecretHash) -> Result<Option<ApiKeyRecord>, StoreError>;
    /// One key of this operator, `None` if it has no such key.
    async fn find_api_key(&self, operator: OperatorId, id: ApiKeyId) -> Result<Option<ApiKeyRecord>, StoreError>;
    /// One page of an operator's keys, newest first.
    async fn list_api_keys(
        &self,
        operator: OperatorId,
        page: PageRequest<ApiKeyKind>,
    ) -> Result<Page<ApiKeyRecord, ApiKeyKind>, StoreError>;
    /// Revokes a key of this operator; a second revocation keeps the first time. `None` if no such key.
    async fn revoke_api_key(
        &self,
        operator: OperatorId,
        id: ApiKeyId,
        at: OffsetDateTime,
    ) -> Result<Option<ApiKeyRecord>, StoreError>;
    /// Records `key_use` (its time, address and user agent together) as the key's last
    /// use, unless the recorded last use is at or after `unless_used_since` (so concurrent
    /// requests write it at most once per interval).
    async fn record_api_key_use(
        &self,
        operator: OperatorId,
        id: ApiKeyId,
        key_use: &ApiKeyUse,
        unless_used_since: OffsetDateTime,
    ) -> Result<(), StoreError>;
}

/// Dashboard staff members.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait StaffStore: Send + Sync {
    /// Stores a new member; `Duplicate("staff_email")` if the e-mail is taken.
    async fn insert_staff(&self, member: &StaffMember, password_hash: &str) -> Result<(), StoreError>;
    /// Finds a member and their password hash by e-mail, for login.
    async fn find_staff_login(&self, email: &str) -> Result<Option<(StaffMember, String)>, StoreError>;
    /// Reads a member of this operator.
    async fn find_staff(&self, operator: OperatorId, id: StaffId) -> Result<Option<StaffMember>, StoreError>;
    /// One page of an operator's staff, newest first.
    async fn list_staff(
        &self,
        operator: OperatorId,
        page: PageRequest<StaffKind>,
    ) -> Result<Page<StaffMember, StaffKind>, StoreError>;
    /// Applies a change; disabling a member also ends all their sessions, in the same transaction.
    async fn update_staff(
        &self,
        operator: OperatorId,
        id: StaffId,
        patch: &StaffPatch,
        at: OffsetDateTime,
    ) -> Result<Option<StaffMember>, StoreError>;
    /// Replaces the password hash and ends all the member's sessions, in one transaction.
    async fn reset_staff_password(
        &self,
        operator: OperatorId,
        id: StaffId,
        password_hash: &str,
        at: OffsetDateTime,
    ) -> Result<Option<StaffMember>, StoreError>;
    /// Reads a member of this operator with their password hash, for a change of their
    /// own password.
    async fn find_staff_password(
        &self,
        operator: OperatorId,
        id: StaffId,
    ) -> Result<Option<(StaffMember, String)>, StoreError>;
    /// Replaces the password hash and ends every session of the member but `keep`, in one
    /// transaction.
    async fn change_own_password(
        &self,
        operator: OperatorId,
        id: StaffId,
        password_hash: &str,
        keep: StaffSessionId,
        at: OffsetDateTime,
    ) -> Result<Option<StaffMember>, StoreError>;
}

/// Staff login throttling counters, shared by every instance so that a limit holds
/// however many instances the attempts are spread over.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait LoginAttemptStore: Send + Sync {
    /// Decides one password attempt with `throttle` over the counters of `keys`, locked
    /// together for the decision, and stores what it decided. `None` when admitted, else
    /// how long until the attempt may be made again.
    async fn admit_login_attempt(
        &self,
        keys: &[ThrottleKey],
        throttle: &LoginThrottle,
        at: OffsetDateTime,
    ) -> Result<Option<Duration>, StoreError>;
    /// Records that an admitted attempt was right (`LoginThrottle::succeeded`).
    async fn record_login_success(
        &self,
        keys: &[ThrottleKey],
        throttle: &LoginThrottle,
        at: OffsetDateTime,
    ) -> Result<(), StoreError>;
    /// Deletes at most `limit` counters untouched since `before`; how many it deleted.
    async fn prune_login_attempts(&self, before: OffsetDateTime, limit: u32) -> Result<usize, StoreError>;
}

/// Server-side staff sessions, which make session tokens revocable.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait SessionStore: Send + Sync {
    /// Stores a new session.
    async fn insert_session(&self, session: &StaffSession) -> Result<(), StoreError>;
    /// Reads a session of this operator and its member (current scopes and status).
    async fn find_session(
        &self,
        operator: OperatorId,
        id: StaffSessionId,
    ) -> Result<Option<(StaffSession, StaffMember)>, StoreError>;
    /// Ends a session; ending an ended session keeps the first end time.
    async fn end_session(&self, operator: OperatorId, id: StaffSessionId, at: OffsetDateTime)
    -> Result<(), StoreError>;
}
