//! Dashboard staff use cases. A member can only hand out, change or reset access that
//! the caller could have granted itself, so a restricted member cannot lock out or
//! demote a stronger one.

use opinion_access::{CredentialKind, Grant, Password, StaffEmail, check_issuance};
use opinion_core::{Label, OperatorId, Page, PageRequest, StaffId, StaffKind};

use crate::access::Access;
use crate::access::Principal;
use crate::error::{AppError, ProblemCode};
use crate::model::{StaffMember, StaffPatch};
use crate::ports::{StoreError, UniqueKey};

/// A request for a new staff member.
#[derive(Debug, Clone)]
pub struct NewStaff {
    /// Login e-mail.
    pub email: String,
    /// Display name.
    pub name: String,
    /// Grant strings.
    pub scopes: Vec<String>,
    /// Initial password; when absent the service generates one and returns it once.
    pub password: Option<String>,
}

/// A change to a member; absent fields stay as they are.
#[derive(Debug, Clone, Default)]
pub struct StaffChange {
    /// New display name.
    pub name: Option<String>,
    /// New grant strings.
    pub scopes: Option<Vec<String>>,
    /// Disable (ending every session) or re-enable.
    pub disabled: Option<bool>,
}

/// A member together with the password the service generated for them, if it did.
#[derive(Debug, Clone)]
pub struct StaffWithPassword {
    pub member: StaffMember,
    /// The generated password, shown once; `None` when the caller chose it.
    pub generated_password: Option<String>,
}

impl Access {
    /// Creates a member of the caller's operator, no stronger than the caller.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id))]
    pub async fn create_staff(&self, caller: &Principal, request: NewStaff) -> Result<StaffWithPassword, AppError> {
        let grant = Grant::parse(&request.scopes).map_err(|e| AppError::invalid("scopes", e))?;
        check_issuance(caller.kind(), &caller.grant, CredentialKind::StaffSession, &grant)?;
        self.insert_staff(caller.operator_id, request, grant).await
    }

    /// Creates an operator's first member: for platform staff, who answer to no grant.
    #[tracing::instrument(skip_all, fields(operator_id = %operator_id))]
    pub async fn create_first_staff(
        &self,
        operator_id: OperatorId,
        request: NewStaff,
    ) -> Result<StaffWithPassword, AppError> {
        self.find_operator(operator_id).await?;
        let grant = Grant::parse(&request.scopes).map_err(|e| AppError::invalid("scopes", e))?;
        self.insert_staff(operator_id, request, grant).await
    }

    /// One page of the caller's operator's staff.
    pub async fn list_staff(
        &self,
        caller: &Principal,
        page: PageRequest<StaffKind>,
    ) -> Result<Page<StaffMember, StaffKind>, AppError> {
        Ok(self.ports.staff.list_staff(caller.operator_id, page).await?)
    }

    /// One member of the caller's operator, for a page that shows or edits it.
    pub async fn staff_member(&self, caller: &Principal, id: StaffId) -> Result<StaffMember, AppError> {
        self.ports
            .staff
            .find_staff(caller.operator_id, id)
            .await?
            .ok_or(AppError::NotFound("staff member"))
    }

    /// Changes a member's name, scopes or status.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id, staff_id = %id))]
    pub async fn update_staff(
        &self,
        caller: &Principal,
        id: StaffId,
        change: StaffChange,
    ) -> Result<StaffMember, AppError> {
        let patch = StaffPatch {
            name: change
                .name
                .map(|name| {
                    Label::parse(&name)
                        .map(Label::into_string)
                        .map_err(|e| AppError::invalid("name", e))
                })
                .transpose()?,
            grant: change
                .scopes
                .map(|scopes| Grant::parse(&scopes).map_err(|e| AppError::invalid("scopes", e)))
                .transpose()?,
            disabled: change.disabled,
        };
        self.check_may_manage(caller, id).await?;
        if let Some(grant) = &patch.grant {
            check_issuance(caller.kind(), &caller.grant, CredentialKind::StaffSession, grant)?;
        }
        let now = self.ports.clock.now();
        let member = self
            .ports
            .staff
            .update_staff(caller.operator_id, id, &patch, now)
            .await?
            .ok_or(AppError::NotFound("staff member"))?;
        tracing::info!(actor = %caller.actor_id(), "staff member updated");
        Ok(member)
    }

