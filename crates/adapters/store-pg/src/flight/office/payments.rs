//! Settlement payments: stored with their event in one transaction that locks the report
//! row and finds the balance the payment was checked against (`corrections.rs`'s
//! `lock_balance`), so two payments recorded at once are checked one after the other;
//! a reference is unique per operator, case aside (`flight_settlement_payments_reference_key`).
//! Nothing stored here is ever updated (a trigger refuses it).

use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::office::model::{BalanceMoves, Payment};
use opinion_app::model::NewEvent;
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, Page, PageRequest, SettlementPaymentKind, SettlementReportId};
use opinion_flight::{PaymentDirection, Rupiah, payment_direction};
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use super::corrections::{BalanceWrite, lock_balance};
use crate::db::error::{corrupt, from_diesel};
use crate::db::ids::{id_of, uuid_of};
use crate::db::keyset_page::keyset_page;
use crate::db::schema::flight_settlement_payments;
use crate::webhooks::outbox::enqueue_events;

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = flight_settlement_payments, check_for_backend(diesel::pg::Pg))]
struct PaymentRow {
    operator_id: Uuid,
    id: Uuid,
    report_id: Uuid,
    amount: i64,
    direction: String,
    paid_on: Date,
    reference: String,
    recorded_by: String,
    remaining_due: i64,
    remaining_direction: String,
    recorded_at: OffsetDateTime,
}

impl PaymentRow {
    fn new(payment: &Payment) -> Self {
        Self {
            operator_id: uuid_of(payment.operator_id),
            id: uuid_of(payment.id),
            report_id: uuid_of(payment.report_id),
            amount: payment.amount.get(),
            direction: payment.direction.as_str().to_owned(),
            paid_on: payment.paid_on,
            reference: payment.reference.clone(),
            recorded_by: payment.recorded_by.clone(),
            remaining_due: payment.remaining_due.get(),
            remaining_direction: payment.remaining_direction.as_str().to_owned(),
            recorded_at: payment.recorded_at,
        }
    }

    fn into_payment(self) -> Result<Payment, StoreError> {
        let bad = |problem: &dyn std::fmt::Display| corrupt("flight_settlement_payments", self.id, problem);
        let rupiah = |value: i64| Rupiah::new(value).map_err(|e| bad(&e));
        let remaining_direction = match self.remaining_direction.as_str() {
            "none" => PaymentDirection::None,
            other => payment_direction(other).ok_or_else(|| bad(&"remaining direction"))?,
        };
        Ok(Payment {
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            report_id: id_of(self.report_id),
            amount: rupiah(self.amount)?,
            direction: payment_direction(&self.direction).ok_or_else(|| bad(&"direction"))?,
            paid_on: self.paid_on,
            reference: self.reference,
            recorded_by: self.recorded_by,
            remaining_due: rupiah(self.remaining_due)?,
            remaining_direction,
            recorded_at: self.recorded_at,
        })
    }
}

/// Stores the payment and its event, against the balance `expected`.
pub(super) async fn record(
    conn: &mut AsyncPgConnection,
    payment: &Payment,
    expected: &BalanceMoves,
    event: &NewEvent,
) -> Result<(), StoreError> {
    let row = PaymentRow::new(payment);
    conn.transaction::<_, BalanceWrite, _>(async |conn| {
        lock_balance(conn, payment.operator_id, payment.report_id, expected).await?;
        diesel::insert_into(flight_settlement_payments::table)
            .values(&row)
            .execute(conn)
            .await?;
        enqueue_events(conn, std::slice::from_ref(event)).await?;
        Ok(())
    })
    .await
    .map_err(BalanceWrite::into_store_error)
}

/// One page of the operator's payments, newest first, of one report or all.
pub(super) async fn list(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    report: Option<SettlementReportId>,
    page: PageRequest<SettlementPaymentKind>,
) -> Result<Page<Payment, SettlementPaymentKind>, StoreError> {
    let mut query = flight_settlement_payments::table
        .filter(flight_settlement_payments::operator_id.eq(uuid_of(operator)))
        .select(PaymentRow::as_select())
        .order(flight_settlement_payments::id.desc())
        .into_boxed();
    if let Some(report) = report {
        query = query.filter(flight_settlement_payments::report_id.eq(uuid_of(report)));
    }
    if let Some(after) = page.after {
        query = query.filter(flight_settlement_payments::id.lt(uuid_of(after.position())));
    }
    let rows: Vec<PaymentRow> = keyset_page(query, &page).load(conn).await.map_err(from_diesel)?;
    let payments = rows
        .into_iter()
        .map(PaymentRow::into_payment)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page::from_overfetch(payments, page.limit, |p: &Payment| p.id))
}
