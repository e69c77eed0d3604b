//! `GET /flight/wallet-operations`: every wallet call made for the operator's players'
//! flight money (ticket purchases, payouts and refunds, in IDR), with what operators
//! reconcile with, like Opinion's balance operations: idempotency key,
//! `remote_reference`, HTTP status, UTC timestamps and, on request, each step. Only the
//! flight product's flows are listed; Opinion's are read through its own route.

use std::collections::HashMap;

use opinion_core::{OperatorId, Page, PageRequest, WalletOperationId, WalletOperationKind};
use opinion_wallet::{OperationState, WalletFlow};

use crate::error::AppError;
use crate::flight::reads::FlightReads;
use crate::flight::reads::ports::FlightOperationFilter;
use crate::model::{WalletOperationRecord, WalletOperationStep};
use crate::opinion::reads::filters::{one_of, optional_external_user_id, optional_id, time_range};

/// A flight wallet operation, with its steps when they were asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlightOperation {
    pub operation: WalletOperationRecord,
    /// Its steps in order, or `None` when not asked for.
    pub steps: Option<Vec<WalletOperationStep>>,
}

/// The flight wallet operations list's filters as the client wrote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlightOperationQuery {
    /// `externalUserId`: only this player's.
    pub external_user_id: Option<String>,
    /// `flightId`: only this flight's.
    pub flight_id: Option<String>,
    /// `ticketId`: only this ticket's.
    pub ticket_id: Option<String>,
    /// `flow`: `flight_ticket_purchase`, `flight_ticket_payout` or `flight_ticket_refund`.
    pub flow: Option<String>,
    /// `state`: one of the operation states.
    pub state: Option<String>,
    /// `from`: created at or after (RFC 3339).
    pub from: Option<String>,
    /// `to`: created before (RFC 3339).
    pub to: Option<String>,
    /// `includeSteps`: add each operation's steps.
    pub include_steps: bool,
}

impl FlightOperationQuery {
    fn filter(&self) -> Result<FlightOperationFilter, AppError> {
        Ok(FlightOperationFilter {
            external_user_id: optional_external_user_id(self.external_user_id.as_deref())?,
            flight_id: optional_id("flightId", self.flight_id.as_deref())?,
            ticket_id: optional_id("ticketId", self.ticket_id.as_deref())?,
            flow: one_of("flow", self.flow.as_deref(), &WalletFlow::FLIGHT, WalletFlow::as_str)?,
            state: one_of(
                "state",
                self.state.as_deref(),
                &OperationState::ALL,
                OperationState::as_str,
            )?,
            created: time_range(self.from.as_deref(), self.to.as_deref())?,
        })
    }
}

impl FlightReads {
    /// One page of the operator's flight wallet operations, newest first.
    pub async fn list_wallet_operations(
        &self,
        operator: OperatorId,
        query: &FlightOperationQuery,
        page: PageRequest<WalletOperationKind>,
    ) -> Result<Page<FlightOperation, WalletOperationKind>, AppError> {
        let filter = query.filter()?;
        let page = self.ports.store.list_wallet_operations(operator, &filter, page).await?;
        if !query.include_steps {
            return Ok(page.map(|operation| FlightOperation { operation, steps: None }));
        }
        let Page { items, next } = page;
        Ok(Page {
            items: self.with_steps(operator, items).await?,
            next,
        })
    }

    /// The operations with their steps, read in one go.
    async fn with_steps(
        &self,
        operator: OperatorId,
        operations: Vec<WalletOperationRecord>,
    ) -> Result<Vec<FlightOperation>, AppError> {
        if operations.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<WalletOperationId> = operations.iter().map(|operation| operation.id).collect();
        let mut steps: HashMap<WalletOperationId, Vec<WalletOperationStep>> = HashMap::new();
        for (id, step) in self.ports.store.wallet_operation_steps(operator, &ids).await? {
            steps.entry(id).or_default().push(step);
        }
        Ok(operations
            .into_iter()
            .map(|operation| FlightOperation {
                steps: Some(steps.remove(&operation.id).unwrap_or_default()),
                operation,
            })
            .collect())
    }
}