    /// Sets a new password (generated unless given) and ends all the member's sessions.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id, staff_id = %id))]
    pub async fn reset_staff_password(
        &self,
        caller: &Principal,
        id: StaffId,
        password: Option<String>,
    ) -> Result<StaffWithPassword, AppError> {
        let (password, generated) = self.choose_password(password)?;
        self.check_may_manage(caller, id).await?;
        let hash = self.passwords.hash(&password, self.ports.random.secret_bytes()).await?;
        let now = self.ports.clock.now();
        let member = self
            .ports
            .staff
            .reset_staff_password(caller.operator_id, id, &hash, now)
            .await?
            .ok_or(AppError::NotFound("staff member"))?;
        tracing::info!(actor = %caller.actor_id(), "staff password reset; sessions ended");
        Ok(StaffWithPassword {
            member,
            generated_password: generated.then(|| password.expose().to_owned()),
        })
    }

    async fn check_may_manage(&self, caller: &Principal, id: StaffId) -> Result<(), AppError> {
        let target = self
            .ports
            .staff
            .find_staff(caller.operator_id, id)
            .await?
            .ok_or(AppError::NotFound("staff member"))?;
        check_issuance(
            caller.kind(),
            &caller.grant,
            CredentialKind::StaffSession,
            &target.grant,
        )?;
        Ok(())
    }

    async fn insert_staff(
        &self,
        operator_id: OperatorId,
        request: NewStaff,
        grant: Grant,
    ) -> Result<StaffWithPassword, AppError> {
        let email = StaffEmail::parse(&request.email).map_err(|e| AppError::invalid("email", e))?;
        let name = Label::parse(&request.name).map_err(|e| AppError::invalid("name", e))?;
        let (password, generated) = self.choose_password(request.password)?;
        let hash = self.passwords.hash(&password, self.ports.random.secret_bytes()).await?;
        let now = self.ports.clock.now();
        let member = StaffMember {
            id: StaffId::from_ulid(self.ports.random.ulid()),
            operator_id,
            email,
            name: name.into_string(),
            grant,
            disabled: false,
            created_at: now,
            updated_at: now,
        };
        self.ports
            .staff
            .insert_staff(&member, &hash)
            .await
            .map_err(|e| match e {
                StoreError::Duplicate(UniqueKey::StaffEmail) => AppError::Conflict {
                    code: ProblemCode::StaffEmailTaken,
                    detail: "a staff member with this e-mail address already exists".into(),
                },
                other => other.into(),
            })?;
        tracing::info!(staff_id = %member.id, "staff member created");
        Ok(StaffWithPassword {
            member,
            generated_password: generated.then(|| password.expose().to_owned()),
        })
    }

    fn choose_password(&self, chosen: Option<String>) -> Result<(Password, bool), AppError> {
        match chosen {
            Some(text) => Password::new(text)
                .map(|p| (p, false))
                .map_err(|e| AppError::invalid("password", e)),
            None => Ok((Password::from_random(self.ports.random.secret_bytes()), true)),
        }
    }
}

#[cfg(test)]
mod tests {
    use opinion_access::{Grant, IssuanceError};
    use opinion_core::StaffId;

    use super::{NewStaff, StaffChange};
    use crate::error::{AppError, ProblemCode};
    use crate::ports::{StoreError, UniqueKey};
    use crate::test_support::*;

    fn new_staff(password: Option<&str>) -> NewStaff {
        NewStaff {
            email: "Ana@Example.com".into(),
            name: "Ana".into(),
            scopes: vec!["users:read".into()],
            password: password.map(str::to_owned),
        }
    }

    #[tokio::test]
    async fn creates_with_a_generated_password_shown_once_and_a_normalised_email() {
        let mut mocks = Mocks::default();
        mocks.staff.expect_insert_staff().times(1).returning(|member, hash| {
            assert_eq!(member.email.as_str(), "ana@example.com");
            assert!(
                hash.starts_with("$argon2id$"),
                "the password is stored as an argon2id hash"
            );
            Ok(())
        });
        let created = mocks
            .build()
            .create_staff(&staff_caller(Grant::All), new_staff(None))
            .await
            .expect("created");
        assert_eq!(created.generated_password.map(|p| p.len()), Some(32));
    }

    #[tokio::test]
    async fn a_chosen_password_is_checked_and_not_echoed() {
        let mut mocks = Mocks::default();
        mocks.staff.expect_insert_staff().never();
        let error = mocks
            .build()
            .create_staff(&staff_caller(Grant::All), new_staff(Some("short")))
            .await
            .expect_err("refused");
        assert!(matches!(error, AppError::Invalid { field: "password", .. }));
        let mut mocks = Mocks::default();
        mocks.staff.expect_insert_staff().returning(|_, _| Ok(()));
        let created = mocks
            .build()
            .create_staff(&staff_caller(Grant::All), new_staff(Some("a long enough password")))
            .await
            .expect("created");
        assert_eq!(created.generated_password, None);
    }

