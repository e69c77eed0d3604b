//! The v5 proof's ports in memory: the statements' trees over a `MemoryOffice` (whose
//! stored reports decide which trees are shown), an operator of a chosen currency, and an
//! exchange answering a fixed answer.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use opinion_core::{OperatorId, SettlementReportId, TicketId};
use opinion_proof::{CurrencyPair, TreeHash};
use opinion_wallet::Currency;
use time::OffsetDateTime;

use crate::access::ports::OperatorStore;
use crate::flight::exchange::{ExchangeAnswer, ExchangeRates};
use crate::flight::office::model::ReportLineRecord;
use crate::flight::office::ports::OfficeStore;
use crate::flight::office::proof_ports::{LeafPosition, ProofStore, ReportProofRecord};
use crate::model::{ApiKeyRecord, Operator};
use crate::ports::StoreError;
use crate::test_support::office::MemoryOffice;

type Key = (OperatorId, SettlementReportId);

/// What is kept of the statements' trees.
#[derive(Default)]
pub struct Kept {
    /// Leaf hashes and their tickets, by report and index.
    pub leaves: BTreeMap<(Key, u64), (TicketId, TreeHash)>,
    /// Block roots, by report and block.
    pub blocks: BTreeMap<(Key, u64), TreeHash>,
    /// The proofs' records.
    pub proofs: Vec<ReportProofRecord>,
}

/// The trees in memory, beside the office whose reports they belong to.
pub struct MemoryProofs {
    /// The office (its tickets and stored reports).
    pub office: Arc<MemoryOffice>,
    /// What was kept.
    pub kept: Mutex<Kept>,
}

impl MemoryProofs {
    /// Trees beside `office`.
    pub fn over(office: Arc<MemoryOffice>) -> Self {
        Self {
            office,
            kept: Mutex::new(Kept::default()),
        }
    }

    fn is_stored(&self, operator: OperatorId, report: SettlementReportId) -> bool {
        let reports = self.office.reports.lock().expect("reports");
        reports.iter().any(|r| r.operator_id == operator && r.id == report)
    }
}

#[async_trait]
impl ProofStore for MemoryProofs {
    async fn store_leaves(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
        first_index: u64,
        leaves: &[(TicketId, TreeHash)],
    ) -> Result<(), StoreError> {
        let mut kept = self.kept.lock().expect("kept");
        for (offset, leaf) in leaves.iter().enumerate() {
            kept.leaves
                .insert(((operator, report), first_index + offset as u64), *leaf);
        }
        Ok(())
    }

    async fn store_block_root(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
        block: u64,
        root: TreeHash,
    ) -> Result<(), StoreError> {
        self.kept
            .lock()
            .expect("kept")
            .blocks
            .insert(((operator, report), block), root);
        Ok(())
    }

    async fn store_report_proof(&self, proof: &ReportProofRecord) -> Result<(), StoreError> {
        self.kept.lock().expect("kept").proofs.push(proof.clone());
        Ok(())
    }

    async fn discard_report_proof(&self, operator: OperatorId, report: SettlementReportId) -> Result<(), StoreError> {
        let mut kept = self.kept.lock().expect("kept");
        kept.leaves.retain(|(key, _), _| *key != (operator, report));
        kept.blocks.retain(|(key, _), _| *key != (operator, report));
        kept.proofs
            .retain(|p| (p.operator_id, p.report_id) != (operator, report));
        Ok(())
    }

    async fn report_proof(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
    ) -> Result<Option<ReportProofRecord>, StoreError> {
        let kept = self.kept.lock().expect("kept");
        Ok(kept
            .proofs
            .iter()
            .find(|p| (p.operator_id, p.report_id) == (operator, report))
            .cloned())
    }

