//! The v5 proof of a statement. At finalization, one chunked walk of the period's lines
//! sums them, hashes their CSV, builds the Merkle root of their proof lines (players
//! tagged with the statement's fresh player key) and keeps every leaf hash and complete
//! block root for later proofs. On read, a ticket's inclusion proof is rebuilt from those
//! stored pieces (bounded reads, never the whole tree's lines) and its line from the
//! ticket, and checked against the root before it is answered.

use opinion_core::{OperatorId, SettlementReportId, TicketId};
use opinion_flight::ReportTotals;
use opinion_proof::{
    BlockRoots, InclusionProof, LineOutcome, PlayerKey, ProofLine, ProofSummary, StatementProofBuilder, SubtreePieces,
    TreeHash, audit_path_ranges,
};
use serde_json::Value;
use time::OffsetDateTime;

use crate::error::{AppError, ProblemCode};
use crate::flight::office::FlightOffice;
use crate::flight::office::LINES_CHUNK;
use crate::flight::office::lines_csv::LinesHasher;
use crate::flight::office::model::ReportLineRecord;

/// What one walk of a statement's lines gives.
#[derive(Debug, Clone)]
pub(crate) struct WalkedLines {
    /// The sums of the lines.
    pub totals: ReportTotals,
    /// The SHA-256 of their CSV.
    pub lines_sha256: String,
    /// The root and size of their proof's tree.
    pub summary: ProofSummary,
}

/// A ticket's inclusion proof in its finalized statement.
#[derive(Debug, Clone, PartialEq)]
pub struct TicketProof {
    /// The statement's tree root (what the signed statement names).
    pub merkle_root: TreeHash,
    /// The leaf index, the tree size and the audit path.
    pub proof: InclusionProof,
    /// The ticket's proof line, as hashed into the leaf.
    pub line: Value,
}

/// A report line as a proof line, its player tagged with `key`.
pub fn proof_line(record: &ReportLineRecord, key: &PlayerKey) -> ProofLine {
    let outcome = match record.outcome {
        "cashed_out" => LineOutcome::CashedOut,
        "lost" => LineOutcome::Lost,
        _ => LineOutcome::Refunded,
    };
    ProofLine {
        ticket_id: record.ticket_id,
        flight_id: record.flight_id,
        player_tag: key.tag(&record.external_user_id),
        purchased_at: record.purchased_at,
        outcome,
        money: record.line,
    }
}

impl FlightOffice {
    /// Walks the period's lines once for report `report`: totals, CSV hash and proof,
    /// keeping each leaf hash and complete block root as it goes.
    pub(crate) async fn walk_statement_lines(
        &self,
        operator: OperatorId,
        period: (OffsetDateTime, OffsetDateTime),
        report: SettlementReportId,
        key: &PlayerKey,
    ) -> Result<WalkedLines, AppError> {
        let mut proof = StatementProofBuilder::new();
        let mut blocks = BlockRoots::new();
        let mut hasher = LinesHasher::new();
        let (mut after, mut index) = (None, 0u64);
        loop {
            let chunk = self
                .ports
                .store
                .report_lines(operator, period.0, period.1, after, LINES_CHUNK)
                .await?;
            let mut leaves = Vec::with_capacity(chunk.len());
            for record in &chunk {
                hasher.add(record);
                let leaf = proof
                    .add(&proof_line(record, key))
                    .map_err(|e| AppError::Internal(e.to_string()))?;
                leaves.push((record.ticket_id, leaf));
                if let Some((block, root)) = blocks.push(leaf) {
                    self.ports
                        .proofs
                        .store_block_root(operator, report, block, root)
                        .await?;
                }
            }
            if !leaves.is_empty() {
                self.ports.proofs.store_leaves(operator, report, index, &leaves).await?;
                index += leaves.len() as u64;
            }
            match chunk.last() {
                Some(last) if chunk.len() == LINES_CHUNK as usize => after = Some((last.purchased_at, last.ticket_id)),
                _ => break,
            }
        }
        let (summary, totals) = proof.finish();
        Ok(WalkedLines {
            totals,
            lines_sha256: hasher.finish(),
            summary,
        })
    }

    /// What only the operator is given of its finalized report's proof: the statement's
    /// player key and the exchange's raw answer (`None` for a report without a proof).
    pub async fn report_secrets(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
    ) -> Result<Option<(PlayerKey, Option<Vec<u8>>)>, AppError> {
        let stored = self.ports.proofs.report_proof(operator, report).await?;
        Ok(stored.map(|proof| (proof.player_key, proof.exchange_answer)))
    }

    /// The inclusion proof of one of the operator's tickets; `proof_not_available` until
    /// its report is finalized.
    pub async fn ticket_proof(&self, operator: OperatorId, ticket: TicketId) -> Result<TicketProof, AppError> {
        let record = self
            .ports
            .proofs
            .ticket_line(operator, ticket)
            .await?
            .ok_or_else(not_available)?;
        self.proof_of(operator, ticket, &record).await
    }

    /// The inclusion proof of a player's own ticket: another player's ticket is not found.
    pub async fn player_ticket_proof(
        &self,
        operator: OperatorId,
        external_user_id: &str,
        ticket: TicketId,
    ) -> Result<TicketProof, AppError> {
        let record = self
            .ports
            .proofs
            .ticket_line(operator, ticket)
            .await?
            .filter(|record| record.external_user_id == external_user_id)
            .ok_or(AppError::NotFound("ticket"))?;
        self.proof_of(operator, ticket, &record).await
    }

    async fn proof_of(
        &self,
        operator: OperatorId,
        ticket: TicketId,
        record: &ReportLineRecord,
    ) -> Result<TicketProof, AppError> {
        let proofs = &self.ports.proofs;
        let position = proofs
            .leaf_position(operator, ticket)
            .await?
            .ok_or_else(not_available)?;
        let stored = proofs
            .report_proof(operator, position.report_id)
            .await?
            .ok_or_else(not_available)?;
        let ranges = audit_path_ranges(position.leaf_index, stored.leaf_count)
            .ok_or_else(|| AppError::Internal(format!("leaf {} beyond its tree", position.leaf_index)))?;
        let mut audit_path = Vec::with_capacity(ranges.len());
        for range in ranges {
            let pieces = SubtreePieces::of(range);
            let blocks = proofs
                .block_roots(operator, position.report_id, pieces.blocks.clone())
                .await?;
            let leaves = proofs
                .leaf_hashes(operator, position.report_id, pieces.leaves.clone())
                .await?;
            let root = pieces
                .root(&blocks, &leaves)
                .map_err(|e| AppError::Internal(e.to_string()))?;
            audit_path.push(root);
        }
        let proof = InclusionProof {
            leaf_index: position.leaf_index,
            tree_size: stored.leaf_count,
            audit_path,
        };
        let line = proof_line(record, &stored.player_key);
        let leaf = line.leaf_hash().map_err(|e| AppError::Internal(e.to_string()))?;
        if leaf != position.leaf_hash || proof.verify(&leaf, &stored.merkle_root).is_err() {
            return Err(AppError::Internal(format!(
                "the stored proof of ticket {ticket} does not lead to its statement's root"
            )));
        }
        Ok(TicketProof {
            merkle_root: stored.merkle_root,
            proof,
            line: line.to_json(),
        })
    }
}

fn not_available() -> AppError {
    AppError::Conflict {
        code: ProblemCode::ProofNotAvailable,
        detail: "the ticket's report is not finalized yet: a ticket has a proof once its statement is signed".into(),
    }
}