    #[tokio::test]
    async fn a_taken_email_is_a_conflict() {
        let mut mocks = Mocks::default();
        mocks
            .staff
            .expect_insert_staff()
            .returning(|_, _| Err(StoreError::Duplicate(UniqueKey::StaffEmail)));
        let error = mocks
            .build()
            .create_staff(&staff_caller(Grant::All), new_staff(None))
            .await
            .expect_err("refused");
        assert!(matches!(
            error,
            AppError::Conflict {
                code: ProblemCode::StaffEmailTaken,
                ..
            }
        ));
    }

    #[tokio::test]
    async fn a_restricted_member_cannot_grant_beyond_itself() {
        let mut mocks = Mocks::default();
        mocks.staff.expect_insert_staff().never();
        let caller = staff_caller(grant(&["staffs:write"]));
        let error = mocks
            .build()
            .create_staff(&caller, new_staff(None))
            .await
            .expect_err("refused");
        assert!(matches!(error, AppError::Issuance(IssuanceError::ExceedsIssuer { .. })));
    }

    #[tokio::test]
    async fn a_restricted_member_cannot_disable_or_reset_a_stronger_one() {
        let caller = staff_caller(grant(&["staffs:write", "users:read"]));
        let mut mocks = Mocks::default();
        mocks
            .staff
            .expect_find_staff()
            .returning(|_, id| Ok(Some(member(id.as_u128(), Grant::All))));
        mocks.staff.expect_update_staff().never();
        mocks.staff.expect_reset_staff_password().never();
        let access = mocks.build();
        let disable = StaffChange {
            disabled: Some(true),
            ..StaffChange::default()
        };
        assert!(matches!(
            access.update_staff(&caller, StaffId::from_u128(5), disable).await,
            Err(AppError::Issuance(_))
        ));
        assert!(matches!(
            access.reset_staff_password(&caller, StaffId::from_u128(5), None).await,
            Err(AppError::Issuance(_))
        ));
    }

    #[tokio::test]
    async fn a_member_of_another_operator_is_not_found() {
        let mut mocks = Mocks::default();
        mocks.staff.expect_find_staff().returning(|_, _| Ok(None));
        let error = mocks
            .build()
            .update_staff(&staff_caller(Grant::All), StaffId::from_u128(5), StaffChange::default())
            .await
            .expect_err("refused");
        assert!(matches!(error, AppError::NotFound("staff member")));
    }

    #[tokio::test]
    async fn password_reset_ends_sessions_through_the_store() {
        let mut mocks = Mocks::default();
        mocks
            .staff
            .expect_find_staff()
            .returning(|_, id| Ok(Some(member(id.as_u128(), grant(&["users:read"])))));
        mocks
            .staff
            .expect_reset_staff_password()
            .times(1)
            .returning(|op, id, hash, at| {
                assert_eq!(op, OPERATOR, "the caller's operator");
                assert!(
                    hash.starts_with("$argon2id$"),
                    "the password is stored as an argon2id hash"
                );
                assert_eq!(at, NOW, "reset now");
                Ok(Some(member(id.as_u128(), grant(&["users:read"]))))
            });
        let reset = mocks
            .build()
            .reset_staff_password(&staff_caller(Grant::All), StaffId::from_u128(5), None)
            .await
            .expect("reset");
        assert!(reset.generated_password.is_some());
    }

    #[tokio::test]
    async fn one_member_is_read_within_the_callers_operator() {
        let mut mocks = Mocks::default();
        mocks
            .staff
            .expect_find_staff()
            .withf(|operator, id| *operator == OPERATOR && *id == StaffId::from_u128(5))
            .returning(|_, id| Ok(Some(member(id.as_u128(), Grant::All))));
        mocks.staff.expect_find_staff().returning(|_, _| Ok(None));
        let access = mocks.build();
        let caller = staff_caller(Grant::All);
        let found = access
            .staff_member(&caller, StaffId::from_u128(5))
            .await
            .expect("found");
        assert_eq!(found.id, StaffId::from_u128(5));
        assert!(matches!(
            access.staff_member(&caller, StaffId::from_u128(6)).await,
            Err(AppError::NotFound("staff member"))
        ));
    }
}
