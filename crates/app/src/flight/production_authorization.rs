//! Production authorization (FLIGHT.md §3): platform staff record one per operator (who,
//! when, the reference of the signed-off change, an optional expiry) and revoke it. In
//! production, enabling flight and every ticket purchase need a valid one; a ticket is
//! refused before its debit is stored, and checked again in the transaction that stores
//! it, so no purchase debit is ever sent for an operator without one. The wallet test
//! asks the same question (`FlightMoneyGate`) before its flight section. Payouts and
//! refunds of tickets already bought are not purchases: they settle whatever happens to
//! the authorization. The rule itself is `opinion_flight::authorization_at`.

use opinion_core::{OperatorId, ProductionAuthorizationId};
use opinion_flight::{
    AuthorizationReference, AuthorizationRequirement, AuthorizationStatus, ProductionAuthorization, Revocation,
    authorization_at, check_new_authorization,
};
use time::OffsetDateTime;

use crate::error::{AppError, ProblemCode};
use crate::flight::FlightGame;
use crate::flight::terms::staff_name;
use crate::ports::StoreError;
use crate::wallet::ports::FlightMoneyGate;

/// What platform staff record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewProductionAuthorization {
    /// The reference of the signed-off change it rests on.
    pub reference: String,
    /// When it stops authorizing, if it expires.
    pub expires_at: Option<OffsetDateTime>,
}

/// An operator's production authorizations and what they mean at an instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorizationBook {
    /// Whether this environment needs one.
    pub requirement: AuthorizationRequirement,
    /// Every record, revoked and expired ones included, oldest first.
    pub records: Vec<ProductionAuthorization>,
    /// The instant the book was read.
    pub at: OffsetDateTime,
}

impl AuthorizationBook {
    /// The operator's authorization at the instant the book was read.
    pub fn status(&self) -> AuthorizationStatus<'_> {
        authorization_at(self.requirement, &self.records, self.at)
    }
}

impl FlightGame {
    /// Records a production authorization for the operator, valid from now.
    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    pub async fn authorize_production(
        &self,
        operator: OperatorId,
        new: &NewProductionAuthorization,
        by: &str,
    ) -> Result<ProductionAuthorization, AppError> {
        let by = staff_name(by)?;
        let reference = AuthorizationReference::new(&new.reference).map_err(|e| AppError::invalid("reference", e))?;
        let now = self.ports.clock.now();
        check_new_authorization(now, new.expires_at).map_err(|refusal| AppError::invalid("expiresAt", refusal))?;
        self.known_operator(operator).await?;
        let authorization = ProductionAuthorization {
            id: ProductionAuthorizationId::from_ulid(self.ports.random.ulid()),
            operator_id: operator,
            reference,
            recorded_at: now,
            recorded_by: by.to_owned(),
            expires_at: new.expires_at,
            revocation: None,
        };
        self.ports.store.add_production_authorization(&authorization).await?;
        tracing::info!(
            authorization_id = %authorization.id,
            reference = %authorization.reference,
            by,
            expires_at = ?authorization.expires_at,
            "production authorization recorded"
        );
        Ok(authorization)
    }

    /// Revokes every production authorization of the operator in force now: no new
    /// ticket from this instant; tickets already bought settle. Returns how many were
    /// in force (none is not an error: nothing authorizes the operator either way).
    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    pub async fn revoke_production(&self, operator: OperatorId, by: &str) -> Result<usize, AppError> {
        let by = staff_name(by)?;
        self.known_operator(operator).await?;
        let revocation = Revocation {
            at: self.ports.clock.now(),
            by: by.to_owned(),
        };
        let stopped = self
            .ports
            .store
            .revoke_production_authorizations(operator, &revocation)
            .await?;
        tracing::info!(stopped, by, "production authorization revoked");
        Ok(stopped)
    }

    /// The operator's production authorizations and what they mean now.
    pub async fn production_authorization(&self, operator: OperatorId) -> Result<AuthorizationBook, AppError> {
        self.known_operator(operator).await?;
        Ok(self.authorization_book(operator).await?)
    }

    async fn authorization_book(&self, operator: OperatorId) -> Result<AuthorizationBook, StoreError> {
        Ok(AuthorizationBook {
            requirement: self.settings.production_authorization,
            records: self.ports.store.production_authorizations(operator).await?,
            at: self.ports.clock.now(),
        })
    }

    /// Whether the operator may have flight money moved now: always outside production
    /// (without reading the store), in production only with a valid authorization.
    pub(crate) async fn production_authorized(&self, operator: OperatorId) -> Result<bool, StoreError> {
        match self.settings.production_authorization {
            AuthorizationRequirement::NotRequired => Ok(true),
            AuthorizationRequirement::Required => Ok(self.authorization_book(operator).await?.status().allows()),
        }
    }

    /// `production_authorization_missing` unless `production_authorized`.
    pub(crate) async fn ensure_production_authorized(&self, operator: OperatorId) -> Result<(), AppError> {
        if self.production_authorized(operator).await? {
            Ok(())
        } else {
            Err(missing())
        }
    }
}

/// The wallet test's question, answered by the same rule as purchases and enablement.
#[async_trait::async_trait]
impl FlightMoneyGate for FlightGame {
    async fn flight_money_may_move(&self, operator: OperatorId) -> Result<bool, StoreError> {
        self.production_authorized(operator).await
    }
}

/// The refusal of a purchase for an operator without a valid production authorization.
pub(crate) fn missing() -> AppError {
    AppError::Conflict {
        code: ProblemCode::ProductionAuthorizationMissing,
        detail: "flight tickets cannot be bought: the operator holds no valid production authorization".into(),
    }
}
