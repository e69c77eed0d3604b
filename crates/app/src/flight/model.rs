//! The records of the flight product as its use cases and stores exchange them: the
//! platform-wide chains and flights, and each operator's enablement, terms and tickets.
//! The rules over them are `opinion-flight`'s.

use opinion_core::{FlightChainId, FlightId, FlightTermsId, OperatorId, TicketId, UserId, WalletOperationId};
use opinion_flight::{ChainLength, FlightPhase, Multiplier, Rupiah, Salt, Seed, ShareBps, TermsVersion, TicketStatus};
use time::OffsetDateTime;

pub use crate::flight::events::RefundReason;

/// A seed chain as everyone may see it: its terminal seed stays in the store, sealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainRecord {
    pub id: FlightChainId,
    /// How many flights it can play.
    pub length: ChainLength,
    /// The public salt of every crash point of the chain.
    pub salt: Salt,
    /// `seed[0]`, published before the chain's first flight boards.
    pub commitment: Seed,
    pub created_at: OffsetDateTime,
}

/// One flight with its chain's public data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlightRecord {
    pub id: FlightId,
    pub chain_id: FlightChainId,
    /// Its place `k` in the chain: it plays `seed[k]`.
    pub number: u32,
    pub phase: FlightPhase,
    /// The crash point, fixed before boarding opens; no read shows it before the crash.
    pub crash: Multiplier,
    pub boarding_at: OffsetDateTime,
    pub take_off_at: OffsetDateTime,
    /// The crash instant, from the take-off and the curve.
    pub crash_at: OffsetDateTime,
    /// `seed[k]`, revealed at the crash.
    pub revealed_seed: Option<Seed>,
    pub crashed_at: Option<OffsetDateTime>,
    pub cancelled_at: Option<OffsetDateTime>,
    /// When its tickets were last settled (losers marked lost).
    pub settled_at: Option<OffsetDateTime>,
    /// The chain's salt.
    pub salt: Salt,
    /// The chain's commitment.
    pub commitment: Seed,
    /// The chain's length (to derive the flight's seed from the terminal one).
    pub chain_length: ChainLength,
}

/// Whether an operator's players may buy tickets, and who said so last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enablement {
    pub operator_id: OperatorId,
    pub enabled: bool,
    pub changed_at: OffsetDateTime,
    /// The platform staff member who changed it.
    pub changed_by: String,
}

/// A terms version with who created it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermsRecord {
    pub operator_id: OperatorId,
    pub version: TermsVersion,
    pub created_at: OffsetDateTime,
    /// The platform staff member who set it.
    pub created_by: String,
    /// Its cancellation before it took effect, if it was cancelled.
    pub cancelled: Option<TermsCancellation>,
}

/// Platform staff cancelling a scheduled terms version before it took effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermsCancellation {
    pub at: OffsetDateTime,
    /// The platform staff member who cancelled it.
    pub by: String,
}

/// One ticket: one stake of one player on one flight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketRecord {
    pub operator_id: OperatorId,
    pub id: TicketId,
    pub flight_id: FlightId,
    /// The player.
    pub user_id: UserId,
    pub external_user_id: String,
    /// The player's own id of the purchase: a repeated purchase returns the first ticket.
    pub client_ticket_id: String,
    pub stake: Rupiah,
    /// The auto cash-out target, if any.
    pub auto_cash_out: Option<Multiplier>,
    pub status: TicketStatus,
    /// The terms version in force at purchase.
    pub terms_id: FlightTermsId,
    /// The platform's share, frozen at purchase.
    pub share_bps: ShareBps,
    /// The maximum payout, frozen at purchase.
    pub max_payout: Rupiah,
    /// Its purchase debit (a refund names it).
    pub purchase_operation_id: WalletOperationId,
    /// The multiplier it was cashed out at.
    pub cash_out: Option<Multiplier>,
    pub cashed_out_at: Option<OffsetDateTime>,
    /// What the cash-out pays.
    pub payout: Option<Rupiah>,
    /// Why the stake is being given back, once it is.
    pub refund_reason: Option<RefundReason>,
    /// Why its debit was refused (the wallet's code), when it was.
    pub failure_reason: Option<String>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    /// When nothing more could happen to it (lost, paid, refunded, rejected).
    pub settled_at: Option<OffsetDateTime>,
}
