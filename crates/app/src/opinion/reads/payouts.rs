//! `GET /resolutions` and `GET /redemptions`: what the operator's players were owed when
//! markets resolved, per market and per position.

use opinion_core::{MarketKind, OperatorId, Page, PageRequest, RedemptionKind};
use opinion_market::{RedemptionStatus, Resolution};

use crate::error::AppError;
use crate::model::{MarketResolution, Redemption};
use crate::opinion::reads::OperatorReads;
use crate::opinion::reads::filters::{one_of, optional_external_user_id, optional_id, time_range};
use crate::opinion::reads::ports::{RedemptionFilter, ResolutionFilter};

/// The values the `resolution` filter takes.
pub const RESOLUTIONS: [Resolution; 3] = [Resolution::Yes, Resolution::No, Resolution::Void];

/// The resolutions list's filters as the client wrote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResolutionQuery {
    /// `marketId`: only this market's.
    pub market_id: Option<String>,
    /// `resolution`: `yes`, `no` or `void`.
    pub resolution: Option<String>,
    /// `from`: resolved at or after (RFC 3339).
    pub from: Option<String>,
    /// `to`: resolved before (RFC 3339).
    pub to: Option<String>,
}

/// The redemptions list's filters as the client wrote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RedemptionQuery {
    /// `externalUserId`: only this player's.
    pub external_user_id: Option<String>,
    /// `marketId`: only this market's.
    pub market_id: Option<String>,
    /// `status`: `pending`, `manual_review`, `paid` or `refused`.
    pub status: Option<String>,
    /// `from`: created at or after (RFC 3339).
    pub from: Option<String>,
    /// `to`: created before (RFC 3339).
    pub to: Option<String>,
}

impl OperatorReads {
    /// One page of the operator's market resolutions, newest market first.
    pub async fn list_resolutions(
        &self,
        operator: OperatorId,
        query: &ResolutionQuery,
        page: PageRequest<MarketKind>,
    ) -> Result<Page<MarketResolution, MarketKind>, AppError> {
        let filter = ResolutionFilter {
            market_id: optional_id("marketId", query.market_id.as_deref())?,
            resolution: one_of(
                "resolution",
                query.resolution.as_deref(),
                &RESOLUTIONS,
                Resolution::as_str,
            )?,
            resolved: time_range(query.from.as_deref(), query.to.as_deref())?,
        };
        Ok(self.ports.reads.list_resolutions(operator, &filter, page).await?)
    }

    /// One page of the operator's redemptions, newest first.
    pub async fn list_redemptions(
        &self,
        operator: OperatorId,
        query: &RedemptionQuery,
        page: PageRequest<RedemptionKind>,
    ) -> Result<Page<Redemption, RedemptionKind>, AppError> {
        let filter = RedemptionFilter {
            external_user_id: optional_external_user_id(query.external_user_id.as_deref())?,
            market_id: optional_id("marketId", query.market_id.as_deref())?,
            status: one_of(
                "status",
                query.status.as_deref(),
                RedemptionStatus::ALL,
                RedemptionStatus::as_str,
            )?,
            created: time_range(query.from.as_deref(), query.to.as_deref())?,
        };
        Ok(self.ports.reads.list_redemptions(operator, &filter, page).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::reads::*;
    use crate::test_support::{NOW, OPERATOR};

    #[tokio::test]
    async fn filters_reach_the_store_typed() {
        let mut mocks = ReadMocks::default();
        mocks
            .reads
            .expect_list_resolutions()
            .times(1)
            .returning(|operator, filter, _| {
                assert_eq!(operator, OPERATOR, "the caller's operator");
                assert_eq!(filter.resolution, Some(Resolution::Void), "the resolution filter");
                Ok(empty_page())
            });
        mocks
            .reads
            .expect_list_redemptions()
            .times(1)
            .returning(|operator, filter, _| {
                assert_eq!(operator, OPERATOR);
                assert_eq!(filter.status, Some(RedemptionStatus::Refused));
                assert_eq!(filter.created.from, Some(NOW));
                Ok(empty_page())
            });
        let reads = mocks.build();
        let resolutions = ResolutionQuery {
            resolution: Some("void".into()),
            ..Default::default()
        };
        reads
            .list_resolutions(OPERATOR, &resolutions, PageRequest::default())
            .await
            .expect("listed");
        let redemptions = RedemptionQuery {
            status: Some("refused".into()),
            from: Some("2026-11-22T12:00:00Z".into()),
            ..Default::default()
        };
        reads
            .list_redemptions(OPERATOR, &redemptions, PageRequest::default())
            .await
            .expect("listed");
    }

    #[tokio::test]
    async fn bad_filters_name_their_parameter() {
        let mut mocks = ReadMocks::default();
        mocks.reads.expect_list_resolutions().never();
        mocks.reads.expect_list_redemptions().never();
        let reads = mocks.build();
        let bad_resolution = ResolutionQuery {
            resolution: Some("maybe".into()),
            ..Default::default()
        };
        let error = reads
            .list_resolutions(OPERATOR, &bad_resolution, PageRequest::default())
            .await
            .expect_err("refused");
        assert!(matches!(
            error,
            AppError::Invalid {
                field: "resolution",
                ..
            }
        ));
        let bad_status = RedemptionQuery {
            status: Some("owed".into()),
            ..Default::default()
        };
        let error = reads
            .list_redemptions(OPERATOR, &bad_status, PageRequest::default())
            .await
            .expect_err("refused");
        assert!(matches!(error, AppError::Invalid { field: "status", .. }));
    }
}
