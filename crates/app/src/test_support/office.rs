//! The flight back office's ports in memory, keeping the rules the database keeps (one
//! current key; a known key is never registered twice).

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use opinion_core::{OperatorId, Page, PageRequest, SettlementPaymentKind, SettlementReportId, StatementCorrectionKind};
use opinion_flight::SettlementPeriod;
use opinion_flight::{ReportLine, TicketStatus};
use time::OffsetDateTime;

use crate::flight::office::model::{
    BalanceMoves, ChainDocument, Correction, FinalizedReport, LineCursor, Payment, ReportLineRecord, StatementKeyRecord,
};
use crate::flight::office::ports::{OfficeStore, PeriodTicketCounts, StatementKeyStore};
use crate::flight::office::{FlightOffice, OfficePorts};
use crate::model::NewEvent;
use crate::ports::{ChangedRecord, Clock, StoreError, UniqueKey};
use crate::test_support::counting_random;
use crate::test_support::flight::MemoryFlightStore;
use crate::test_support::office_proofs::{FixedExchange, MemoryProofs, OperatorsIn, not_configured};
use opinion_wallet::Currency;

/// Statement keys in memory.
#[derive(Default)]
pub struct MemoryKeys(pub Mutex<Vec<StatementKeyRecord>>);

#[async_trait]
impl StatementKeyStore for MemoryKeys {
    async fn statement_keys(&self) -> Result<Vec<StatementKeyRecord>, StoreError> {
        Ok(self.0.lock().expect("keys").clone())
    }

    async fn register_statement_key(&self, key: &StatementKeyRecord) -> Result<StatementKeyRecord, StoreError> {
        let mut keys = self.0.lock().expect("keys");
        if let Some(known) = keys.iter().find(|record| record.key_id == key.key_id) {
            return Ok(known.clone());
        }
        for record in keys.iter_mut().filter(|record| record.retired_at.is_none()) {
            record.retired_at = Some(key.created_at);
        }
        keys.push(key.clone());
        Ok(key.clone())
    }
}

/// Reports and chains in memory, over the tickets of a `MemoryFlightStore`.
#[derive(Default)]
pub struct MemoryOffice {
    /// The tickets (and terms).
    pub flight: MemoryFlightStore,
    /// Finalized reports.
    pub reports: Mutex<Vec<FinalizedReport>>,
    /// Every operator's chain documents.
    pub chain: Mutex<Vec<ChainDocument>>,
    /// Events stored with them.
    pub events: Mutex<Vec<NewEvent>>,
    /// How many line chunks were read.
    pub chunks_read: Mutex<u32>,
    /// Issued corrections.
    pub corrections: Mutex<Vec<Correction>>,
    /// Corrections another instance stores just before the next write lands (a race).
    pub interleaved: Mutex<Vec<Correction>>,
    /// Recorded payments.
    pub payments: Mutex<Vec<Payment>>,
    /// Payments another instance stores just before the next write lands (a race).
    pub interleaved_payments: Mutex<Vec<Payment>>,
}

impl MemoryOffice {
    /// Stores the interleaved corrections, as if another instance had just committed them.
    fn land_interleaved(&self) {
        let landed: Vec<Correction> = self.interleaved.lock().expect("interleaved").drain(..).collect();
        for correction in landed {
            self.chain.lock().expect("chain").push(correction.document.clone());
            self.corrections.lock().expect("corrections").push(correction);
        }
        let landed: Vec<Payment> = self
            .interleaved_payments
            .lock()
            .expect("interleaved")
            .drain(..)
            .collect();
        self.payments.lock().expect("payments").extend(landed);
    }

    fn moves(&self, operator: OperatorId, report: SettlementReportId) -> BalanceMoves {
        let corrections = self.corrections.lock().expect("corrections");
        let payments = self.payments.lock().expect("payments");
        let paid = |direction: opinion_flight::PaymentDirection| {
            payments
                .iter()
                .filter(|p| p.operator_id == operator && p.report_id == report && p.direction == direction)
                .map(|p| p.amount.get())
                .sum()
        };
        BalanceMoves {
            corrections: corrections
                .iter()
                .filter(|c| c.operator_id == operator && c.report_id == report)
                .map(|c| c.amount_change)
                .sum(),
            paid_to_platform: paid(opinion_flight::PaymentDirection::OperatorToPlatform),
            paid_to_operator: paid(opinion_flight::PaymentDirection::PlatformToOperator),
        }
    }
}

fn outcome(status: TicketStatus) -> Option<&'static str> {
    match status {
        TicketStatus::CashedOut => Some("cashed_out"),
        TicketStatus::Lost => Some("lost"),
        TicketStatus::Refunding | TicketStatus::Refunded => Some("refunded"),
        _ => None,
    }
}

#[async_trait]
impl OfficeStore for MemoryOffice {
    async fn period_ticket_counts(
        &self,
        operator: OperatorId,
        start: OffsetDateTime,
        end: OffsetDateTime,
    ) -> Result<PeriodTicketCounts, StoreError> {
        let memory = self.flight.memory();
        let of_period = memory
            .tickets
            .values()
            .filter(|t| t.operator_id == operator && t.created_at >= start && t.created_at < end);
        let mut counts = PeriodTicketCounts::default();
        for ticket in of_period {
            match ticket.status {
                TicketStatus::Pending | TicketStatus::Active => counts.unsettled += 1,
                TicketStatus::Review => counts.in_review += 1,
                _ => {}
            }
        }
        Ok(counts)
    }

