//! Players and their portfolios on the wire, the signed portfolio link, and the queries
//! that read them.

use opinion_app::model::User;
use opinion_app::opinion::reads::{Portfolio, PortfolioLine, PortfolioTotals, UserQuery};
use opinion_market::Outcome;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::shared::page_query::page_of;

/// An operator's player.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserBody {
    /// `usr_…`
    pub id: String,
    /// The operator's own id of the player.
    pub external_user_id: String,
    /// Name shown in the hosted app, if given.
    pub display_name: Option<String>,
    /// Preferred language (BCP 47), if given.
    pub language: Option<String>,
    /// First launch (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// Latest launch (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub last_launched_at: OffsetDateTime,
}

impl From<User> for UserBody {
    fn from(user: User) -> Self {
        Self {
            id: user.id.to_string(),
            external_user_id: user.external_user_id,
            display_name: user.display_name,
            language: user.language,
            created_at: user.created_at,
            last_launched_at: user.last_launched_at,
        }
    }
}

/// One position of a portfolio. Shares and amounts are integer strings of minor units.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PositionBody {
    /// `mkt_…`
    pub market_id: String,
    /// The market's question.
    pub question: String,
    /// `open`, `closed` or `resolved`.
    pub market_status: String,
    /// `yes`, `no` or `void` once resolved.
    pub resolution: Option<String>,
    /// Whether the market is hidden from the operator's players.
    pub hidden: bool,
    /// YES shares held.
    pub yes_shares: String,
    /// NO shares held.
    pub no_shares: String,
    /// What the YES shares held cost, fees included.
    pub yes_cost_basis: String,
    /// What the NO shares held cost, fees included.
    pub no_cost_basis: String,
    /// Both cost bases.
    pub cost_basis: String,
    /// `mark` (at the pool's current prices) or `payout` (what the resolution pays).
    pub valuation: String,
    /// What the position is worth.
    pub mark_value: String,
    /// Profit or loss taken by sales.
    pub realized_pnl: String,
    /// `markValue − costBasis`.
    pub unrealized_pnl: String,
    /// The YES price in the operator's pool, parts per million.
    pub yes_price_ppm: u32,
    /// The YES price as a decimal.
    pub yes_price: String,
    /// When the position was paid out, if it was.
    #[serde(with = "time::serde::rfc3339::option")]
    pub redeemed_at: Option<OffsetDateTime>,
    /// Last change (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

impl From<PortfolioLine> for PositionBody {
    fn from(line: PortfolioLine) -> Self {
        let (yes, no) = (
            line.position.position.holding(Outcome::Yes),
            line.position.position.holding(Outcome::No),
        );
        let price = line.market.pool.price(Outcome::Yes);
        let hidden = line.market.hidden();
        let market = line.market.market;
        Self {
            market_id: market.id.to_string(),
            question: market.question,
            market_status: market.status.as_str().to_owned(),
            resolution: market.status.resolution().map(|r| r.as_str().to_owned()),
            hidden,
            yes_shares: yes.shares.to_string(),
            no_shares: no.shares.to_string(),
            yes_cost_basis: yes.cost_basis.to_string(),
            no_cost_basis: no.cost_basis.to_string(),
            cost_basis: line.valuation.cost_basis.to_string(),
            valuation: line.valuation.basis.as_str().to_owned(),
            mark_value: line.valuation.value.to_string(),
            realized_pnl: line.position.position.realized_pnl().to_string(),
            unrealized_pnl: line.valuation.unrealized_pnl.to_string(),
            yes_price_ppm: price.ppm(),
            yes_price: price.to_string(),
            redeemed_at: line.position.redeemed_at,
            updated_at: line.position.updated_at,
        }
    }
}

/// A portfolio's sums, integer strings of minor units.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortfolioTotalsBody {
    /// What the shares held cost.
    pub cost_basis: String,
    /// What they are worth.
    pub mark_value: String,
    /// Profit or loss taken by sales.
    pub realized_pnl: String,
    /// Value minus cost basis.
    pub unrealized_pnl: String,
}

impl From<PortfolioTotals> for PortfolioTotalsBody {
    fn from(totals: PortfolioTotals) -> Self {
        Self {
            cost_basis: totals.cost_basis.to_string(),
            mark_value: totals.value.to_string(),
            realized_pnl: totals.realized_pnl.to_string(),
            unrealized_pnl: totals.unrealized_pnl.to_string(),
        }
    }
}

/// A player's portfolio.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortfolioBody {
    /// The player.
    pub user: UserBody,
    /// The ISO 4217 currency of every amount.
    pub currency: String,
    /// Every position, newest market first.
    pub positions: Vec<PositionBody>,
    /// The sums.
    pub totals: PortfolioTotalsBody,
}

impl From<Portfolio> for PortfolioBody {
    fn from(portfolio: Portfolio) -> Self {
        Self {
            user: portfolio.user.into(),
            currency: portfolio.currency.as_str().to_owned(),
            positions: portfolio.lines.into_iter().map(PositionBody::from).collect(),
            totals: portfolio.totals.into(),
        }
    }
}

/// Asks for a signed link to a player's read-only portfolio page.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PortfolioLinkRequestBody {
    /// The operator's id of the player.
    pub external_user_id: String,
    /// How long the link works, 60 to 604800 seconds (default 3600).
    pub expires_in_seconds: Option<i64>,
}

/// A signed link that opens the portfolio page without an API key until it expires.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PortfolioLinkBody {
    /// The page's address; treat it as a secret.
    pub url: String,
    /// When it stops working (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
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
