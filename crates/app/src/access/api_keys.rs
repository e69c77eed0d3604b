//! API key use cases: create (secret shown once), list, revoke.

use opinion_access::{ApiKeySecret, CredentialKind, Grant, check_issuance};
use opinion_core::{ApiKeyId, ApiKeyKind, Label, Page, PageRequest};
use time::OffsetDateTime;

use crate::access::Access;
use crate::access::Principal;
use crate::error::AppError;
use crate::model::ApiKeyRecord;

/// A request for a new API key.
#[derive(Debug, Clone)]
pub struct NewApiKey {
    /// What workload will use it.
    pub name: String,
    /// Grant strings.
    pub scopes: Vec<String>,
    /// Optional expiry, in the future.
    pub expires_at: Option<OffsetDateTime>,
}

/// A created key and its secret, which is never available again.
#[derive(Debug, Clone)]
pub struct CreatedApiKey {
    /// The stored record.
    pub record: ApiKeyRecord,
    /// The secret to hand over now.
    pub secret: ApiKeySecret,
}

impl Access {
    /// Creates an API key for the caller's operator, no stronger than the caller.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id))]
    pub async fn create_api_key(&self, caller: &Principal, request: NewApiKey) -> Result<CreatedApiKey, AppError> {
        let name = Label::parse(&request.name).map_err(|e| AppError::invalid("name", e))?;
        let grant = Grant::parse(&request.scopes).map_err(|e| AppError::invalid("scopes", e))?;
        check_issuance(caller.kind(), &caller.grant, CredentialKind::ApiKey, &grant)?;
        let now = self.ports.clock.now();
        if request.expires_at.is_some_and(|expiry| expiry <= now) {
            return Err(AppError::invalid("expiresAt", "must be in the future"));
        }
        let created = self.new_api_key(caller.operator_id, name, grant, request.expires_at, now);
        self.ports
            .api_keys
            .insert_api_key(&created.record, &created.secret.hash())
            .await?;
        tracing::info!(api_key_id = %created.record.id, actor = %caller.actor_id(), "API key created");
        Ok(created)
    }

    /// One page of the caller's operator's keys.
    pub async fn list_api_keys(
        &self,
        caller: &Principal,
        page: PageRequest<ApiKeyKind>,
    ) -> Result<Page<ApiKeyRecord, ApiKeyKind>, AppError> {
        Ok(self.ports.api_keys.list_api_keys(caller.operator_id, page).await?)
    }

    /// One of the caller's operator's keys (a dashboard page names the key it acts on).
    pub async fn api_key(&self, caller: &Principal, id: ApiKeyId) -> Result<ApiKeyRecord, AppError> {
        self.ports
            .api_keys
            .find_api_key(caller.operator_id, id)
            .await?
            .ok_or(AppError::NotFound("API key"))
    }

    /// Revokes one of the caller's operator's keys; revoking twice is harmless.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id, api_key_id = %id))]
    pub async fn revoke_api_key(&self, caller: &Principal, id: ApiKeyId) -> Result<ApiKeyRecord, AppError> {
        let now = self.ports.clock.now();
        let record = self
            .ports
            .api_keys
            .revoke_api_key(caller.operator_id, id, now)
            .await?
            .ok_or(AppError::NotFound("API key"))?;
        tracing::info!(actor = %caller.actor_id(), "API key revoked");
        Ok(record)
    }

    /// A fresh key record and secret (not yet stored).
    pub(crate) fn new_api_key(
        &self,
        operator_id: opinion_core::OperatorId,
        name: Label,
        grant: Grant,
        expires_at: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> CreatedApiKey {
        let secret = ApiKeySecret::generate(self.settings.environment, self.ports.random.secret_bytes());
        let record = ApiKeyRecord {
            id: ApiKeyId::from_ulid(self.ports.random.ulid()),
            operator_id,
            name: name.into_string(),
            grant,
            environment: secret.environment(),
            hint: secret.hint(),
            created_at: now,
            expires_at,
            revoked_at: None,
            last_used_at: None,
            last_used_ip: None,
            last_used_user_agent: None,
        };
        CreatedApiKey { record, secret }
    }
}

#[cfg(test)]
mod tests {
    use opinion_access::{ApiKeySecret, Grant, IssuanceError, Scope};
    use time::Duration;