    async fn leaf_position(&self, operator: OperatorId, ticket: TicketId) -> Result<Option<LeafPosition>, StoreError> {
        let found: Vec<LeafPosition> = {
            let kept = self.kept.lock().expect("kept");
            kept.leaves
                .iter()
                .filter(|(((op, _), _), (t, _))| *op == operator && *t == ticket)
                .map(|(((_, report), index), (_, leaf))| LeafPosition {
                    report_id: *report,
                    leaf_index: *index,
                    leaf_hash: *leaf,
                })
                .collect()
        };
        Ok(found.into_iter().find(|p| self.is_stored(operator, p.report_id)))
    }

    async fn leaf_hashes(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
        leaves: Range<u64>,
    ) -> Result<Vec<TreeHash>, StoreError> {
        let kept = self.kept.lock().expect("kept");
        Ok(kept
            .leaves
            .range(((operator, report), leaves.start)..((operator, report), leaves.end))
            .map(|(_, (_, leaf))| *leaf)
            .collect())
    }

    async fn block_roots(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
        blocks: Range<u64>,
    ) -> Result<Vec<TreeHash>, StoreError> {
        let kept = self.kept.lock().expect("kept");
        Ok(kept
            .blocks
            .range(((operator, report), blocks.start)..((operator, report), blocks.end))
            .map(|(_, root)| *root)
            .collect())
    }

    async fn ticket_line(
        &self,
        operator: OperatorId,
        ticket: TicketId,
    ) -> Result<Option<ReportLineRecord>, StoreError> {
        let lines = self
            .office
            .report_lines(
                operator,
                OffsetDateTime::UNIX_EPOCH,
                OffsetDateTime::UNIX_EPOCH + time::Duration::days(365 * 100),
                None,
                u32::MAX,
            )
            .await?;
        Ok(lines.into_iter().find(|line| line.ticket_id == ticket))
    }
}

/// Operators whose money is `currency`.
pub struct OperatorsIn(pub Currency);

#[async_trait]
impl OperatorStore for OperatorsIn {
    async fn insert_operator(
        &self,
        _: &Operator,
        _: &ApiKeyRecord,
        _: &opinion_access::SecretHash,
    ) -> Result<(), StoreError> {
        Err(StoreError::Unavailable("read only".into()))
    }

    async fn find_operator(&self, id: OperatorId) -> Result<Option<Operator>, StoreError> {
        Ok(Some(Operator {
            id,
            name: "Operator".into(),
            currency: self.0,
            created_at: OffsetDateTime::UNIX_EPOCH,
        }))
    }

    async fn find_playground_setting(&self, _: OperatorId) -> Result<crate::model::PlaygroundSetting, StoreError> {
        Ok(crate::model::PlaygroundSetting::default())
    }

    async fn save_playground_console(
        &self,
        _: OperatorId,
        _: opinion_access::PlaygroundConsole,
        _: OffsetDateTime,
    ) -> Result<(), StoreError> {
        Err(StoreError::Unavailable("read only".into()))
    }

    async fn ping(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// What an exchange that is not configured answers.
pub fn not_configured() -> ExchangeAnswer {
    ExchangeAnswer {
        evidence: opinion_proof::ExchangeEvidence::unavailable(
            "none",
            "USDT/IDR".parse().expect("pair"),
            opinion_proof::UnavailableReason::NotConfigured,
            "no exchange is configured",
            crate::test_support::NOW,
        ),
        raw_answer: None,
    }
}

/// An exchange answering the same answer every time, counting the questions.
pub struct FixedExchange {
    /// What it answers.
    pub answer: ExchangeAnswer,
    /// The pairs asked, in order.
    pub asked: Mutex<Vec<CurrencyPair>>,
}

impl FixedExchange {
    /// An exchange answering `answer`.
    pub fn new(answer: ExchangeAnswer) -> Self {
        Self {
            answer,
            asked: Mutex::new(Vec::new()),
        }
    }
}

#[async_trait]
impl ExchangeRates for FixedExchange {
    async fn evidence(&self, pair: &CurrencyPair) -> ExchangeAnswer {
        self.asked.lock().expect("asked").push(pair.clone());
        self.answer.clone()
    }
}