    async fn report_lines(
        &self,
        operator: OperatorId,
        start: OffsetDateTime,
        end: OffsetDateTime,
        after: Option<LineCursor>,
        limit: u32,
    ) -> Result<Vec<ReportLineRecord>, StoreError> {
        *self.chunks_read.lock().expect("chunks") += 1;
        let memory = self.flight.memory();
        let mut lines: Vec<ReportLineRecord> = memory
            .tickets
            .values()
            .filter(|t| t.operator_id == operator && t.created_at >= start && t.created_at < end)
            .filter(|t| after.is_none_or(|cursor| (t.created_at, t.id) > cursor))
            .filter_map(|t| {
                let outcome = outcome(t.status)?;
                let refunded = outcome == "refunded";
                Some(ReportLineRecord {
                    ticket_id: t.id,
                    flight_id: t.flight_id,
                    external_user_id: t.external_user_id.clone(),
                    purchased_at: t.created_at,
                    outcome,
                    line: ReportLine {
                        stake: t.stake,
                        payout: t.payout.unwrap_or(opinion_flight::Rupiah::ZERO),
                        refund: if refunded {
                            t.stake
                        } else {
                            opinion_flight::Rupiah::ZERO
                        },
                        share_bps: t.share_bps,
                    },
                })
            })
            .collect();
        lines.sort_by_key(|line| (line.purchased_at, line.ticket_id));
        lines.truncate(limit as usize);
        Ok(lines)
    }

    async fn last_chain_document(&self, operator: OperatorId) -> Result<Option<ChainDocument>, StoreError> {
        let chain = self.chain.lock().expect("chain");
        Ok(chain
            .iter()
            .filter(|document| document.operator_id == operator)
            .max_by_key(|document| document.sequence)
            .cloned())
    }

    async fn chain_document(&self, operator: OperatorId, sequence: u64) -> Result<Option<ChainDocument>, StoreError> {
        let chain = self.chain.lock().expect("chain");
        Ok(chain
            .iter()
            .find(|document| document.operator_id == operator && document.sequence == sequence)
            .cloned())
    }

    async fn report_of_period(
        &self,
        operator: OperatorId,
        start: OffsetDateTime,
    ) -> Result<Option<FinalizedReport>, StoreError> {
        let reports = self.reports.lock().expect("reports");
        Ok(reports
            .iter()
            .find(|report| report.operator_id == operator && report.period_start == start)
            .cloned())
    }

    async fn store_finalized_report(&self, report: &FinalizedReport, event: &NewEvent) -> Result<(), StoreError> {
        let mut reports = self.reports.lock().expect("reports");
        let mut chain = self.chain.lock().expect("chain");
        let period_taken = reports
            .iter()
            .any(|r| r.operator_id == report.operator_id && r.period_start == report.period_start);
        let sequence_taken = chain
            .iter()
            .any(|d| d.operator_id == report.operator_id && d.sequence == report.statement.sequence);
        if period_taken || sequence_taken {
            return Err(StoreError::Duplicate(UniqueKey::Other));
        }
        reports.push(report.clone());
        chain.push(report.statement.clone());
        self.events.lock().expect("events").push(event.clone());
        Ok(())
    }

    async fn report_periods(
        &self,
        operator: OperatorId,
        before: Option<OffsetDateTime>,
        limit: u32,
    ) -> Result<Vec<OffsetDateTime>, StoreError> {
        let month = SettlementPeriod::CalendarMonth;
        let mut starts: Vec<OffsetDateTime> = self
            .flight
            .memory()
            .tickets
            .values()
            .filter(|t| t.operator_id == operator)
            .map(|t| month.period_containing(t.created_at).0)
            .chain(
                self.reports
                    .lock()
                    .expect("reports")
                    .iter()
                    .filter(|r| r.operator_id == operator)
                    .map(|r| r.period_start),
            )
            .filter(|start| before.is_none_or(|before| *start < before))
            .collect();
        starts.sort_unstable_by(|a, b| b.cmp(a));
        starts.dedup();
        starts.truncate(limit as usize);
        Ok(starts)
    }

    async fn finalized_reports(
        &self,
        operator: OperatorId,
        oldest: OffsetDateTime,
        newest: OffsetDateTime,
    ) -> Result<Vec<FinalizedReport>, StoreError> {
        let reports = self.reports.lock().expect("reports");
        Ok(reports
            .iter()
            .filter(|r| r.operator_id == operator && r.period_start >= oldest && r.period_start <= newest)
            .cloned()
            .collect())
    }

