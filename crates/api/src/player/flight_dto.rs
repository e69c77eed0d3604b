//! The flight game on the player's wire: the live flight, other players' cash-outs, a
//! ticket order and a ticket.
//! Stakes and payouts are whole-rupiah integer strings, multipliers two-decimal strings
//! (`"2.35"`), times RFC 3339 UTC.

use opinion_app::flight::model::TicketRecord;
use opinion_app::flight::{CashOutBoard, FeedCashOut, LiveFlight};
use opinion_core::{OperatorId, UserId};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

/// The flight being played, as every page sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LiveFlightBody {
    /// `flt_…`
    pub id: String,
    /// Its place in its seed chain.
    pub number: u32,
    /// `boarding`, `in_flight`, `crashed` or `cancelled`, by the server's clock.
    pub phase: &'static str,
    /// When boarding opened.
    #[serde(with = "time::serde::rfc3339")]
    pub boarding_at: OffsetDateTime,
    /// When the flight takes (took) off; the multiplier at `t` ms after it is
    /// `floor(100·e^(0.00006·t))` hundredths.
    #[serde(with = "time::serde::rfc3339")]
    pub take_off_at: OffsetDateTime,
    /// The multiplier at `serverTime` while in the air; the crash point once crashed.
    pub multiplier: Option<String>,
    /// The crash point, once the crash instant has passed.
    pub crash_point: Option<String>,
    /// The flight's seed (hex), once the crash is stored.
    pub revealed_seed: Option<String>,
    /// When it crashed or was cancelled.
    #[serde(with = "time::serde::rfc3339::option")]
    pub ended_at: Option<OffsetDateTime>,
    /// The server's time of this snapshot.
    #[serde(with = "time::serde::rfc3339")]
    pub server_time: OffsetDateTime,
}

impl From<LiveFlight> for LiveFlightBody {
    fn from(live: LiveFlight) -> Self {
        Self {
            id: live.id.to_string(),
            number: live.number,
            phase: live.phase.as_str(),
            boarding_at: live.boarding_at,
            take_off_at: live.take_off_at,
            multiplier: live.multiplier.map(|multiplier| multiplier.to_string()),
            crash_point: live.crash.map(|crash| crash.to_string()),
            revealed_seed: live.revealed_seed.map(|seed| seed.to_hex()),
            ended_at: live.ended_at,
            server_time: live.at,
        }
    }
}

/// The `cashouts` event of the live feed: a flight's counts and cash-outs, anonymised
/// (every operator's players ride the same flight): no id of any player, ticket or
/// operator, no exact amount.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CashOutsBody {
    /// `flt_…`, the flight they belong to.
    pub flight_id: String,
    /// Players holding a ticket that flies or flew, over every operator.
    pub players: u32,
    /// Tickets that fly or flew.
    pub tickets: u32,
    /// Tickets cashed out so far.
    pub cashed_out: u32,
    /// `true` when `cashOuts` is the whole list to show (a new flight, or the stream just
    /// opened); `false` when they come after the ones already shown.
    pub reset: bool,
    /// Cash-outs, oldest first (at most 20).
    pub cash_outs: Vec<CashOutBody>,
}

/// One cash-out as every page sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CashOutBody {
    /// The multiplier it was cashed out at.
    pub multiplier: String,
    /// Whole rupiah: the payout is at least this, below the next step of 1, 2, 5, 10,
    /// 20, 50, … rupiah.
    pub payout_at_least: String,
    /// Whether it is the reading player's own (never `true` on another player's stream).
    pub mine: bool,
}

impl CashOutsBody {
    /// `cash_outs` of `board`, marking those of `viewer` as theirs.
    pub fn of(
        board: &CashOutBoard,
        cash_outs: &[FeedCashOut],
        reset: bool,
        viewer: Option<(OperatorId, UserId)>,
    ) -> Self {
        Self {
            flight_id: board.flight.to_string(),
            players: board.tally.players,
            tickets: board.tally.tickets,
            cashed_out: board.tally.cashed_out,
            reset,
            cash_outs: cash_outs
                .iter()
                .map(|cash_out| CashOutBody {
                    multiplier: cash_out.multiplier.to_string(),
                    payout_at_least: cash_out.payout_band.to_string(),
                    mine: viewer.is_some_and(|(operator, user)| cash_out.is_of(operator, user)),
                })
                .collect(),
        }
    }
}

/// `POST /api/player/flight/tickets`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TicketOrderBody {
    /// The page's own id of this purchase (1 to 64 visible ASCII characters): repeating
    /// it returns the first ticket.
    pub client_ticket_id: String,
    /// Whole rupiah, as an integer string.
    pub stake: String,
    /// Cash out automatically at this multiplier (`"1.01"` to `"10000.00"`).
    pub auto_cash_out: Option<String>,
}

/// A ticket as its player sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayerTicketBody {
    /// `tkt_…`
    pub id: String,
    /// The page's id of the purchase.
    pub client_ticket_id: String,
    /// `flt_…`
    pub flight_id: String,
    /// Whole rupiah.
    pub stake: String,
    /// Always `IDR`.
    pub currency: &'static str,
    /// The auto cash-out target, if any.
    pub auto_cash_out: Option<String>,
    /// `pending`, `active`, `cashed_out`, `lost`, `refunding`, `refunded`, `review` or
    /// `rejected`.
    pub status: &'static str,
    /// The multiplier it was cashed out at.
    pub cash_out: Option<String>,
    /// What the cash-out pays, whole rupiah.
    pub payout: Option<String>,
    /// Why the stake is being given back.
    pub refund_reason: Option<&'static str>,
    /// When it was bought.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it was cashed out.
    #[serde(with = "time::serde::rfc3339::option")]
    pub cashed_out_at: Option<OffsetDateTime>,
}

impl From<TicketRecord> for PlayerTicketBody {
    fn from(ticket: TicketRecord) -> Self {
        Self {
            id: ticket.id.to_string(),
            client_ticket_id: ticket.client_ticket_id,
            flight_id: ticket.flight_id.to_string(),
            stake: ticket.stake.to_string(),
            currency: "IDR",
            auto_cash_out: ticket.auto_cash_out.map(|target| target.to_string()),
            status: ticket.status.as_str(),
            cash_out: ticket.cash_out.map(|multiplier| multiplier.to_string()),
            payout: ticket.payout.map(|payout| payout.to_string()),
            refund_reason: ticket.refund_reason.map(|reason| reason.as_str()),
            created_at: ticket.created_at,
            cashed_out_at: ticket.cashed_out_at,
        }
    }
}
