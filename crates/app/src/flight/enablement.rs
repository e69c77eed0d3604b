//! Whether an operator's players may buy flight tickets (FLIGHT.md §3). Platform staff
//! enable it, and only once nothing blocks it (`opinion_flight::check_enablement`; in
//! production a valid production authorization is one of the conditions): every blocker
//! is listed at once, so staff fix them all in one go. Disabling stops new
//! tickets; tickets already bought fly and settle.

use opinion_core::{OperatorId, PageRequest};
use opinion_flight::{EnablementCheck, EnablementFacts, check_enablement};
use opinion_wallet::Product;

use crate::error::{AppError, ProblemCode};
use crate::flight::FlightGame;
use crate::flight::model::Enablement;
use crate::flight::terms::staff_name;
use crate::players::ports::ProductGate;
use crate::ports::StoreError;
use crate::wallet::contract_test::flight_section_passed;

/// What asking to enable did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnableOutcome {
    /// Enabled (or already was); the check's warnings are for staff.
    Enabled(EnablementCheck),
    /// Refused: nothing was changed; the check lists every blocker.
    Refused(EnablementCheck),
}

/// An operator's flight status as staff see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnablementStatus {
    /// The stored switch, if staff ever touched it.
    pub enablement: Option<Enablement>,
    /// What enabling would meet now.
    pub check: EnablementCheck,
}

impl FlightGame {
    /// `product_not_enabled` unless the operator's players may buy tickets.
    pub(crate) async fn ensure_enabled(&self, operator: OperatorId) -> Result<(), AppError> {
        if self.is_enabled(operator).await? {
            Ok(())
        } else {
            Err(AppError::Conflict {
                code: ProblemCode::ProductNotEnabled,
                detail: "the flight product is not enabled for this operator".into(),
            })
        }
    }

    /// Whether the operator's players may buy tickets (and be launched into flight).
    pub async fn is_enabled(&self, operator: OperatorId) -> Result<bool, AppError> {
        Ok(self.product_enabled(operator, Product::Flight).await?)
    }

    /// The stored switch, `None` while platform staff never enabled flight for the
    /// operator (a later disable keeps it: the operator still has tickets and statements).
    pub async fn enablement(&self, operator: OperatorId) -> Result<Option<Enablement>, AppError> {
        Ok(self.ports.store.find_enablement(operator).await?)
    }

    /// The stored switch and what enabling would meet now.
    pub async fn enablement_status(&self, operator: OperatorId) -> Result<EnablementStatus, AppError> {
        self.known_operator(operator).await?;
        Ok(EnablementStatus {
            enablement: self.ports.store.find_enablement(operator).await?,
            check: self.enablement_check(operator).await?,
        })
    }

    /// Enables flight for the operator unless something blocks it.
    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    pub async fn enable(&self, operator: OperatorId, by: &str) -> Result<EnableOutcome, AppError> {
        let by = staff_name(by)?;
        self.known_operator(operator).await?;
        let check = self.enablement_check(operator).await?;
        if !check.allows() {
            return Ok(EnableOutcome::Refused(check));
        }
        self.switch(operator, true, by).await?;
        Ok(EnableOutcome::Enabled(check))
    }

    /// Disables flight: no new tickets; tickets already bought fly and settle.
    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    pub async fn disable(&self, operator: OperatorId, by: &str) -> Result<(), AppError> {
        let by = staff_name(by)?;
        self.known_operator(operator).await?;
        self.switch(operator, false, by).await
    }

    async fn switch(&self, operator: OperatorId, enabled: bool, by: &str) -> Result<(), AppError> {
        let enablement = Enablement {
            operator_id: operator,
            enabled,
            changed_at: self.ports.clock.now(),
            changed_by: by.to_owned(),
        };
        tracing::info!(enabled, by, "flight enablement changed");
        Ok(self.ports.store.save_enablement(&enablement).await?)
    }

    pub(crate) async fn known_operator(&self, operator: OperatorId) -> Result<(), AppError> {
        match self.ports.operators.find_operator(operator).await? {
            Some(_) => Ok(()),
            None => Err(AppError::NotFound("operator")),
        }
    }

    /// Gathers the facts the enablement rule needs.
    async fn enablement_check(&self, operator: OperatorId) -> Result<EnablementCheck, AppError> {
        let adapter = self.ports.wallet_adapters.find_wallet_adapter(operator).await?;
        let run = self.ports.wallet_test_runs.latest_wallet_test_run(operator).await?;
        let facts = EnablementFacts {
            has_wallet_adapter: adapter.is_some(),
            flight_wallet_test_passed: adapter
                .as_ref()
                .is_some_and(|adapter| flight_section_passed(adapter, run.as_ref())),
            has_current_terms: self.current_terms(operator).await?.is_some(),
            subscribes_to_flight_events: self.subscribes_to_flight_events(operator).await?,
            production_authorized: self.production_authorized(operator).await?,
        };
        Ok(check_enablement(facts))
    }

    /// Whether an enabled endpoint of the operator subscribes to a flight event.
    async fn subscribes_to_flight_events(&self, operator: OperatorId) -> Result<bool, AppError> {
        let mut page = PageRequest::default();
        loop {
            let endpoints = self.ports.webhooks.list_endpoints(operator, page).await?;
            let subscribed = endpoints
                .items
                .iter()
                .any(|endpoint| endpoint.enabled && endpoint.subscription.types().any(|kind| kind.is_flight()));
            if subscribed {
                return Ok(true);
            }
            match endpoints.next {
                Some(next) => page.after = Some(next),
                None => return Ok(false),
            }
        }
    }
}

#[async_trait::async_trait]
impl ProductGate for FlightGame {
    async fn product_enabled(&self, operator: OperatorId, product: Product) -> Result<bool, StoreError> {
        match product {
            Product::Opinion => Ok(true),
            Product::Flight => {
                let enablement = self.ports.store.find_enablement(operator).await?;
                Ok(enablement.is_some_and(|enablement| enablement.enabled))
            }
        }
    }
}
