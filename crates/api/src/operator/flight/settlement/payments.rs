//! The payment history: `GET /api/operator/flight/payments` (every report's, newest
//! first) and `GET …/settlement-reports/{id}/payments` (one finalized report's, with its
//! balance: what its corrections and payments leave due).

use actix_web::{HttpResponse, web};
use opinion_access::RouteId;
use opinion_app::flight::office::model::Payment;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::problem_responses::{InvalidRequest, NotFound, ReportNotFinalized};
use crate::operator::flight::settlement::dto::{BalanceBody, IDR};
use crate::operator::flight::settlement::reports::address_of;
use crate::shared::list::ListBody;
use crate::shared::page_query::page_of;
use crate::state::ApiState;

/// One payment recorded against a finalized report.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentBody {
    /// `fpy_…`.
    pub id: String,
    /// The report it pays (`fsr_…`).
    pub report_id: String,
    /// Whole rupiah.
    pub amount: String,
    /// Always `IDR`.
    pub currency: &'static str,
    /// `operator_to_platform` or `platform_to_operator`.
    pub direction: String,
    /// The day the money moved, `YYYY-MM-DD`.
    pub paid_on: String,
    /// The bank or transfer reference.
    pub reference: String,
    /// What remained due on the report right after it (later corrections and payments
    /// move the report's balance, not this).
    pub remaining_due: String,
    /// Who owed that: `operator_to_platform`, `platform_to_operator` or `none`.
    pub remaining_direction: String,
    /// When platform staff recorded it.
    #[serde(with = "time::serde::rfc3339")]
    pub recorded_at: OffsetDateTime,
}

impl From<Payment> for PaymentBody {
    fn from(payment: Payment) -> Self {
        Self {
            id: payment.id.to_string(),
            report_id: payment.report_id.to_string(),
            amount: payment.amount.to_string(),
            currency: IDR,
            direction: payment.direction.as_str().to_owned(),
            paid_on: payment.paid_on.to_string(),
            reference: payment.reference,
            remaining_due: payment.remaining_due.to_string(),
            remaining_direction: payment.remaining_direction.as_str().to_owned(),
            recorded_at: payment.recorded_at,
        }
    }
}

/// One page of a report's payments with the report's balance now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportPaymentsBody {
    /// The payments, newest first.
    pub data: Vec<PaymentBody>,
    /// Pass as `cursor` to read the next page; null on the last page.
    pub next_cursor: Option<String>,
    /// Whether another page follows.
    pub has_more: bool,
    /// The report (`fsr_…`).
    pub report_id: String,
    /// Its balance now: corrections, payments and what remains due.
    pub balance: BalanceBody,
}

/// A payment list's query: its page.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PaymentsParams {
    /// Items per page, 1 to 200 (default 50).
    pub limit: Option<u32>,
    /// The `nextCursor` of the previous page.
    pub cursor: Option<String>,
}

page_of!(PaymentsParams);

/// Lists the operator's payments against every report, newest first.
#[utoipa::path(
    get,
    path = RouteId::FlightPaymentsList.spec().path,
    params(PaymentsParams),
    responses(
        (status = 200, description = "one page of payments, newest first", body = ListBody<PaymentBody>),
        InvalidRequest,
    ),
)]
pub async fn list(
    state: web::Data<ApiState>,
    caller: Caller,
    query: web::Query<PaymentsParams>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let payments = state.office.list_payments(caller.0.operator_id, None, page).await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(payments, PaymentBody::from)))
}

/// One finalized report's payments, newest first, with what remains due on it.
#[utoipa::path(
    get,
    path = RouteId::FlightSettlementReportPayments.spec().path,
    params(("id" = String, Path, description = "`fsr_…`, or the period `YYYY-MM`"), PaymentsParams),
    responses(
        (status = 200, description = "the report's payments and balance", body = ReportPaymentsBody),
        InvalidRequest,
        NotFound,
        ReportNotFinalized,
    ),
)]
pub async fn of_report(
    state: web::Data<ApiState>,
    caller: Caller,
    id: web::Path<String>,
    query: web::Query<PaymentsParams>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page_query().page()?;
    let read = state
        .office
        .report_payments(caller.0.operator_id, address_of(&id)?, page)
        .await?;
    let list = ListBody::from_page(read.payments, PaymentBody::from);
    Ok(HttpResponse::Ok().json(ReportPaymentsBody {
        data: list.data,
        next_cursor: list.next_cursor,
        has_more: list.has_more,
        report_id: read.report.id.to_string(),
        balance: BalanceBody::from(&read.balance),
    }))
}
