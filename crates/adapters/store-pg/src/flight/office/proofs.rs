//! `ProofStore`: the statements' trees kept for ticket proofs (leaf hashes by index and by
//! ticket, block roots) and each statement's proof record, its player key sealed under the
//! data key and bound to its operator and report. Pieces are written before their report
//! and shown only through a stored report; once the report is stored the database refuses
//! changing or deleting them, except re-sealing the player key under a new data key.

use std::ops::Range;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use opinion_app::flight::office::model::ReportLineRecord;
use opinion_app::flight::office::proof_ports::{LeafPosition, ProofStore, ReportProofRecord};
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, SettlementReportId, TicketId};
use opinion_proof::{PlayerKey, TreeHash};
use uuid::Uuid;

use super::reports::{LineRow, WITH_MONEY};
use crate::db::error::{corrupt, from_diesel, unavailable};
use crate::db::ids::{id_of, uuid_of};
use crate::db::pool::PgStore;
use crate::db::schema::{
    flight_proof_blocks, flight_proof_leaves, flight_report_proofs, flight_settlement_reports, flight_tickets,
};
use crate::db::sealed_places::statement_player_key;

fn i64_of(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

fn hash_of(bytes: Vec<u8>, table: &str, id: Uuid) -> Result<TreeHash, StoreError> {
    let bytes: [u8; 32] = bytes
        .try_into()
        .map_err(|_| corrupt(table, id, &"a tree hash is not 32 bytes"))?;
    Ok(TreeHash::from_bytes(bytes))
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = flight_report_proofs, check_for_backend(diesel::pg::Pg))]
struct ProofRow {
    operator_id: Uuid,
    report_id: Uuid,
    merkle_root: String,
    leaf_count: i64,
    player_key_sealed: String,
    exchange_answer: Option<Vec<u8>>,
}

#[async_trait]
impl ProofStore for PgStore {
    async fn store_leaves(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
        first_index: u64,
        leaves: &[(TicketId, TreeHash)],
    ) -> Result<(), StoreError> {
        let (operator, report) = (uuid_of(operator), uuid_of(report));
        let rows: Vec<_> = leaves
            .iter()
            .enumerate()
            .map(|(offset, (ticket, leaf))| {
                (
                    flight_proof_leaves::operator_id.eq(operator),
                    flight_proof_leaves::report_id.eq(report),
                    flight_proof_leaves::leaf_index.eq(i64_of(first_index + offset as u64)),
                    flight_proof_leaves::ticket_id.eq(uuid_of(*ticket)),
                    flight_proof_leaves::leaf_hash.eq(leaf.as_bytes().to_vec()),
                )
            })
            .collect();
        let mut conn = self.conn().await?;
        diesel::insert_into(flight_proof_leaves::table)
            .values(&rows)
            .execute(&mut conn)
            .await
            .map(drop)
            .map_err(from_diesel)
    }

    async fn store_block_root(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
        block: u64,
        root: TreeHash,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        diesel::insert_into(flight_proof_blocks::table)
            .values((
                flight_proof_blocks::operator_id.eq(uuid_of(operator)),
                flight_proof_blocks::report_id.eq(uuid_of(report)),
                flight_proof_blocks::block_index.eq(i64_of(block)),
                flight_proof_blocks::root.eq(root.as_bytes().to_vec()),
            ))
            .execute(&mut conn)
            .await
            .map(drop)
            .map_err(from_diesel)
    }

    async fn store_report_proof(&self, proof: &ReportProofRecord) -> Result<(), StoreError> {
        let (operator, report) = (uuid_of(proof.operator_id), uuid_of(proof.report_id));
        let sealed = self
            .data_key()?
            .seal(
                proof.player_key.to_hex().as_bytes(),
                &statement_player_key(operator, report),
            )
            .map_err(|error| unavailable("cannot seal a statement player key", &error))?;
        let row = ProofRow {
            operator_id: operator,
            report_id: report,
            merkle_root: proof.merkle_root.to_hex(),
            leaf_count: i64_of(proof.leaf_count),
            player_key_sealed: sealed,
            exchange_answer: proof.exchange_answer.clone(),
        };
        let mut conn = self.conn().await?;
        diesel::insert_into(flight_report_proofs::table)
            .values(&row)
            .execute(&mut conn)
            .await
            .map(drop)
            .map_err(from_diesel)
    }

    async fn discard_report_proof(&self, operator: OperatorId, report: SettlementReportId) -> Result<(), StoreError> {
        let (operator, report) = (uuid_of(operator), uuid_of(report));
        let mut conn = self.conn().await?;
        diesel::delete(
            flight_proof_leaves::table
                .filter(flight_proof_leaves::operator_id.eq(operator))
                .filter(flight_proof_leaves::report_id.eq(report)),
        )
        .execute(&mut conn)
        .await
        .map_err(from_diesel)?;
        diesel::delete(
            flight_proof_blocks::table
                .filter(flight_proof_blocks::operator_id.eq(operator))
                .filter(flight_proof_blocks::report_id.eq(report)),
        )
        .execute(&mut conn)
        .await
        .map_err(from_diesel)?;
        diesel::delete(flight_report_proofs::table.find((operator, report)))
            .execute(&mut conn)
            .await
            .map(drop)
            .map_err(from_diesel)
    }

