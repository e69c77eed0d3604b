//! What the v5 proof needs from a store: a finalized statement's tree as kept for proofs
//! read later (each line's leaf hash by index and ticket, the root of every complete
//! block), the statement's player key (sealed at rest by the store) and the exchange's raw
//! answer. Finalization writes them before the report itself; pieces of a report that
//! was never stored (a lost race, a crash) name a report id no report has, and every read
//! goes through a stored report, so they are never shown.

use std::ops::Range;

use async_trait::async_trait;
use opinion_core::{OperatorId, SettlementReportId, TicketId};
use opinion_proof::{PlayerKey, TreeHash};

use crate::flight::office::model::ReportLineRecord;
use crate::ports::StoreError;

/// What a statement's proof keeps beside its tree.
#[derive(Debug, Clone)]
pub struct ReportProofRecord {
    /// Whose.
    pub operator_id: OperatorId,
    /// The report (its statement signs the root).
    pub report_id: SettlementReportId,
    /// The lines' tree root.
    pub merkle_root: TreeHash,
    /// How many lines.
    pub leaf_count: u64,
    /// The statement's player key, only ever given to the operator.
    pub player_key: PlayerKey,
    /// The exchange's answer exactly as received, when the evidence is a quote.
    pub exchange_answer: Option<Vec<u8>>,
}

/// Where a ticket is in a finalized statement's tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafPosition {
    /// The finalized report.
    pub report_id: SettlementReportId,
    /// The ticket's leaf index.
    pub leaf_index: u64,
    /// Its stored leaf hash.
    pub leaf_hash: TreeHash,
}

/// The statements' trees, kept for proofs.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait ProofStore: Send + Sync {
    /// Keeps the leaf hashes of consecutive lines, the first at `first_index`.
    async fn store_leaves(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
        first_index: u64,
        leaves: &[(TicketId, TreeHash)],
    ) -> Result<(), StoreError>;
    /// Keeps the root of complete block `block`.
    async fn store_block_root(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
        block: u64,
        root: TreeHash,
    ) -> Result<(), StoreError>;
    /// Keeps the proof's record (the player key sealed).
    async fn store_report_proof(&self, proof: &ReportProofRecord) -> Result<(), StoreError>;
    /// Forgets everything kept for a report that was not stored (another finalization won).
    async fn discard_report_proof(&self, operator: OperatorId, report: SettlementReportId) -> Result<(), StoreError>;
    /// The proof's record of a stored report; `None` for a report finalized without one.
    async fn report_proof(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
    ) -> Result<Option<ReportProofRecord>, StoreError>;
    /// Where the ticket is in the tree of its stored (finalized) report.
    async fn leaf_position(&self, operator: OperatorId, ticket: TicketId) -> Result<Option<LeafPosition>, StoreError>;
    /// The leaf hashes of `leaves` (leaf indexes), in order.
    async fn leaf_hashes(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
        leaves: Range<u64>,
    ) -> Result<Vec<TreeHash>, StoreError>;
    /// The roots of blocks `blocks` (block indexes), in order.
    async fn block_roots(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
        blocks: Range<u64>,
    ) -> Result<Vec<TreeHash>, StoreError>;
    /// The ticket's report line (its money decided), whatever its period.
    async fn ticket_line(&self, operator: OperatorId, ticket: TicketId)
    -> Result<Option<ReportLineRecord>, StoreError>;
}
