//! `GET /markets`: every market with the operator's pool, prices and visibility.

use opinion_core::{MarketId, MarketKind, OperatorId, Page, PageRequest};

use crate::error::AppError;
use crate::model::OperatorMarket;
use crate::opinion::reads::OperatorReads;
use crate::opinion::reads::filters::one_of;
use crate::opinion::reads::ports::{MarketFilter, MarketStage};

/// The markets list's filters as the client wrote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MarketQuery {
    /// `status`: `open`, `closed` or `resolved`.
    pub status: Option<String>,
    /// `visibility`: `visible` or `hidden` to the operator's players.
    pub visibility: Option<String>,
}

impl MarketStage {
    /// Every stage.
    pub const ALL: [MarketStage; 3] = [Self::Open, Self::Closed, Self::Resolved];

    /// The `status` name of the stage, as markets are stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Closed => "closed",
            Self::Resolved => "resolved",
        }
    }
}

/// The `visibility` filter's names: `hidden` is `true`.
const VISIBILITIES: [bool; 2] = [false, true];

fn visibility_name(hidden: bool) -> &'static str {
    if hidden { "hidden" } else { "visible" }
}

impl MarketQuery {
    /// The names the `visibility` filter takes, for the API document.
    pub fn visibility_names() -> [&'static str; 2] {
        VISIBILITIES.map(visibility_name)
    }

    fn filter(&self) -> Result<MarketFilter, AppError> {
        Ok(MarketFilter {
            stage: one_of("status", self.status.as_deref(), &MarketStage::ALL, MarketStage::as_str)?,
            hidden: one_of("visibility", self.visibility.as_deref(), &VISIBILITIES, visibility_name)?,
        })
    }
}

impl OperatorReads {
    /// One page of markets as the operator sees them, newest first.
    pub async fn list_markets(
        &self,
        operator: OperatorId,
        query: &MarketQuery,
        page: PageRequest<MarketKind>,
    ) -> Result<Page<OperatorMarket, MarketKind>, AppError> {
        self.markets_matching(operator, query.filter()?, page).await
    }

    /// One page of the markets a player of `operator` may trade now: open and not
    /// hidden, newest first.
    pub async fn markets_on_offer(
        &self,
        operator: OperatorId,
        page: PageRequest<MarketKind>,
    ) -> Result<Page<OperatorMarket, MarketKind>, AppError> {
        let on_offer = MarketFilter {
            stage: Some(MarketStage::Open),
            hidden: Some(false),
        };
        self.markets_matching(operator, on_offer, page).await
    }

    async fn markets_matching(
        &self,
        operator: OperatorId,
        filter: MarketFilter,
        page: PageRequest<MarketKind>,
    ) -> Result<Page<OperatorMarket, MarketKind>, AppError> {
        Ok(self.ports.reads.list_markets(operator, &filter, page).await?)
    }

    /// One market as the operator sees it; 404 if there is none.
    pub async fn market(&self, operator: OperatorId, id: MarketId) -> Result<OperatorMarket, AppError> {
        self.ports
            .reads
            .find_market(operator, id)
            .await?
            .ok_or(AppError::NotFound("market"))
    }
}

#[cfg(test)]
mod tests {
    use opinion_market::MarketStatus;

    use super::*;
    use crate::test_support::OPERATOR;
    use crate::test_support::reads::*;

    #[tokio::test]
    async fn status_and_visibility_become_a_typed_filter() {
        let mut mocks = ReadMocks::default();
        mocks
            .reads
            .expect_list_markets()
            .times(1)
            .returning(|operator, filter, _| {
                assert_eq!(operator, OPERATOR);
                assert!(
                    *filter
                        == MarketFilter {
                            stage: Some(MarketStage::Resolved),
                            hidden: Some(true),
                        }
                );
                Ok(empty_page())
            });
        let query = MarketQuery {
            status: Some("resolved".into()),
            visibility: Some("hidden".into()),
        };
        mocks
            .build()
            .list_markets(OPERATOR, &query, PageRequest::default())
            .await
            .expect("listed");
    }

    #[tokio::test]
    async fn unknown_names_are_refused_naming_the_parameter() {
        let mut mocks = ReadMocks::default();
        mocks.reads.expect_list_markets().never();
        let reads = mocks.build();
        for (query, field) in [
            (
                MarketQuery {
                    status: Some("Open".into()),
                    visibility: None,
                },
                "status",
            ),
            (
                MarketQuery {
                    status: None,
                    visibility: Some("shown".into()),
                },
                "visibility",
            ),
        ] {
            let error = reads
                .list_markets(OPERATOR, &query, PageRequest::default())
                .await
                .expect_err("refused");
            assert!(
                matches!(error, AppError::Invalid { field: f, .. } if f == field),
                "{error:?}"
            );
        }
    }

    #[test]
    fn stage_names_are_the_market_status_names() {
        let statuses = [
            MarketStatus::Open,
            MarketStatus::Closed,
            MarketStatus::Resolved(opinion_market::Resolution::No),
        ];
        for (stage, status) in MarketStage::ALL.into_iter().zip(statuses) {
            assert_eq!(stage.as_str(), status.as_str());
        }
    }

    #[tokio::test]
    async fn an_unknown_market_is_not_found() {
        let mut mocks = ReadMocks::default();
        mocks.reads.expect_find_market().returning(|_, _| Ok(None));
        let error = mocks
            .build()
            .market(OPERATOR, MarketId::from_u128(3))
            .await
            .expect_err("missing");
        assert!(matches!(error, AppError::NotFound("market")));
    }
}
