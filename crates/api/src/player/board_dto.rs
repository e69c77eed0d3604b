//! The hosted app's market board, market page and balance on the wire. Amounts are
//! integer strings of minor units, prices ppm integers, times RFC 3339 UTC.

use opinion_app::opinion::reads::{BoardMarket, MarketPage, PricePoint};
use opinion_app::opinion::trading::PlayerBalance;
use opinion_market::Outcome;
use serde::Serialize;
use time::OffsetDateTime;

use crate::operator::markets::dto::MarketBody;

/// One market on the board.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardMarketBody {
    /// The market with the operator's pool.
    #[serde(flatten)]
    pub market: MarketBody,
    /// Executed trade amounts over the last day.
    pub volume24h: String,
    /// The YES price now minus a day ago, ppm (negative: it fell).
    pub change24h_ppm: i64,
    /// Whether it traded over the last day.
    pub trending: bool,
}

impl From<BoardMarket> for BoardMarketBody {
    fn from(board: BoardMarket) -> Self {
        let now = i64::from(board.market.pool.price(Outcome::Yes).ppm());
        Self {
            volume24h: board.volume_24h.to_string(),
            change24h_ppm: now - i64::from(board.yes_price_day_ago.ppm()),
            trending: board.trending,
            market: board.market.into(),
        }
    }
}

/// The board: every market on offer, trending first.
#[derive(Debug, Serialize)]
pub struct BoardBody {
    /// The markets, in the board's order.
    pub data: Vec<BoardMarketBody>,
}

/// One point of the price chart.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PricePointBody {
    /// When.
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// The YES price then, ppm.
    pub yes_price_ppm: u32,
}

impl From<PricePoint> for PricePointBody {
    fn from(point: PricePoint) -> Self {
        Self {
            at: point.at,
            yes_price_ppm: point.yes_price.ppm(),
        }
    }
}

/// One market's page.
#[derive(Debug, Serialize)]
pub struct MarketPageBody {
    /// The market.
    pub market: MarketBody,
    /// Its YES price over time, oldest first.
    pub history: Vec<PricePointBody>,
}

impl From<MarketPage> for MarketPageBody {
    fn from(page: MarketPage) -> Self {
        Self {
            market: page.market.into(),
            history: page.history.into_iter().map(PricePointBody::from).collect(),
        }
    }
}

/// The player's wallet balance, or that it is unknown right now.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BalanceBody {
    /// `known` or `unknown` (the wallet did not answer usably).
    pub state: &'static str,
    /// Minor units, when known.
    pub balance: Option<String>,
    /// The wallet's currency, when known.
    pub currency: Option<String>,
}

impl From<PlayerBalance> for BalanceBody {
    fn from(balance: PlayerBalance) -> Self {
        match balance {
            PlayerBalance::Known { balance, currency } => Self {
                state: "known",
                balance: Some(balance.to_string()),
                currency: Some(currency.as_str().to_owned()),
            },
            PlayerBalance::Unknown => Self {
                state: "unknown",
                balance: None,
                currency: None,
            },
        }
    }
}
