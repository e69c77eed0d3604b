//! Access rows as diesel reads and writes them (operators, API keys, staff members and
//! staff sessions), and their conversions to and from the app's records. Reads never
//! select a secret hash or a password hash unless the port asks for it; a stored value
//! the domain refuses is a corrupt row, not a panic.

use std::net::IpAddr;

use diesel::prelude::*;
use ipnet::IpNet;
use opinion_access::{ApiKeyEnvironment, Grant, RecordedUserAgent, SecretHash, StaffEmail};
use opinion_app::model::{ApiKeyRecord, Operator, StaffMember, StaffPatch, StaffSession};
use opinion_app::ports::StoreError;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::{corrupt, parsed};
use crate::db::ids::{id_of, uuid_of};
use crate::db::schema::{api_keys, operators, staff_members, staff_sessions};

/// Scopes as stored: never empty, `*` alone or known scope names.
fn grant_of(table: &str, id: Uuid, scopes: &[String]) -> Result<Grant, StoreError> {
    Grant::parse(scopes).map_err(|problem| corrupt(table, id, &problem))
}

/// An `operators` row, read and written whole.
#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = operators, check_for_backend(diesel::pg::Pg))]
pub(crate) struct OperatorRow {
    id: Uuid,
    name: String,
    created_at: OffsetDateTime,
    currency: String,
}

impl OperatorRow {
    /// The row that stores `operator`.
    pub(crate) fn from_record(operator: &Operator) -> Self {
        Self {
            id: uuid_of(operator.id),
            name: operator.name.clone(),
            created_at: operator.created_at,
            currency: operator.currency.as_str().to_owned(),
        }
    }

    /// The operator this row stores.
    pub(crate) fn into_record(self) -> Result<Operator, StoreError> {
        let currency = parsed("operators", self.id, &self.currency)?;
        Ok(Operator {
            id: id_of(self.id),
            name: self.name,
            currency,
            created_at: self.created_at,
        })
    }
}

/// An `api_keys` row as read: everything but the secret's hash.
#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = api_keys, check_for_backend(diesel::pg::Pg))]
pub(crate) struct ApiKeyRow {
    operator_id: Uuid,
    id: Uuid,
    name: String,
    scopes: Vec<String>,
    hint: String,
    created_at: OffsetDateTime,
    expires_at: Option<OffsetDateTime>,
    revoked_at: Option<OffsetDateTime>,
    last_used_at: Option<OffsetDateTime>,
    environment: String,
    last_used_ip: Option<IpNet>,
    last_used_user_agent: Option<String>,
}

impl ApiKeyRow {
    /// The key this row stores; fails on scopes, an environment or a user agent the
    /// domain does not accept.
    pub(crate) fn into_record(self) -> Result<ApiKeyRecord, StoreError> {
        let environment = ApiKeyEnvironment::from_tag(&self.environment)
            .ok_or_else(|| corrupt("api_keys", self.id, &"unknown environment"))?;
        let last_used_user_agent = self
            .last_used_user_agent
            .map(|agent| {
                RecordedUserAgent::from_header(&agent)
                    .filter(|recorded| recorded.as_str() == agent)
                    .ok_or_else(|| corrupt("api_keys", self.id, &"user agent out of bounds"))
            })
            .transpose()?;
        Ok(ApiKeyRecord {
            grant: grant_of("api_keys", self.id, &self.scopes)?,
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            name: self.name,
            environment,
            hint: self.hint,
            created_at: self.created_at,
            expires_at: self.expires_at,
            revoked_at: self.revoked_at,
            last_used_at: self.last_used_at,
            last_used_ip: self.last_used_ip.map(|net| net.addr()),
            last_used_user_agent,
        })
    }
}

/// The stored form of a client address: a host network of the address alone.
pub(crate) fn inet_of(address: IpAddr) -> IpNet {
    IpNet::from(address)
}

/// An `api_keys` row as first written, with the secret's hash.
#[derive(Debug, Insertable)]
#[diesel(table_name = api_keys, check_for_backend(diesel::pg::Pg))]
pub(crate) struct NewApiKeyRow<'a> {
    operator_id: Uuid,
    id: Uuid,
    name: &'a str,
    scopes: Vec<String>,
    hint: &'a str,
    secret_hash: &'a str,
    created_at: OffsetDateTime,
    expires_at: Option<OffsetDateTime>,
    revoked_at: Option<OffsetDateTime>,
    last_used_at: Option<OffsetDateTime>,
    environment: &'static str,
    last_used_ip: Option<IpNet>,
    last_used_user_agent: Option<&'a str>,
}

impl<'a> NewApiKeyRow<'a> {
    /// The row that stores `key` under `hash`.
    pub(crate) fn new(key: &'a ApiKeyRecord, hash: &'a SecretHash) -> Self {
        Self {
            operator_id: uuid_of(key.operator_id),
            id: uuid_of(key.id),
            name: &key.name,
            scopes: key.grant.to_strings(),
            hint: &key.hint,
            secret_hash: &hash.0,
            created_at: key.created_at,
            expires_at: key.expires_at,
            revoked_at: key.revoked_at,
            last_used_at: key.last_used_at,
            environment: key.environment.tag(),
            last_used_ip: key.last_used_ip.map(inet_of),
            last_used_user_agent: key.last_used_user_agent.as_ref().map(RecordedUserAgent::as_str),
        }
    }
}

