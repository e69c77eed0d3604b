//! Resolutions and redemptions on the wire, and the queries that read them.

use opinion_app::model::{MarketResolution, Redemption};
use opinion_app::opinion::reads::{RedemptionQuery, ResolutionQuery};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::shared::page_query::page_of;

/// What a market's resolution owed the operator's players.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResolutionBody {
    /// `mkt_…`
    pub market_id: String,
    /// `yes`, `no` or `void`.
    pub resolution: String,
    /// When (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub resolved_at: OffsetDateTime,
    /// How many of the operator's positions were owed a payout.
    pub redemption_count: i64,
    /// The sum of those payouts, an integer string of minor units.
    pub payout_total: String,
    /// ISO 4217 currency.
    pub currency: String,
}

impl From<MarketResolution> for ResolutionBody {
    fn from(resolution: MarketResolution) -> Self {
        Self {
            market_id: resolution.market_id.to_string(),
            resolution: resolution.resolution.as_str().to_owned(),
            resolved_at: resolution.resolved_at,
            redemption_count: resolution.redemption_count,
            payout_total: resolution.payout_total.to_string(),
            currency: resolution.currency.as_str().to_owned(),
        }
    }
}

/// One position's payout.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RedemptionBody {
    /// `red_…`
    pub id: String,
    /// `mkt_…`
    pub market_id: String,
    /// `usr_…`
    pub user_id: String,
    /// The operator's id of the player.
    pub external_user_id: String,
    /// `yes`, `no` or `void`.
    pub resolution: String,
    /// Minor units owed, an integer string.
    pub amount: String,
    /// ISO 4217 currency.
    pub currency: String,
    /// `pending`, `manual_review`, `paid` or `refused`.
    pub status: String,
    /// When it was created (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When the wallet credited it.
    #[serde(with = "time::serde::rfc3339::option")]
    pub paid_at: Option<OffsetDateTime>,
}

impl From<Redemption> for RedemptionBody {
    fn from(redemption: Redemption) -> Self {
        Self {
            id: redemption.id.to_string(),
            market_id: redemption.market_id.to_string(),
            user_id: redemption.user_id.to_string(),
            external_user_id: redemption.external_user_id,
            resolution: redemption.resolution.as_str().to_owned(),
            amount: redemption.amount.to_string(),
            currency: redemption.currency.as_str().to_owned(),
            status: redemption.status.as_str().to_owned(),
            created_at: redemption.created_at,
            paid_at: redemption.paid_at,
        }
    }
}

/// `GET /resolutions`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ResolutionsQuery {
    /// Only this market's (`mkt_…`).
    pub market_id: Option<String>,
    /// `yes`, `no` or `void`.
    pub resolution: Option<String>,
    /// Resolved at or after this time (RFC 3339).
    pub from: Option<String>,
    /// Resolved before this time (RFC 3339).
    pub to: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}
page_of!(ResolutionsQuery);

impl From<&ResolutionsQuery> for ResolutionQuery {
    fn from(query: &ResolutionsQuery) -> Self {
        Self {
            market_id: query.market_id.clone(),
            resolution: query.resolution.clone(),
            from: query.from.clone(),
            to: query.to.clone(),
        }
    }
}

/// `GET /redemptions`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RedemptionsQuery {
    /// Only this player's.
    pub external_user_id: Option<String>,
    /// Only this market's (`mkt_…`).
    pub market_id: Option<String>,
    /// `pending`, `manual_review`, `paid` or `refused`.
    pub status: Option<String>,
    /// Created at or after this time (RFC 3339).
    pub from: Option<String>,
    /// Created before this time (RFC 3339).
    pub to: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}
page_of!(RedemptionsQuery);

impl From<&RedemptionsQuery> for RedemptionQuery {
    fn from(query: &RedemptionsQuery) -> Self {
        Self {
            external_user_id: query.external_user_id.clone(),
            market_id: query.market_id.clone(),
            status: query.status.clone(),
            from: query.from.clone(),
            to: query.to.clone(),
        }
    }
}