    async fn find_report(
        &self,
        operator: OperatorId,
        id: SettlementReportId,
    ) -> Result<Option<FinalizedReport>, StoreError> {
        let reports = self.reports.lock().expect("reports");
        Ok(reports
            .iter()
            .find(|r| r.operator_id == operator && r.id == id)
            .cloned())
    }
    async fn report_balance(
        &self,
        operator: OperatorId,
        report: SettlementReportId,
    ) -> Result<BalanceMoves, StoreError> {
        Ok(self.moves(operator, report))
    }

    async fn store_correction(
        &self,
        correction: &Correction,
        expected: &BalanceMoves,
        event: &NewEvent,
    ) -> Result<(), StoreError> {
        self.land_interleaved();
        if self.moves(correction.operator_id, correction.report_id) != *expected {
            return Err(StoreError::Conflict(ChangedRecord::SettlementBalance));
        }
        let mut chain = self.chain.lock().expect("chain");
        let document = &correction.document;
        if chain
            .iter()
            .any(|d| d.operator_id == document.operator_id && d.sequence == document.sequence)
        {
            return Err(StoreError::Duplicate(UniqueKey::Other));
        }
        chain.push(document.clone());
        self.corrections.lock().expect("corrections").push(correction.clone());
        self.events.lock().expect("events").push(event.clone());
        Ok(())
    }

    async fn list_corrections(
        &self,
        operator: OperatorId,
        report: Option<SettlementReportId>,
        page: PageRequest<StatementCorrectionKind>,
    ) -> Result<Page<Correction, StatementCorrectionKind>, StoreError> {
        let mut corrections: Vec<Correction> = self
            .corrections
            .lock()
            .expect("corrections")
            .iter()
            .filter(|c| c.operator_id == operator && report.is_none_or(|report| c.report_id == report))
            .filter(|c| page.after.is_none_or(|after| c.id < after.position()))
            .cloned()
            .collect();
        corrections.sort_by_key(|c| std::cmp::Reverse(c.id));
        corrections.truncate(usize::from(page.limit.get()) + 1);
        Ok(Page::from_overfetch(corrections, page.limit, |c| c.id))
    }

    async fn record_payment(
        &self,
        payment: &Payment,
        expected: &BalanceMoves,
        event: &NewEvent,
    ) -> Result<(), StoreError> {
        self.land_interleaved();
        if self.moves(payment.operator_id, payment.report_id) != *expected {
            return Err(StoreError::Conflict(ChangedRecord::SettlementBalance));
        }
        let mut payments = self.payments.lock().expect("payments");
        if payments.iter().any(|p| {
            p.operator_id == payment.operator_id && p.reference.to_lowercase() == payment.reference.to_lowercase()
        }) {
            return Err(StoreError::Duplicate(UniqueKey::PaymentReference));
        }
        payments.push(payment.clone());
        self.events.lock().expect("events").push(event.clone());
        Ok(())
    }

    async fn list_payments(
        &self,
        operator: OperatorId,
        report: Option<SettlementReportId>,
        page: PageRequest<SettlementPaymentKind>,
    ) -> Result<Page<Payment, SettlementPaymentKind>, StoreError> {
        let mut payments: Vec<Payment> = self
            .payments
            .lock()
            .expect("payments")
            .iter()
            .filter(|p| p.operator_id == operator && report.is_none_or(|report| p.report_id == report))
            .filter(|p| page.after.is_none_or(|after| p.id < after.position()))
            .cloned()
            .collect();
        payments.sort_by_key(|p| std::cmp::Reverse(p.id));
        payments.truncate(usize::from(page.limit.get()) + 1);
        Ok(Page::from_overfetch(payments, page.limit, |p| p.id))
    }
}

/// A back office signing with the key of `seed`, over `keys` and `store`, at `clock`'s time,
/// for an operator whose money is IDR.
pub fn office_over(seed: u8, keys: Arc<MemoryKeys>, store: Arc<MemoryOffice>, clock: Arc<dyn Clock>) -> FlightOffice {
    let proofs = Arc::new(MemoryProofs::over(store.clone()));
    let exchange = Arc::new(FixedExchange::new(not_configured()));
    office_with(seed, keys, store, clock, (proofs, Currency::IDR, exchange))
}

/// A back office signing with the key of `seed`, over `keys`, `store` and the proof ports
/// (`proofs`, the operator's currency, the exchange), at `clock`'s time.
pub fn office_with(
    seed: u8,
    keys: Arc<MemoryKeys>,
    store: Arc<MemoryOffice>,
    clock: Arc<dyn Clock>,
    (proofs, currency, exchange): (Arc<MemoryProofs>, Currency, Arc<FixedExchange>),
) -> FlightOffice {
    let flight = Arc::new(store.flight.clone());
    FlightOffice::new(
        OfficePorts {
            keys,
            store,
            flight,
            proofs,
            operators: Arc::new(OperatorsIn(currency)),
            exchange,
            clock,
            random: counting_random(1, [0; 32]),
        },
        opinion_statement::StatementKey::from_seed([seed; 32]),
    )
}

/// A back office signing with the key of `seed`, over `keys`, at `clock`'s time.
pub fn office(seed: u8, keys: Arc<MemoryKeys>, clock: Arc<dyn Clock>) -> FlightOffice {
    office_over(seed, keys, Arc::new(MemoryOffice::default()), clock)
}