    async fn report_proof(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
    ) -> Result<Option<ReportProofRecord>, StoreError> {
        let mut conn = self.conn().await?;
        let row: Option<ProofRow> = flight_report_proofs::table
            .find((uuid_of(operator), uuid_of(report)))
            .select(ProofRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        let Some(row) = row else { return Ok(None) };
        let bad = |problem: &dyn std::fmt::Display| corrupt("flight_report_proofs", row.report_id, problem);
        let opened = self
            .data_key()?
            .open(
                &row.player_key_sealed,
                &statement_player_key(row.operator_id, row.report_id),
            )
            .map_err(|error| bad(&error))?;
        let player_key = std::str::from_utf8(&opened)
            .ok()
            .and_then(|hex| PlayerKey::from_hex(hex).ok())
            .ok_or_else(|| bad(&"a player key is not 64 hex digits"))?;
        Ok(Some(ReportProofRecord {
            operator_id: operator,
            report_id: report,
            merkle_root: TreeHash::from_hex(&row.merkle_root).map_err(|e| bad(&e))?,
            leaf_count: u64::try_from(row.leaf_count).map_err(|e| bad(&e))?,
            player_key,
            exchange_answer: row.exchange_answer.clone(),
        }))
    }

    async fn leaf_position(&self, operator: OperatorId, ticket: TicketId) -> Result<Option<LeafPosition>, StoreError> {
        let operator = uuid_of(operator);
        let mut conn = self.conn().await?;
        let stored_reports = flight_settlement_reports::table
            .filter(flight_settlement_reports::operator_id.eq(operator))
            .select(flight_settlement_reports::id);
        let row: Option<(Uuid, i64, Vec<u8>)> = flight_proof_leaves::table
            .filter(flight_proof_leaves::operator_id.eq(operator))
            .filter(flight_proof_leaves::ticket_id.eq(uuid_of(ticket)))
            .filter(flight_proof_leaves::report_id.eq_any(stored_reports))
            .select((
                flight_proof_leaves::report_id,
                flight_proof_leaves::leaf_index,
                flight_proof_leaves::leaf_hash,
            ))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(|(report, index, leaf)| {
            Ok(LeafPosition {
                report_id: id_of(report),
                leaf_index: u64::try_from(index).map_err(|e| corrupt("flight_proof_leaves", report, &e))?,
                leaf_hash: hash_of(leaf, "flight_proof_leaves", report)?,
            })
        })
        .transpose()
    }

    async fn leaf_hashes(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
        leaves: Range<u64>,
    ) -> Result<Vec<TreeHash>, StoreError> {
        if leaves.is_empty() {
            return Ok(Vec::new());
        }
        let report = uuid_of(report);
        let mut conn = self.conn().await?;
        let rows: Vec<Vec<u8>> = flight_proof_leaves::table
            .filter(flight_proof_leaves::operator_id.eq(uuid_of(operator)))
            .filter(flight_proof_leaves::report_id.eq(report))
            .filter(flight_proof_leaves::leaf_index.ge(i64_of(leaves.start)))
            .filter(flight_proof_leaves::leaf_index.lt(i64_of(leaves.end)))
            .order(flight_proof_leaves::leaf_index)
            .select(flight_proof_leaves::leaf_hash)
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        if rows.len() as u64 != leaves.end - leaves.start {
            return Err(corrupt("flight_proof_leaves", report, &"leaves are missing"));
        }
        rows.into_iter()
            .map(|leaf| hash_of(leaf, "flight_proof_leaves", report))
            .collect()
    }

    async fn block_roots(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
        blocks: Range<u64>,
    ) -> Result<Vec<TreeHash>, StoreError> {
        if blocks.is_empty() {
            return Ok(Vec::new());
        }
        let report = uuid_of(report);
        let mut conn = self.conn().await?;
        let rows: Vec<Vec<u8>> = flight_proof_blocks::table
            .filter(flight_proof_blocks::operator_id.eq(uuid_of(operator)))
            .filter(flight_proof_blocks::report_id.eq(report))
            .filter(flight_proof_blocks::block_index.ge(i64_of(blocks.start)))
            .filter(flight_proof_blocks::block_index.lt(i64_of(blocks.end)))
            .order(flight_proof_blocks::block_index)
            .select(flight_proof_blocks::root)
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        if rows.len() as u64 != blocks.end - blocks.start {
            return Err(corrupt("flight_proof_blocks", report, &"blocks are missing"));
        }
        rows.into_iter()
            .map(|root| hash_of(root, "flight_proof_blocks", report))
            .collect()
    }

    async fn ticket_line(
        &self,
        operator: OperatorId,
        ticket: TicketId,
    ) -> Result<Option<ReportLineRecord>, StoreError> {
        let mut conn = self.conn().await?;
        let row: Option<LineRow> = flight_tickets::table
            .filter(flight_tickets::operator_id.eq(uuid_of(operator)))
            .filter(flight_tickets::id.eq(uuid_of(ticket)))
            .filter(flight_tickets::status.eq_any(WITH_MONEY))
            .select((
                flight_tickets::id,
                flight_tickets::flight_id,
                flight_tickets::external_user_id,
                flight_tickets::created_at,
                flight_tickets::status,
                flight_tickets::stake,
                flight_tickets::payout,
                flight_tickets::share_bps,
            ))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(LineRow::into_record).transpose()
    }
}
