//! The signed statement of a finalized report: its document's fields, in the shape
//! `docs/operator/flight.md` documents and `opinion admin statement verify` reads. It is a v5
//! statement: `opinion-proof` writes its proof fields (`proofVersion`, `merkleRoot`,
//! `leafCount`), its money (every amount with its currency, totals per currency) and the
//! comparison-only exchange evidence. Money is integer strings (never floats), so the
//! canonical bytes are any language's sorted compact JSON.

use opinion_core::{OperatorId, SettlementReportId};
use opinion_flight::ReportTotals;
use opinion_proof::{ExchangeEvidence, ProofSummary, StatementMoney, write_proof_fields};
use opinion_statement::ChainLink;
use serde_json::{Map, Value, json};
use time::{Date, OffsetDateTime};

use crate::flight::events::IDR;
use crate::model::rfc3339;

/// The `type` of a finalized report's statement.
pub const STATEMENT_TYPE: &str = "flight_settlement_statement";

/// What a statement says.
pub struct StatementFacts<'a> {
    /// Whose.
    pub operator_id: OperatorId,
    /// The report.
    pub report_id: SettlementReportId,
    /// The period, start included, end excluded.
    pub period: (OffsetDateTime, OffsetDateTime),
    /// The sums of its lines.
    pub totals: &'a ReportTotals,
    /// When the amount is due.
    pub due_date: Date,
    /// The SHA-256 of the ticket-lines CSV.
    pub lines_sha256: &'a str,
    /// The root and size of the lines' tree.
    pub proof: &'a ProofSummary,
    /// The comparison-only rate, `None` when the operator reports in IDR.
    pub evidence: Option<&'a ExchangeEvidence>,
    /// When it is issued.
    pub issued_at: OffsetDateTime,
    /// Its place in the operator's chain.
    pub link: &'a ChainLink,
}

/// The statement's document, before signing (signing adds `keyId`).
pub fn statement_document(facts: &StatementFacts<'_>) -> Value {
    let totals = facts.totals;
    let mut fields: Map<String, Value> = match json!({
        "type": STATEMENT_TYPE,
        "operatorId": facts.operator_id,
        "reportId": facts.report_id,
        "periodStart": rfc3339(facts.period.0),
        "periodEnd": rfc3339(facts.period.1),
        "ticketCount": totals.ticket_count,
        "dueDate": facts.due_date.to_string(),
        "currency": IDR,
        "linesSha256": facts.lines_sha256,
        "issuedAt": rfc3339(facts.issued_at),
    }) {
        Value::Object(fields) => fields,
        _ => Map::new(),
    };
    write_proof_fields(&mut fields, facts.proof, &StatementMoney::of(totals), facts.evidence);
    facts.link.write_into(&mut fields);
    Value::Object(fields)
}
