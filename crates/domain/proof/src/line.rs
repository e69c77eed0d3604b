//! One leaf of the proof: a ticket's line of the statement, as JSON whose RFC 8785 bytes
//! are hashed. It carries what the ticket-lines CSV carries, except that the player is a
//! `playerTag` instead of the operator's `externalUserId`, and every amount names its
//! currency:
//!
//! ```json
//! {"ticketId": "tkt_…", "flightId": "flt_…", "playerTag": "<64 hex>",
//!  "purchasedAt": "2026-11-02T10:00:00Z", "outcome": "cashed_out",
//!  "stake": {"amount": "10000", "currency": "IDR"}, "payout": {…}, "refund": {…},
//!  "ggr": {…}, "shareBps": 1500, "share": {…}}
//! ```
//!
//! `ggr` and `share` come from `opinion-flight`'s `ReportLine`, where their rules live.

use opinion_core::{FlightId, TicketId};
use opinion_flight::{ReportLine, TicketStatus};
use opinion_statement::{CanonicalError, canonical_bytes};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::money::Money;
use crate::player_tag::PlayerTag;
use crate::tree_hash::{TreeHash, leaf_hash};

/// How a line's money was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineOutcome {
    /// Paid out.
    CashedOut,
    /// Lost with the flight.
    Lost,
    /// Refunded (or its refund owed: the same money).
    Refunded,
}

impl LineOutcome {
    /// The outcome of a ticket in `status`; `None` for a ticket that is no line (its
    /// money undecided, or never moved).
    pub const fn of(status: TicketStatus) -> Option<Self> {
        match status {
            TicketStatus::CashedOut => Some(Self::CashedOut),
            TicketStatus::Lost => Some(Self::Lost),
            TicketStatus::Refunding | TicketStatus::Refunded => Some(Self::Refunded),
            TicketStatus::Pending | TicketStatus::Active | TicketStatus::Review | TicketStatus::Rejected => None,
        }
    }

    /// The wire name, as the CSV writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::CashedOut => "cashed_out",
            Self::Lost => "lost",
            Self::Refunded => "refunded",
        }
    }

    /// The outcome a wire name (as `as_str` writes it) names.
    pub fn from_wire(text: &str) -> Option<Self> {
        [Self::CashedOut, Self::Lost, Self::Refunded]
            .into_iter()
            .find(|outcome| outcome.as_str() == text)
    }
}

/// A ticket's line as a leaf of the proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofLine {
    /// The ticket.
    pub ticket_id: TicketId,
    /// Its flight.
    pub flight_id: FlightId,
    /// Its player, tagged with the statement's key.
    pub player_tag: PlayerTag,
    /// When it was bought (UTC).
    pub purchased_at: OffsetDateTime,
    /// How its money was decided.
    pub outcome: LineOutcome,
    /// Its money (IDR) and frozen share.
    pub money: ReportLine,
}

impl ProofLine {
    /// The line's JSON.
    pub fn to_json(&self) -> Value {
        let line = &self.money;
        let purchased_at = self
            .purchased_at
            .to_offset(time::UtcOffset::UTC)
            .format(&Rfc3339)
            .unwrap_or_default();
        json!({
            "ticketId": self.ticket_id.to_string(),
            "flightId": self.flight_id.to_string(),
            "playerTag": self.player_tag.as_str(),
            "purchasedAt": purchased_at,
            "outcome": self.outcome.as_str(),
            "stake": Money::idr(line.stake.get()),
            "payout": Money::idr(line.payout.get()),
            "refund": Money::idr(line.refund.get()),
            "ggr": Money::idr(line.ggr()),
            "shareBps": line.share_bps.get(),
            "share": Money::idr(line.share()),
        })
    }

    /// The RFC 8785 bytes of its JSON: what the leaf hashes.
    pub fn canonical_bytes(&self) -> Result<Vec<u8>, CanonicalError> {
        canonical_bytes(&self.to_json())
    }

    /// Its leaf hash, `SHA-256(0x00 ‖ JCS(line))`.
    pub fn leaf_hash(&self) -> Result<TreeHash, CanonicalError> {
        Ok(leaf_hash(&self.canonical_bytes()?))
    }
}

#[cfg(test)]
mod tests {
    use opinion_flight::{Rupiah, ShareBps};
    use time::macros::datetime;

    use super::*;
    use crate::player_tag::PlayerKey;

    fn line() -> ProofLine {
        ProofLine {
            ticket_id: TicketId::from_u128(1),
            flight_id: FlightId::from_u128(2),
            player_tag: PlayerKey::from_bytes([3; 32]).tag("player-1"),
            purchased_at: datetime!(2026-11-02 17:00 +07:00),
            outcome: LineOutcome::CashedOut,
            money: ReportLine {
                stake: Rupiah::new(10_000).expect("rupiah"),
                payout: Rupiah::new(34_600).expect("rupiah"),
                refund: Rupiah::ZERO,
                share_bps: ShareBps::new(1_500).expect("bps"),
            },
        }
    }

    #[test]
    fn a_line_names_its_player_by_tag_and_every_amount_by_currency() {
        let json = line().to_json();
        assert_eq!(json["purchasedAt"], "2026-11-02T10:00:00Z");
        assert_eq!(json["ggr"], json!({"amount": "-24600", "currency": "IDR"}));
        assert_eq!(json["share"], json!({"amount": "-3690", "currency": "IDR"}));
        assert_eq!(json["shareBps"], 1_500);
        let text = json.to_string();
        assert!(!text.contains("player-1"));
        assert!(!text.contains("externalUserId"));
    }

    #[test]
    fn the_leaf_is_the_hash_of_the_canonical_bytes() {
        let line = line();
        let bytes = line.canonical_bytes().expect("bytes");
        assert!(bytes.starts_with(br#"{"flightId":"flt_"#));
        assert_eq!(line.leaf_hash().expect("leaf"), leaf_hash(&bytes));
        let mut other = line.clone();
        other.outcome = LineOutcome::Lost;
        assert_ne!(other.leaf_hash().expect("leaf"), line.leaf_hash().expect("leaf"));
    }

    #[test]
    fn only_tickets_with_decided_money_are_lines() {
        assert_eq!(LineOutcome::of(TicketStatus::Refunding), Some(LineOutcome::Refunded));
        assert_eq!(LineOutcome::of(TicketStatus::CashedOut), Some(LineOutcome::CashedOut));
        assert_eq!(LineOutcome::of(TicketStatus::Review), None);
        assert_eq!(LineOutcome::of(TicketStatus::Rejected), None);
    }
}
