//! Terms: the operator's flight terms as platform staff set them: the version in force,
//! the versions scheduled to take effect later and the history (superseded and cancelled
//! versions). Mirrors `GET /api/operator/flight/terms/current`, `…/scheduled` and
//! `…/history` (one requirement) and calls the same use case.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::flight::model::TermsRecord;

use crate::dashboard::error::DashboardError;
use crate::dashboard::flight::{gate, rupiah, share};
use crate::dashboard::format::at;
use crate::dashboard::layout::document;
use crate::dashboard::page::html as respond;
use crate::dashboard::session::SignedIn;
use crate::state::ApiState;

/// The page's address.
pub const PATH: &str = "/dashboard/flight/terms";

/// One version's figures as facts.
pub fn facts(record: &TermsRecord) -> Markup {
    let version = &record.version;
    let limits = version.terms.limits();
    html! {
        dl.facts {
            dt { "Version" } dd { code { (version.id) } }
            dt { "In force from" } dd { (at(version.effective_from)) }
            dt { "Share of GGR" } dd { (share(version.terms.share_bps().get())) }
            dt { "Stake" } dd { (rupiah(limits.min_stake().get())) " to " (rupiah(limits.max_stake().get())) }
            dt { "Maximum payout" } dd { (rupiah(limits.max_payout().get())) }
            dt { "Tickets per flight" } dd { (limits.tickets_per_flight()) }
            dt { "Settlement period" } dd { (version.terms.period().as_str()) }
            dt { "Payment due" } dd { (version.terms.payment_due_days()) " days after the period ends" }
        }
    }
}

/// A list of versions as a table.
fn versions(records: &[TermsRecord], empty: &str) -> Markup {
    html! {
        @if records.is_empty() { p.empty { (empty) } } @else {
            div.scroll { table {
                thead { tr { th { "Version" } th { "In force from" } th.num { "Share" } th.num { "Stake" } th.num { "Maximum payout" } th { "Created" } th { "Cancelled" } } }
                tbody { @for record in records {
                    @let limits = record.version.terms.limits();
                    tr {
                        td { code { (record.version.id) } }
                        td { (at(record.version.effective_from)) }
                        td.num { (share(record.version.terms.share_bps().get())) }
                        td.num { (rupiah(limits.min_stake().get())) " – " (rupiah(limits.max_stake().get())) }
                        td.num { (rupiah(limits.max_payout().get())) }
                        td { (at(record.created_at)) }
                        td { @match &record.cancelled { Some(cancelled) => (at(cancelled.at)), None => span.muted { "—" } } }
                    }
                } }
            } }
        }
    }
}

/// `GET /dashboard/flight/terms`.
pub async fn page(state: web::Data<ApiState>, member: SignedIn) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightTermsCurrent, PATH)? {
        return Ok(refused);
    }
    let book = state.flight.terms_book(member.principal.operator_id).await?;
    let content = html! {
        section.card {
            h2 { "In force" }
            @match &book.current {
                Some(current) => (facts(current)),
                None => p.empty { "No terms are in force." },
            }
        }
        section {
            h2 { "Scheduled" }
            (versions(&book.scheduled, "No version is scheduled."))
        }
        section {
            h2 { "History" }
            (versions(&book.history, "No earlier or cancelled version."))
        }
    };
    Ok(respond(
        StatusCode::OK,
        document(&member, PATH, "Flight terms", content),
    ))
}
