//! Payments: every payment platform staff recorded against the operator's finalized
//! reports, newest first, in keyset pages, each with what remained due right after it.
//! Mirrors `GET /api/operator/flight/payments` and calls the same use case (a report's
//! own payments are on its statement's page).

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::flight::office::model::Payment;

use crate::dashboard::error::DashboardError;
use crate::dashboard::flight::statements::PATH as STATEMENTS;
use crate::dashboard::flight::{direction, gate, rupiah};
use crate::dashboard::format::at;
use crate::dashboard::layout::document;
use crate::dashboard::listing::ListQuery;
use crate::dashboard::page::html as respond;
use crate::dashboard::paging::pager;
use crate::dashboard::session::SignedIn;
use crate::state::ApiState;

/// The list's address.
pub const PATH: &str = "/dashboard/flight/payments";

/// The rows of a list of payments, with the report each pays when `with_report`.
pub fn table(payments: &[Payment], with_report: bool) -> Markup {
    html! {
        @if payments.is_empty() { p.empty { "No payment is recorded." } } @else {
            div.scroll { table {
                thead { tr {
                    th { "Payment" }
                    @if with_report { th { "Report" } }
                    th.num { "Amount" } th { "Direction" } th { "Paid on" } th { "Reference" } th.num { "Remaining after it" } th { "Recorded" }
                } }
                tbody { @for payment in payments { tr {
                    td { code { (payment.id) } }
                    @if with_report { td { a href=(format!("{STATEMENTS}/{}", payment.report_id)) { code { (payment.report_id) } } } }
                    td.num { (rupiah(payment.amount.get())) }
                    td { (direction(payment.direction.as_str())) }
                    td { (payment.paid_on) }
                    td { code { (payment.reference) } }
                    td.num { (rupiah(payment.remaining_due.get())) br; span.muted { (direction(payment.remaining_direction.as_str())) } }
                    td { (at(payment.recorded_at)) }
                } } }
            } }
        }
    }
}

/// `GET /dashboard/flight/payments`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightPaymentsList, PATH)? {
        return Ok(refused);
    }
    let cursor = ListQuery::of(query).cursor();
    let found = state
        .office
        .list_payments(member.principal.operator_id, None, cursor.page()?)
        .await?;
    let content = html! {
        (table(&found.items, true))
        (pager(PATH, &found, &[], cursor.cursor.is_some()))
    };
    Ok(respond(
        StatusCode::OK,
        document(&member, PATH, "Flight payments", content),
    ))
}
