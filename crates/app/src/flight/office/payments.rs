//! Recording a payment against a finalized report, and the payment history. A payment
//! pays part or all of what remains due after corrections, in the direction it is due
//! (`opinion-flight`'s `SettlementBalance::paid`); more, or the other way, is refused
//! (`payment_exceeds_due`). It is stored with `mini_app.flight.payment.recorded` in one
//! transaction that locks the report row and finds the balance it was checked against,
//! so two payments recorded at once never overpay together: the second is checked again
//! against the balance the first left. A bank reference is recorded once per operator
//! (`payment_reference_taken`).

use opinion_core::{EventId, OperatorId, Page, PageRequest, SettlementPaymentId, SettlementPaymentKind};
use opinion_flight::{PaymentRefusal, Rupiah, SettlementBalance, payment_direction};
use opinion_webhook::EventType;
use serde_json::json;
use time::Date;

use crate::error::{AppError, ProblemCode};
use crate::flight::events::IDR;
use crate::flight::office::correct::balance_of;
use crate::flight::office::model::{FinalizedReport, Payment};
use crate::flight::office::{FlightOffice, ReportAddress};
use crate::flight::terms::staff_name;
use crate::model::{NewEvent, rfc3339};
use crate::opinion::reads::filters::optional_id;
use crate::ports::{ChangedRecord, StoreError, UniqueKey};

/// The longest bank or transfer reference accepted, in characters.
pub const MAX_REFERENCE: usize = 200;

/// How often a payment is checked again after the report's balance moved meanwhile.
const ATTEMPTS: u32 = 5;

/// What staff record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentRequest {
    /// Whose report.
    pub operator: OperatorId,
    /// The finalized report paid (its id or its period).
    pub report: ReportAddress,
    /// How much, whole rupiah.
    pub amount: i64,
    /// `operator_to_platform` or `platform_to_operator`.
    pub direction: String,
    /// The day the money moved (not after today, UTC).
    pub paid_on: Date,
    /// The bank or transfer reference.
    pub reference: String,
    /// Who records it.
    pub by: String,
}

/// A finalized report's payments and its balance now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportPayments {
    /// The report.
    pub report: FinalizedReport,
    /// Its balance now: corrections, payments, what remains due.
    pub balance: SettlementBalance,
    /// One page of its payments, newest first.
    pub payments: Page<Payment, SettlementPaymentKind>,
}

/// A refusal of the domain as the client reads it.
fn refused(refusal: PaymentRefusal) -> AppError {
    match refusal {
        PaymentRefusal::Zero => AppError::invalid("amount", "more than 0 whole rupiah"),
        other => AppError::Conflict {
            code: ProblemCode::PaymentExceedsDue,
            detail: format!("the payment was not recorded: {other}"),
        },
    }
}

impl FlightOffice {
    /// Records a payment against the operator's finalized report.
    pub async fn record_payment(&self, request: PaymentRequest) -> Result<Payment, AppError> {
        let amount =
            Rupiah::new(request.amount).map_err(|_| AppError::invalid("amount", "more than 0 whole rupiah"))?;
        let direction = payment_direction(&request.direction)
            .ok_or_else(|| AppError::invalid("direction", "`operator_to_platform` or `platform_to_operator`"))?;
        let reference = request.reference.trim();
        if reference.is_empty() || reference.chars().count() > MAX_REFERENCE {
            return Err(AppError::invalid(
                "reference",
                format!("1 to {MAX_REFERENCE} characters"),
            ));
        }
        staff_name(&request.by)?;
        if request.paid_on > self.ports.clock.now().date() {
            return Err(AppError::invalid(
                "paidOn",
                "a payment is recorded once it was made: not after today (UTC)",
            ));
        }
        let report = self.finalized_for(request.operator, request.report).await?;
        let id = SettlementPaymentId::from_ulid(self.ports.random.ulid());
        for _ in 0..ATTEMPTS {
            let moves = self.ports.store.report_balance(report.operator_id, report.id).await?;
            let after = balance_of(&report, &moves).paid(amount, direction).map_err(refused)?;
            let (remaining_due, remaining_direction) = after.remaining_due();
            let payment = Payment {
                id,
                operator_id: report.operator_id,
                report_id: report.id,
                amount,
                direction,
                paid_on: request.paid_on,
                reference: reference.to_owned(),
                recorded_by: request.by.trim().to_owned(),
                remaining_due,
                remaining_direction,
                recorded_at: self.ports.clock.now(),
            };
            let event = self.payment_recorded(&payment);
            match self.ports.store.record_payment(&payment, &moves, &event).await {
                Ok(()) => {
                    tracing::info!(operator_id = %payment.operator_id, report_id = %payment.report_id, payment_id = %id, "settlement payment recorded");
                    return Ok(payment);
                }
                Err(StoreError::Conflict(ChangedRecord::SettlementBalance)) => {}
                Err(StoreError::Duplicate(UniqueKey::PaymentReference)) => {
                    return Err(AppError::Conflict {
                        code: ProblemCode::PaymentReferenceTaken,
                        detail: format!(
                            "a payment with the reference `{reference}` is already recorded for the operator"
                        ),
                    });
                }
                Err(error) => return Err(error.into()),
            }
        }
        Err(AppError::Conflict {
            code: ProblemCode::ConcurrentChange,
            detail: "the report's balance kept moving; record the payment again".into(),
        })
    }

    /// One page of the operator's payments, newest first; `report` (`fsr_…`) keeps one
    /// report's.
    pub async fn list_payments(
        &self,
        operator: OperatorId,
        report: Option<&str>,
        page: PageRequest<SettlementPaymentKind>,
    ) -> Result<Page<Payment, SettlementPaymentKind>, AppError> {
        let report = optional_id("reportId", report)?;
        Ok(self.ports.store.list_payments(operator, report, page).await?)
    }

    /// One page of a finalized report's payments with what remains due on it; an open
    /// report has none (`report_not_finalized`).
    pub async fn report_payments(
        &self,
        operator: OperatorId,
        address: ReportAddress,
        page: PageRequest<SettlementPaymentKind>,
    ) -> Result<ReportPayments, AppError> {
        let report = self.finalized_for(operator, address).await?;
        let moves = self.ports.store.report_balance(operator, report.id).await?;
        let payments = self.ports.store.list_payments(operator, Some(report.id), page).await?;
        Ok(ReportPayments {
            balance: balance_of(&report, &moves),
            report,
            payments,
        })
    }

    /// `mini_app.flight.payment.recorded`.
    fn payment_recorded(&self, payment: &Payment) -> NewEvent {
        NewEvent::new(
            EventId::from_ulid(self.ports.random.ulid()),
            payment.operator_id,
            EventType::FlightPaymentRecorded,
            json!({
                "paymentId": payment.id,
                "reportId": payment.report_id,
                "amount": payment.amount.to_string(),
                "currency": IDR,
                "direction": payment.direction.as_str(),
                "paidOn": payment.paid_on.to_string(),
                "reference": payment.reference,
                "remainingDue": payment.remaining_due.to_string(),
                "recordedAt": rfc3339(payment.recorded_at),
            }),
            payment.recorded_at,
        )
    }
}
