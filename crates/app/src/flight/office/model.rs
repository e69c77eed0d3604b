//! The records of the flight back office.

use opinion_core::{FlightId, OperatorId, SettlementPaymentId, SettlementReportId, StatementCorrectionId, TicketId};
use opinion_flight::{PaymentDirection, ReportLine, ReportTotals, Rupiah};
use opinion_statement::{DocumentHash, KeyId, PublicKey, SignedDocument};
use time::{Date, OffsetDateTime};

/// One of the platform's statement keys as published: its id, its public half, when it
/// was made current and when it was retired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementKeyRecord {
    /// Derived from the public key.
    pub key_id: KeyId,
    /// What verifies its signatures.
    pub public_key: PublicKey,
    /// When it became current.
    pub created_at: OffsetDateTime,
    /// When a newer key replaced it; `None` while current.
    pub retired_at: Option<OffsetDateTime>,
}

impl StatementKeyRecord {
    /// A new current key, registered at `at`.
    pub fn new(public_key: PublicKey, at: OffsetDateTime) -> Self {
        Self {
            key_id: public_key.key_id(),
            public_key,
            created_at: at,
            retired_at: None,
        }
    }
}

/// One settled ticket of a report, as its line in the ticket-lines CSV.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportLineRecord {
    /// The ticket.
    pub ticket_id: TicketId,
    /// Its flight.
    pub flight_id: FlightId,
    /// The operator's player.
    pub external_user_id: String,
    /// When it was bought (the instant that puts it in the period).
    pub purchased_at: OffsetDateTime,
    /// `cashed_out`, `lost` or `refunded` (a refund still owed counts as refunded: its
    /// money is decided).
    pub outcome: &'static str,
    /// Its money.
    pub line: ReportLine,
}

/// Where a line's keyset walk stands: the last line's purchase instant and ticket.
pub type LineCursor = (OffsetDateTime, TicketId);

/// What a document of the chain is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    /// A finalized report's statement.
    Statement,
    /// A correction of a statement.
    Correction,
}

impl DocumentKind {
    /// The stored name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Statement => "statement",
            Self::Correction => "correction",
        }
    }
}

/// A signed document of an operator's chain (a statement or a correction), as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainDocument {
    /// Whose chain.
    pub operator_id: OperatorId,
    /// The report's or the correction's id, as its 128 bits.
    pub id: u128,
    /// What it is.
    pub kind: DocumentKind,
    /// Its place in the chain.
    pub sequence: u64,
    /// The document and its signature.
    pub signed: SignedDocument,
    /// The hash of its canonical bytes (what the next document names).
    pub hash: DocumentHash,
    /// When it was issued.
    pub issued_at: OffsetDateTime,
}

/// A finalized report with its signed statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalizedReport {
    /// The report.
    pub id: SettlementReportId,
    /// Whose.
    pub operator_id: OperatorId,
    /// The period's start (included).
    pub period_start: OffsetDateTime,
    /// The period's end (excluded).
    pub period_end: OffsetDateTime,
    /// The sums of its lines.
    pub totals: ReportTotals,
    /// When the amount is due.
    pub due_date: Date,
    /// The SHA-256 (hex) of its ticket-lines CSV.
    pub lines_sha256: String,
    /// Its signed statement.
    pub statement: ChainDocument,
    /// When it was finalized.
    pub finalized_at: OffsetDateTime,
}

/// The sums a finalized report's balance adds to its statement's share.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BalanceMoves {
    /// Its corrections' signed changes, summed.
    pub corrections: i64,
    /// Recorded payments from the operator to the platform, summed.
    pub paid_to_platform: i64,
    /// Recorded payments from the platform to the operator, summed.
    pub paid_to_operator: i64,
}

/// A signed correction of a finalized report's statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    /// The correction.
    pub id: StatementCorrectionId,
    /// Whose.
    pub operator_id: OperatorId,
    /// The finalized report it amends.
    pub report_id: SettlementReportId,
    /// The hash of the statement it amends.
    pub statement_hash: DocumentHash,
    /// The signed change of what the operator owes the platform.
    pub amount_change: i64,
    /// Why.
    pub reason: String,
    /// The staff member who issued it (kept by the platform, not in the document).
    pub issued_by: String,
    /// Its signed document in the operator's chain.
    pub document: ChainDocument,
    /// When it was issued.
    pub issued_at: OffsetDateTime,
}

/// A payment recorded against a finalized report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    /// The payment.
    pub id: SettlementPaymentId,
    /// Whose.
    pub operator_id: OperatorId,
    /// The report it pays.
    pub report_id: SettlementReportId,
    /// How much.
    pub amount: Rupiah,
    /// Who paid whom (never `None`).
    pub direction: PaymentDirection,
    /// The day the money moved.
    pub paid_on: Date,
    /// The bank or transfer reference, unique per operator (case aside).
    pub reference: String,
    /// The staff member who recorded it.
    pub recorded_by: String,
    /// What remained due on the report right after it.
    pub remaining_due: Rupiah,
    /// Who owed that.
    pub remaining_direction: PaymentDirection,
    /// When it was recorded.
    pub recorded_at: OffsetDateTime,
}
