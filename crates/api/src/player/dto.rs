//! Player sessions, quotes, orders and trades on the wire. Amounts and share counts are
//! integer strings, prices ppm integers, times RFC 3339 UTC.

use opinion_app::model::Trade;
use opinion_app::opinion::trading::QuoteView;
use opinion_app::players::OpenedSession;
use opinion_market::{Outcome, Side};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::operator::launch::dto::PlayerBody;

/// `POST /api/player/sessions`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenSessionBody {
    /// The launch token from the launch URL.
    pub launch_token: String,
}

/// A player session.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionOpenedBody {
    /// Send as `Authorization: Bearer …` on every player call.
    pub session_token: String,
    /// When the session ends.
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
    /// The locale to speak: the launch's `locale`, else the player's `language`.
    pub locale: Option<String>,
    /// The app to show: `opinion` or `flight`, as the launch asked.
    pub product: &'static str,
    /// The player.
    pub user: PlayerBody,
}

impl From<OpenedSession> for SessionOpenedBody {
    fn from(opened: OpenedSession) -> Self {
        let locale = opened.locale().map(str::to_owned);
        Self {
            session_token: opened.token,
            expires_at: opened.session.expires_at,
            locale,
            product: opened.session.product.as_str(),
            user: opened.user.into(),
        }
    }
}

/// An order or a request for a quote.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OrderBody {
    /// The hosted app's id of the order (orders only): repeating it returns the first outcome.
    pub client_order_id: Option<String>,
    /// `mkt_…`
    pub market_id: String,
    /// `buy` or `sell`.
    #[schema(value_type = String)]
    pub side: Side,
    /// `yes` or `no`.
    #[schema(value_type = String)]
    pub outcome: Outcome,
    /// `shares` (buys and sales) or `amount` (buys: minor units to spend).
    pub kind: String,
    /// The share count or amount, as an integer string.
    pub value: String,
    /// Maximum cost (buy) or minimum proceeds (sale), fee included, as an integer string.
    pub limit: Option<String>,
}

/// A priced order.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuoteBody {
    /// `mkt_…`
    pub market_id: String,
    /// `buy` or `sell`.
    pub side: &'static str,
    /// `yes` or `no`.
    pub outcome: &'static str,
    /// Share units traded.
    pub shares: String,
    /// Minor units debited or credited, fee included.
    pub amount: String,
    /// The fee inside `amount`.
    pub fee: String,
    /// The operator's currency.
    pub currency: String,
    /// Price of the outcome before, ppm.
    pub price_before_ppm: u32,
    /// Price of the outcome after, ppm.
    pub price_after_ppm: u32,
    /// What one share costs or pays on average, fee included, ppm of its payout.
    pub average_price_ppm: u32,
    /// Minor units the shares pay if their outcome wins.
    pub payout_if_right: String,
    /// The limit to send with the order: maximum cost (buy) or minimum proceeds (sale).
    pub limit: String,
    /// The slippage tolerance `limit` allows, basis points of `amount`.
    pub tolerance_bps: u16,
}

impl From<QuoteView> for QuoteBody {
    fn from(view: QuoteView) -> Self {
        let quote = view.quote;
        Self {
            market_id: view.market_id.to_string(),
            side: quote.side.as_str(),
            outcome: quote.outcome.as_str(),
            shares: quote.shares.to_string(),
            amount: quote.amount.to_string(),
            fee: quote.fee.to_string(),
            currency: view.currency.as_str().to_owned(),
            price_before_ppm: quote.price_before.ppm(),
            price_after_ppm: quote.price_after.ppm(),
            average_price_ppm: quote.average_price_ppm(),
            payout_if_right: quote.payout_if_right().to_string(),
            limit: view.limit.to_string(),
            tolerance_bps: view.tolerance.bps(),
        }
    }
}

/// A trade as the player sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayerTradeBody {
    /// `trd_…`
    pub id: String,
    /// The hosted app's order id.
    pub client_order_id: String,
    /// `mkt_…`
    pub market_id: String,
    /// `buy` or `sell`.
    pub side: &'static str,
    /// `yes` or `no`.
    pub outcome: &'static str,
    /// Share units traded.
    pub shares: String,
    /// Minor units debited or credited, fee included.
    pub amount: String,
    /// The fee inside `amount`.
    pub fee: String,
    /// The operator's currency.
    pub currency: String,
    /// `pending`, `manual_review`, `executed` or `failed`.
    pub status: &'static str,
    /// Why it failed.
    pub failure_reason: Option<String>,
    /// When the order arrived.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it ended.
    #[serde(with = "time::serde::rfc3339::option")]
    pub settled_at: Option<OffsetDateTime>,
}

impl From<Trade> for PlayerTradeBody {
    fn from(trade: Trade) -> Self {
        Self {
            id: trade.id.to_string(),
            client_order_id: trade.client_order_id,
            market_id: trade.market_id.to_string(),
            side: trade.side.as_str(),
            outcome: trade.outcome.as_str(),
            shares: trade.shares.to_string(),
            amount: trade.amount.to_string(),
            fee: trade.fee.to_string(),
            currency: trade.currency.as_str().to_owned(),
            status: trade.status.as_str(),
            failure_reason: trade.failure_reason,
            created_at: trade.created_at,
            settled_at: trade.settled_at,
        }
    }
}