    use super::NewApiKey;
    use crate::error::AppError;
    use crate::test_support::*;

    fn request(scopes: &[&str]) -> NewApiKey {
        NewApiKey {
            name: "reporting".into(),
            scopes: scopes.iter().map(|s| s.to_string()).collect(),
            expires_at: None,
        }
    }

    #[tokio::test]
    async fn stores_only_the_hash_and_returns_the_secret_once() {
        let mut mocks = Mocks::default();
        mocks
            .api_keys
            .expect_insert_api_key()
            .times(1)
            .returning(|record, hash| {
                assert_eq!(record.grant, grant(&["users:read"]));
                assert_eq!(record.operator_id, OPERATOR);
                assert_eq!(hash.0.len(), 64);
                Ok(())
            });
        let created = mocks
            .build()
            .create_api_key(&api_key_caller(Grant::All), request(&["users:read"]))
            .await
            .expect("created");
        assert_eq!(
            ApiKeySecret::parse(created.secret.expose()).map(|s| s.hash()),
            Ok(created.secret.hash())
        );
        assert!(
            created
                .secret
                .expose()
                .starts_with(created.record.hint.trim_end_matches('…'))
        );
        assert_eq!(
            created.record.environment,
            opinion_access::ApiKeyEnvironment::Development
        );
    }

    #[tokio::test]
    async fn refuses_escalation_staff_scopes_bad_input_and_past_expiry_without_writing() {
        let restricted = api_key_caller(grant(&["api_keys:write", "users:read"]));
        let past = NewApiKey {
            expires_at: Some(NOW - Duration::seconds(1)),
            ..request(&["users:read"])
        };
        type Case = (crate::access::Principal, NewApiKey, fn(&AppError) -> bool);
        let cases: Vec<Case> = vec![
            (
                restricted.clone(),
                request(&["trades:read"]),
                |e| matches!(e, AppError::Issuance(IssuanceError::ExceedsIssuer { beyond }) if beyond == &[Scope::TradesRead]),
            ),
            (restricted.clone(), request(&["*"]), |e| {
                matches!(e, AppError::Issuance(IssuanceError::ExceedsIssuer { .. }))
            }),
            (staff_caller(Grant::All), request(&["staffs:read"]), |e| {
                matches!(e, AppError::Issuance(IssuanceError::StaffScopeOnApiKey(_)))
            }),
            (restricted.clone(), request(&["users:reed"]), |e| {
                matches!(e, AppError::Invalid { field: "scopes", .. })
            }),
            (restricted.clone(), request(&[]), |e| {
                matches!(e, AppError::Invalid { field: "scopes", .. })
            }),
            (
                restricted.clone(),
                NewApiKey {
                    name: " ".into(),
                    ..request(&["users:read"])
                },
                |e| matches!(e, AppError::Invalid { field: "name", .. }),
            ),
            (restricted, past, |e| {
                matches!(e, AppError::Invalid { field: "expiresAt", .. })
            }),
        ];
        for (caller, request, expected) in cases {
            let mut mocks = Mocks::default();
            mocks.api_keys.expect_insert_api_key().never();
            let error = mocks
                .build()
                .create_api_key(&caller, request.clone())
                .await
                .expect_err("refused");
            assert!(expected(&error), "{request:?} gave {error:?}");
        }
    }

    #[tokio::test]
    async fn revoking_another_operators_key_is_not_found() {
        let mut mocks = Mocks::default();
        mocks.api_keys.expect_revoke_api_key().returning(|op, _, at| {
            assert_eq!(op, OPERATOR, "the caller's operator");
            assert_eq!(at, NOW, "revoked now");
            Ok(None)
        });
        let error = mocks
            .build()
            .revoke_api_key(&api_key_caller(Grant::All), opinion_core::ApiKeyId::from_u128(99))
            .await
            .expect_err("refused");
        assert!(matches!(error, AppError::NotFound("API key")));
    }
}
