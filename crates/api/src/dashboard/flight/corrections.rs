//! Corrections: the signed corrections platform staff issued of the operator's finalized
//! statements, newest first, with the API's report filter and keyset pages; each says
//! how much it changes what is owed and why, and names the statement it amends. Mirrors
//! `GET /api/operator/flight/statement-corrections` and calls the same use case.

use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::flight::office::model::Correction;

use crate::dashboard::error::DashboardError;
use crate::dashboard::flight::statements::PATH as STATEMENTS;
use crate::dashboard::flight::{gate, rupiah};
use crate::dashboard::format::at;
use crate::dashboard::listing::{Filter, ListQuery, Listing};
use crate::dashboard::session::SignedIn;
use crate::state::ApiState;

/// The list's address.
pub const PATH: &str = "/dashboard/flight/corrections";

/// The rows of a list of corrections, with the report each amends when `with_report`.
pub fn table(corrections: &[Correction], with_report: bool) -> Markup {
    html! {
        @if corrections.is_empty() { p.empty { "No correction is issued." } } @else {
            div.scroll { table {
                thead { tr {
                    th { "Correction" }
                    @if with_report { th { "Report" } }
                    th.num { "Change of what you owe" } th { "Why" } th.num { "In your chain" } th { "Amends statement" } th { "Issued" }
                } }
                tbody { @for correction in corrections { tr {
                    td { code { (correction.id) } }
                    @if with_report { td { a href=(format!("{STATEMENTS}/{}", correction.report_id)) { code { (correction.report_id) } } } }
                    td.num { (rupiah(correction.amount_change)) }
                    td { (correction.reason) }
                    td.num { "number " (correction.document.sequence) }
                    td { code { (correction.statement_hash) } }
                    td { (at(correction.issued_at)) }
                } } }
            } }
        }
    }
}

/// `GET /dashboard/flight/corrections`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightStatementCorrectionsList, PATH)? {
        return Ok(refused);
    }
    let query = ListQuery::of(query);
    let cursor = query.cursor();
    let report = query.value("reportId");
    let result = async {
        Ok::<_, DashboardError>(
            state
                .office
                .list_corrections(member.principal.operator_id, report.as_deref(), cursor.page()?)
                .await?,
        )
    };
    let filters = vec![Filter::Text("reportId", "Report (fsr_…)")];
    let listing = Listing::new(PATH, &filters, &query);
    listing.page(&member, "Flight corrections", result.await, |items| table(items, true))
}
