//! Markets on the wire: each with the operator's pool, prices and visibility; the
//! visibility request; the trending ranking; the queries that read them.

use opinion_app::error::AppError;
use opinion_app::model::OperatorMarket;
use opinion_app::opinion::ports::VisibilitySettings;
use opinion_app::opinion::reads::{MarketQuery, Trending, TrendingMarket};
use opinion_market::{Outcome, PricePpm, VisibilityMode};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::shared::page_query::page_of;

/// A market as the operator sees it. Amounts and shares are integer strings of minor
/// units (one share pays one minor unit); prices are parts per million and decimals.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketBody {
    /// `mkt_…`
    pub id: String,
    /// The question players bet on.
    pub question: String,
    /// How it will be resolved.
    pub rules: String,
    /// When trading stops (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub close_at: OffsetDateTime,
    /// `open`, `closed` or `resolved`.
    pub status: String,
    /// `yes`, `no` or `void` once resolved.
    pub resolution: Option<String>,
    /// The LMSR liquidity `b` of the operator's pool, minor units.
    #[schema(example = "100000")]
    pub liquidity: String,
    /// The trading fee in basis points.
    pub fee_bps: u16,
    /// YES shares the operator's pool has sold and not bought back.
    #[schema(example = "0")]
    pub yes_outstanding: String,
    /// NO shares the operator's pool has sold and not bought back.
    #[schema(example = "0")]
    pub no_outstanding: String,
    /// The YES price in the operator's pool, parts per million.
    pub yes_price_ppm: u32,
    /// The YES price as a decimal with six places.
    #[schema(example = "0.500000")]
    pub yes_price: String,
    /// The NO price in the operator's pool, parts per million.
    pub no_price_ppm: u32,
    /// The NO price as a decimal with six places.
    #[schema(example = "0.500000")]
    pub no_price: String,
    /// Whether the market is hidden from the operator's players: the operator's
    /// visibility mode applied to `visibilityChoice`.
    pub hidden: bool,
    /// What the operator said of this market with the per-market switch: `unset`,
    /// `shown` or `hidden` (kept, but not applied, in `all` mode).
    #[schema(example = "unset")]
    pub visibility_choice: String,
    /// When it was created (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it was closed, if it was.
    #[serde(with = "time::serde::rfc3339::option")]
    pub closed_at: Option<OffsetDateTime>,
    /// When it was resolved, if it was.
    #[serde(with = "time::serde::rfc3339::option")]
    pub resolved_at: Option<OffsetDateTime>,
}

impl From<OperatorMarket> for MarketBody {
    fn from(view: OperatorMarket) -> Self {
        let (yes, no) = (view.pool.price(Outcome::Yes), view.pool.price(Outcome::No));
        let hidden = view.hidden();
        let market = view.market;
        Self {
            id: market.id.to_string(),
            status: market.status.as_str().to_owned(),
            resolution: market.status.resolution().map(|r| r.as_str().to_owned()),
            question: market.question,
            rules: market.rules,
            close_at: market.close_at,
            liquidity: market.liquidity.minor_units().to_string(),
            fee_bps: market.fee.bps(),
            yes_outstanding: view.pool.outstanding(Outcome::Yes).to_string(),
            no_outstanding: view.pool.outstanding(Outcome::No).to_string(),
            yes_price_ppm: yes.ppm(),
            yes_price: yes.to_string(),
            no_price_ppm: no.ppm(),
            no_price: no.to_string(),
            hidden,
            visibility_choice: view.choice.as_str().to_owned(),
            created_at: market.created_at,
            closed_at: market.closed_at,
            resolved_at: market.resolved_at,
        }
    }
}

/// Shows or hides a market to the operator's players.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VisibilityBody {
    /// `false` hides the market from the operator's players; `true` shows it again.
    pub visible: bool,
}

/// Sets the operator's visibility mode.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetVisibilityModeBody {
    /// `all` (every market shown; per-market choices kept but not applied), `allowlist`
    /// (only markets shown with the per-market switch) or `blocklist` (every market but
    /// those hidden with it; the default).
    #[schema(example = "allowlist")]
    pub mode: String,
}

impl SetVisibilityModeBody {
    /// The mode asked for; a text that names none is refused beside `mode`.
    pub fn requested(&self) -> Result<VisibilityMode, AppError> {
        self.mode
            .parse()
            .map_err(|_| AppError::invalid("mode", "must be one of `all`, `allowlist`, `blocklist`"))
    }
}

/// The operator's visibility mode.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VisibilityModeBody {
    /// `all`, `allowlist` or `blocklist`.
    #[schema(example = "blocklist")]
    pub mode: String,
    /// When the mode or a per-market choice last changed; null if never.
    #[serde(with = "time::serde::rfc3339::option")]
    pub updated_at: Option<OffsetDateTime>,
    /// On a change: how many markets not yet resolved it showed or hid (one
    /// `mini_app.market.visibility_changed` event each). Absent on a read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed_markets: Option<usize>,
}

impl VisibilityModeBody {
    /// The body of `settings`, with the count of a change.
    pub fn new(settings: VisibilitySettings, changed_markets: Option<usize>) -> Self {
        Self {
            mode: settings.mode.as_str().to_owned(),
            updated_at: settings.updated_at,
            changed_markets,
        }
    }
}

/// The parts of a market's trending score.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrendingScoreBody {
    /// The score in micro-points: `1000000 × traders + 1000000 × volume / liquidity + 10 × priceMovementPpm`.
    pub score: i64,
    /// Distinct players with an executed trade in the window.
    pub traders: i64,
    /// Sum of the window's executed trade amounts, minor units.
    #[schema(example = "125000")]
    pub volume: String,
    /// `|YES price now − YES price before the window's first trade|`, parts per million.
    pub price_movement_ppm: u32,
    /// The YES price before the window's first trade, parts per million.
    pub yes_price_at_start_ppm: u32,
}

/// A ranked market.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrendingMarketBody {
    /// The market.
    #[serde(flatten)]
    pub market: MarketBody,
    /// Why it ranks where it does.
    pub trending: TrendingScoreBody,
}

/// The operator's open, visible markets ranked by recent activity, best first.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrendingBody {
    /// `1h`, `24h` or `7d`.
    pub window: String,
    /// Where the window starts (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub since: OffsetDateTime,
    /// The markets, best first.
    pub data: Vec<TrendingMarketBody>,
}

impl From<TrendingMarket> for TrendingMarketBody {
    fn from(ranked: TrendingMarket) -> Self {
        Self {
            trending: TrendingScoreBody {
                score: ranked.score.score,
                traders: ranked.score.traders,
                volume: ranked.score.volume.to_string(),
                price_movement_ppm: ranked.score.price_movement_ppm,
                yes_price_at_start_ppm: PricePpm::ppm(ranked.yes_price_at_start),
            },
            market: ranked.market.into(),
        }
    }
}

impl From<Trending> for TrendingBody {
    fn from(trending: Trending) -> Self {
        Self {
            window: trending.window.as_str().to_owned(),
            since: trending.since,
            data: trending.markets.into_iter().map(TrendingMarketBody::from).collect(),
        }
    }
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
