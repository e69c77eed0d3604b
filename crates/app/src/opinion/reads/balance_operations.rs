//! `GET /balance-operations`: every wallet call made for the operator's players' Opinion
//! money, with what operators reconcile with (contract rule 7): idempotency key,
//! `remote_reference`, HTTP status, detail, UTC timestamps and, on request, each step.
//! Only Opinion's flows are listed (the store reads no other): the flight product's
//! wallet operations are read through its own routes.

use std::collections::HashMap;

use opinion_core::{OperatorId, Page, PageRequest, WalletOperationId, WalletOperationKind};
use opinion_wallet::{OperationState, WalletFlow};

use crate::error::AppError;
use crate::model::{WalletOperationRecord, WalletOperationStep};
use crate::opinion::reads::OperatorReads;
use crate::opinion::reads::filters::{one_of, optional_external_user_id, optional_id, time_range};
use crate::opinion::reads::ports::WalletOperationFilter;

/// A wallet operation, with its steps when they were asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalanceOperation {
    pub operation: WalletOperationRecord,
    /// Its steps in order, or `None` when not asked for.
    pub steps: Option<Vec<WalletOperationStep>>,
}

/// The balance operations list's filters as the client wrote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BalanceOperationQuery {
    /// `externalUserId`: only this player's.
    pub external_user_id: Option<String>,
    /// `marketId`: only this market's.
    pub market_id: Option<String>,
    /// `flow`: `buy`, `sell`, `buy_compensation` or `redemption`.
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

impl BalanceOperationQuery {
    fn filter(&self) -> Result<WalletOperationFilter, AppError> {
        Ok(WalletOperationFilter {
            external_user_id: optional_external_user_id(self.external_user_id.as_deref())?,
            market_id: optional_id("marketId", self.market_id.as_deref())?,
            flow: one_of("flow", self.flow.as_deref(), &WalletFlow::OPINION, WalletFlow::as_str)?,
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

impl OperatorReads {
    /// One page of the operator's wallet operations, newest first.
    pub async fn list_balance_operations(
        &self,
        operator: OperatorId,
        query: &BalanceOperationQuery,
        page: PageRequest<WalletOperationKind>,
    ) -> Result<Page<BalanceOperation, WalletOperationKind>, AppError> {
        let filter = query.filter()?;
        let page = self.ports.reads.list_wallet_operations(operator, &filter, page).await?;
        if !query.include_steps {
            return Ok(page.map(|operation| BalanceOperation { operation, steps: None }));
        }
        let Page { items, next } = page;
        Ok(Page {
            items: self.with_steps(operator, items).await?,
            next,
        })
    }

    /// The operations with their steps, read in one go.
    pub(crate) async fn with_steps(
        &self,
        operator: OperatorId,
        operations: Vec<WalletOperationRecord>,
    ) -> Result<Vec<BalanceOperation>, AppError> {
        if operations.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<WalletOperationId> = operations.iter().map(|operation| operation.id).collect();
        let mut steps: HashMap<WalletOperationId, Vec<WalletOperationStep>> = HashMap::new();
        for (id, step) in self.ports.reads.list_wallet_operation_steps(operator, &ids).await? {
            steps.entry(id).or_default().push(step);
        }
        Ok(operations
            .into_iter()
            .map(|operation| BalanceOperation {
                steps: Some(steps.remove(&operation.id).unwrap_or_default()),
                operation,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::reads::*;
    use crate::test_support::{NOW, OPERATOR};

    #[tokio::test]
    async fn every_filter_reaches_the_store_typed() {
        let mut mocks = ReadMocks::default();
        mocks
            .reads
            .expect_list_wallet_operations()
            .times(1)
            .withf(|operator, filter, _| {
                *operator == OPERATOR
                    && filter.flow == Some(WalletFlow::BuyCompensation)
                    && filter.state == Some(OperationState::ManualReview)
                    && filter.market_id == Some(opinion_core::MarketId::from_u128(3))
                    && filter.external_user_id.as_deref() == Some("p-1")
                    && filter.created.to == Some(NOW)
            })
            .returning(|_, _, _| Ok(empty_page()));
        mocks.reads.expect_list_wallet_operation_steps().never();
        let query = BalanceOperationQuery {
            external_user_id: Some("p-1".into()),
            market_id: Some(opinion_core::MarketId::from_u128(3).to_string()),
            flow: Some("buy_compensation".into()),
            state: Some("manual_review".into()),
            from: None,
            to: Some("2026-11-22T12:00:00Z".into()),
            include_steps: false,
        };
        mocks
            .build()
            .list_balance_operations(OPERATOR, &query, PageRequest::default())
            .await
            .expect("listed");
    }

    #[tokio::test]
    async fn bad_filters_name_their_parameter() {
        let mut mocks = ReadMocks::default();
        mocks.reads.expect_list_wallet_operations().never();
        let reads = mocks.build();
        let cases = [
            (
                "flow",
                BalanceOperationQuery {
                    flow: Some("deposit".into()),
                    ..Default::default()
                },
            ),
            (
                "flow",
                BalanceOperationQuery {
                    flow: Some("flight_ticket_purchase".into()),
                    ..Default::default()
                },
            ),
            (
                "state",
                BalanceOperationQuery {
                    state: Some("done".into()),
                    ..Default::default()
                },
            ),
            (
                "marketId",
                BalanceOperationQuery {
                    market_id: Some("trd_x".into()),
                    ..Default::default()
                },
            ),
            (
                "to",
                BalanceOperationQuery {
                    to: Some("never".into()),
                    ..Default::default()
                },
            ),
        ];
        for (field, query) in cases {
            let error = reads
                .list_balance_operations(OPERATOR, &query, PageRequest::default())
                .await
                .expect_err("refused");
            assert!(
                matches!(error, AppError::Invalid { field: f, .. } if f == field),
                "{error:?}"
            );
        }
    }
}
