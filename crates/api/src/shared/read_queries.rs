//! The query strings of the operator's read routes. Filters arrive as text and are
//! validated by the use cases, which name the parameter in every refusal; unknown
//! parameters are refused here.

use opinion_app::{BalanceOperationQuery, MarketQuery, RedemptionQuery, ResolutionQuery, TradeQuery, UserQuery};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::http::extract::PageQuery;

macro_rules! page_of {
    ($name:ident) => {
        impl $name {
            /// The page part of the query.
            pub fn page_query(&self) -> PageQuery {
                PageQuery {
                    limit: self.limit,
                    cursor: self.cursor.clone(),
                }
            }
        }
    };
}

/// `GET /users`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct UsersQuery {
    /// Only the player with this id at the operator.
    pub external_user_id: Option<String>,
    /// First launched at or after this time (RFC 3339).
    pub from: Option<String>,
    /// First launched before this time (RFC 3339).
    pub to: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}
page_of!(UsersQuery);

impl From<&UsersQuery> for UserQuery {
    fn from(query: &UsersQuery) -> Self {
        Self {
            external_user_id: query.external_user_id.clone(),
            from: query.from.clone(),
            to: query.to.clone(),
        }
    }
}

/// `GET /users/portfolio` and `GET /users/portfolio-view`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PortfolioQuery {
    /// The player's id at the operator.
    pub external_user_id: String,
}

/// `GET /views/portfolio`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PortfolioLinkQuery {
    /// The signed token of the link.
    pub token: String,
}

/// `GET /markets`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MarketsQuery {
    /// `open`, `closed` or `resolved`.
    pub status: Option<String>,
    /// `visible` or `hidden` (to the operator's players).
    pub visibility: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}
page_of!(MarketsQuery);

impl From<&MarketsQuery> for MarketQuery {
    fn from(query: &MarketsQuery) -> Self {
        Self {
            status: query.status.clone(),
            visibility: query.visibility.clone(),
        }
    }
}

/// `GET /markets/trending`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TrendingQuery {
    /// `1h`, `24h` (default) or `7d`.
    pub window: Option<String>,
    /// How many markets, 1 to 200 (default 50).
    pub limit: Option<u32>,
}

/// `GET /trades` (and the page of one player's trades in one market).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TradesQuery {
    /// Only this player's trades.
    pub external_user_id: Option<String>,
    /// Only this market's trades (`mkt_…`).
    pub market_id: Option<String>,
    /// `pending`, `manual_review`, `executed` or `failed`.
    pub status: Option<String>,
    /// `buy` or `sell`.
    pub side: Option<String>,
    /// Created at or after this time (RFC 3339).
    pub from: Option<String>,
    /// Created before this time (RFC 3339).
    pub to: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}
page_of!(TradesQuery);

impl From<&TradesQuery> for TradeQuery {
    fn from(query: &TradesQuery) -> Self {
        Self {
            external_user_id: query.external_user_id.clone(),
            market_id: query.market_id.clone(),
            status: query.status.clone(),
            side: query.side.clone(),
            from: query.from.clone(),
            to: query.to.clone(),
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

/// `GET /balance-operations`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BalanceOperationsQuery {
    /// Only this player's.
    pub external_user_id: Option<String>,
    /// Only this market's (`mkt_…`).
    pub market_id: Option<String>,
    /// `buy`, `sell`, `buy_compensation` or `redemption`.
    pub flow: Option<String>,
    /// One of the operation states (`applied`, `manual_review`, …).
    pub state: Option<String>,
    /// Created at or after this time (RFC 3339).
    pub from: Option<String>,
    /// Created before this time (RFC 3339).
    pub to: Option<String>,
    /// `true` adds every operation's steps.
    pub include_steps: Option<bool>,
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}
page_of!(BalanceOperationsQuery);

impl From<&BalanceOperationsQuery> for BalanceOperationQuery {
    fn from(query: &BalanceOperationsQuery) -> Self {
        Self {
            external_user_id: query.external_user_id.clone(),
            market_id: query.market_id.clone(),
            flow: query.flow.clone(),
            state: query.state.clone(),
            from: query.from.clone(),
            to: query.to.clone(),
            include_steps: query.include_steps.unwrap_or(false),
        }
    }
}

/// The page of one player's trades in one market.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    /// Trades per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// Where the previous page ended.
    pub cursor: Option<String>,
}
page_of!(HistoryQuery);