/// A `staff_members` row as read: everything but the password hash.
#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = staff_members, check_for_backend(diesel::pg::Pg))]
pub(crate) struct StaffRow {
    operator_id: Uuid,
    id: Uuid,
    email: String,
    name: String,
    scopes: Vec<String>,
    disabled: bool,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

impl StaffRow {
    /// The member this row stores; fails on a bad e-mail or unknown scopes.
    pub(crate) fn into_record(self) -> Result<StaffMember, StoreError> {
        let email = StaffEmail::parse(&self.email).map_err(|problem| corrupt("staff_members", self.id, &problem))?;
        Ok(StaffMember {
            grant: grant_of("staff_members", self.id, &self.scopes)?,
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            email,
            name: self.name,
            disabled: self.disabled,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

/// A `staff_members` row as first written, with the password hash.
#[derive(Debug, Insertable)]
#[diesel(table_name = staff_members, check_for_backend(diesel::pg::Pg))]
pub(crate) struct NewStaffRow<'a> {
    operator_id: Uuid,
    id: Uuid,
    email: &'a str,
    name: &'a str,
    scopes: Vec<String>,
    password_hash: &'a str,
    disabled: bool,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

impl<'a> NewStaffRow<'a> {
    /// The row that stores `member` with `password_hash`.
    pub(crate) fn new(member: &'a StaffMember, password_hash: &'a str) -> Self {
        Self {
            operator_id: uuid_of(member.operator_id),
            id: uuid_of(member.id),
            email: member.email.as_str(),
            name: &member.name,
            scopes: member.grant.to_strings(),
            password_hash,
            disabled: member.disabled,
            created_at: member.created_at,
            updated_at: member.updated_at,
        }
    }
}

/// The columns a `StaffPatch` changes; absent fields are left out of the `SET`.
#[derive(Debug, AsChangeset)]
#[diesel(table_name = staff_members, check_for_backend(diesel::pg::Pg))]
pub(crate) struct StaffChanges<'a> {
    name: Option<&'a str>,
    scopes: Option<Vec<String>>,
    disabled: Option<bool>,
    updated_at: OffsetDateTime,
}

impl<'a> StaffChanges<'a> {
    /// The change `patch` makes at `at`.
    pub(crate) fn new(patch: &'a StaffPatch, at: OffsetDateTime) -> Self {
        Self {
            name: patch.name.as_deref(),
            scopes: patch.grant.as_ref().map(Grant::to_strings),
            disabled: patch.disabled,
            updated_at: at,
        }
    }
}

/// A `staff_sessions` row, read and written whole.
#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = staff_sessions, check_for_backend(diesel::pg::Pg))]
pub(crate) struct SessionRow {
    operator_id: Uuid,
    id: Uuid,
    staff_id: Uuid,
    created_at: OffsetDateTime,
    expires_at: OffsetDateTime,
    ended_at: Option<OffsetDateTime>,
}

impl SessionRow {
    /// The row that stores `session`.
    pub(crate) fn from_record(session: &StaffSession) -> Self {
        Self {
            operator_id: uuid_of(session.operator_id),
            id: uuid_of(session.id),
            staff_id: uuid_of(session.staff_id),
            created_at: session.created_at,
            expires_at: session.expires_at,
            ended_at: session.ended_at,
        }
    }

    /// The session this row stores.
    pub(crate) fn into_record(self) -> StaffSession {
        StaffSession {
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            staff_id: id_of(self.staff_id),
            created_at: self.created_at,
            expires_at: self.expires_at,
            ended_at: self.ended_at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opinion_core::ApiKeyId;

    fn key_row(scopes: &[&str]) -> ApiKeyRow {
        ApiKeyRow {
            operator_id: Uuid::from_u128(1),
            id: Uuid::from_u128(2),
            name: "ci".into(),
            scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
            hint: "opk_dev_abcd…".into(),
            created_at: OffsetDateTime::UNIX_EPOCH,
            expires_at: None,
            revoked_at: None,
            last_used_at: None,
            environment: "dev".into(),
            last_used_ip: None,
            last_used_user_agent: None,
        }
    }

    #[test]
    fn a_known_grant_reads_back() {
        let record = key_row(&["*"]).into_record().expect("valid row");
        assert_eq!(record.grant, Grant::All);
        assert_eq!(record.id, ApiKeyId::from_u128(2));
    }

    #[test]
    fn an_unknown_environment_or_an_unbounded_user_agent_is_corrupt() {
        let stg = ApiKeyRow {
            environment: "stg".into(),
            ..key_row(&["*"])
        };
        let long = ApiKeyRow {
            last_used_user_agent: Some("x".repeat(300)),
            ..key_row(&["*"])
        };
        for row in [stg, long] {
            assert!(matches!(
                row.into_record(),
                Err(StoreError::Unavailable(message)) if message.starts_with("corrupt row")
            ));
        }
    }

    #[test]
    fn unknown_or_missing_scopes_are_corrupt() {
        for scopes in [&["no:such"][..], &[]] {
            assert!(matches!(
                key_row(scopes).into_record(),
                Err(StoreError::Unavailable(message)) if message.starts_with("corrupt row")
            ));
        }
    }
}
