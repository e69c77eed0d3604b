//! Statements: the operator's settlement reports, newest period first (finalized ones
//! with their signed statements, and an open one for a period still running or not yet
//! finalized), each opening to its figures, what keeps an open one from being finalized,
//! and for a finalized one its balance, its payments and corrections, the links to its
//! export, and a verification badge: the statement checked as its operator would check
//! its export (signature under the published keys, proof version, the ticket lines'
//! hash, the Merkle root and totals recomputed from them, the link to the previous
//! document), by the back office's own verification. Mirrors
//! `GET /api/operator/flight/settlement-reports`, `…/{id}`, `…/{id}/payments` and
//! `…/{id}/export` and calls the same use cases (the export through the API's handler).

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::flight::office::{PERIOD, ReportAddress, SettlementReport};
use opinion_core::{PageRequest, StatementCorrectionKind};
use opinion_proof::StatementVerification;

use crate::dashboard::error::DashboardError;
use crate::dashboard::flight::corrections::table as corrections_table;
use crate::dashboard::flight::payments::table as payments_table;
use crate::dashboard::flight::{badge, direction, gate, rupiah};
use crate::dashboard::format::{at, maybe_at};
use crate::dashboard::layout::document;
use crate::dashboard::listing::ListQuery;
use crate::dashboard::page::html as respond;
use crate::dashboard::paging::{ROWS, pager};
use crate::dashboard::session::SignedIn;
use crate::http::auth::Caller;
use crate::operator::flight::settlement::dto::ExportParams;
use crate::operator::flight::settlement::export::export as export_report;
use crate::operator::flight::settlement::reports::address_of;
use crate::state::ApiState;

/// The list's address.
pub const PATH: &str = "/dashboard/flight/statements";

/// A report's address on the dashboard: its id once finalized, else its period.
pub fn report_link(report: &SettlementReport) -> String {
    match &report.finalized {
        Some(finalized) => format!("{PATH}/{}", finalized.id),
        None => format!("{PATH}/{}", PERIOD.label(report.period_start)),
    }
}

/// `GET /dashboard/flight/statements`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightSettlementReportsList, PATH)? {
        return Ok(refused);
    }
    let cursor = ListQuery::of(query).cursor();
    let found = state
        .office
        .list_reports(member.principal.operator_id, cursor.page()?)
        .await?;
    let content = html! {
        @if found.items.is_empty() { p.empty { "No settlement report yet: a report starts with the first ticket of a period." } } @else {
            div.scroll { table {
                thead { tr { th { "Period" } th { "Status" } th.num { "Tickets" } th.num { "Stakes" } th.num { "GGR" } th.num { "Platform share" } th { "Due" } th.num { "Remaining" } } }
                tbody { @for report in &found.items {
                    @let (due, towards) = report.totals.amount_due();
                    tr {
                        td { a href=(report_link(report)) { (PERIOD.label(report.period_start)) } }
                        td { (badge(if report.finalized.is_some() { "finalized" } else { "open" })) }
                        td.num { (report.totals.ticket_count) }
                        td.num { (rupiah(report.totals.stakes)) }
                        td.num { (rupiah(report.totals.ggr)) }
                        td.num { (rupiah(due.get())) br; span.muted { (direction(towards.as_str())) } }
                        td { @match report.due_date { Some(date) => (date), None => span.muted { "—" } } }
                        td.num {
                            @match &report.balance {
                                Some(balance) => {
                                    @let (remaining, towards) = balance.remaining_due();
                                    (rupiah(remaining.get())) br; span.muted { (direction(towards.as_str())) }
                                }
                                None => span.muted { "open" },
                            }
                        }
                    }
                } }
            } }
        }
        (pager(PATH, &found, &[], cursor.cursor.is_some()))
    };
    Ok(respond(
        StatusCode::OK,
        document(&member, PATH, "Flight statements", content),
    ))
}

/// The verification badge and every check.
fn verification(verification: &StatementVerification) -> Markup {
    html! {
        section.card #verification {
            h2 { "Verification " @if verification.verified() { span.badge.good { "verified" } } @else { span.badge.bad { "not verified" } } }
            @if verification.verified() {
                p { "Every check a verifier makes of the statement and its export passed." }
            } @else {
                p { "This statement does not verify as stored. Do not rely on it; tell the platform." }
                ul { @for check in verification.failures() {
                    li { strong { (check.name) } ": " (check.outcome.as_ref().err().map(String::as_str).unwrap_or_default()) }
                } }
            }
            details {
                summary { "Every check" }
                ul { @for check in &verification.checks {
                    li {
                        strong { (check.name) } " "
                        @match &check.outcome {
                            Ok(found) => { span.badge.good { "passed" } " " (found) }
                            Err(why) => { span.badge.bad { "failed" } " " (why) }
                        }
                    }
                } }
            }
        }
    }
}

/// `GET /dashboard/flight/statements/{id}`: `{id}` is a finalized report's `fsr_…` or any
/// report's period (`2026-10`).
pub async fn report(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightSettlementReportGet, PATH)? {
        return Ok(refused);
    }
    let operator = member.principal.operator_id;
    let report = state.office.report(operator, address_of(&id)?).await?;
    let period = PERIOD.label(report.period_start);
    let totals = &report.totals;
    let (due, towards) = totals.amount_due();
    let finalized = match &report.finalized {
        Some(finalized) => {
            let checked = state.office.verify_statement(operator, finalized.id).await?;
            let cursor = ListQuery::of(query).cursor();
            let payments = if member.may(RouteId::FlightSettlementReportPayments) {
                let read = state
                    .office
                    .report_payments(operator, ReportAddress::Id(finalized.id), cursor.page()?)
                    .await?;
                Some((read.payments, cursor.cursor.is_some()))
            } else {
                None
            };
            let corrections = if member.may(RouteId::FlightStatementCorrectionsList) {
                let first: PageRequest<StatementCorrectionKind> = PageRequest {
                    limit: opinion_core::PageLimit::new(ROWS).unwrap_or_default(),
                    after: None,
                };
                let report = finalized.id.to_string();
                Some(state.office.list_corrections(operator, Some(&report), first).await?)
            } else {
                None
            };
            Some((finalized, checked, payments, corrections))
        }
        None => None,
    };
    let path = format!("{PATH}/{id}");
    let content = html! {
        @if let Some((_, checked, _, _)) = &finalized { (verification(checked)) }
        section.card {
            dl.facts {
                dt { "Period" } dd { (period) " " span.muted { "(" (at(report.period_start)) " to " (at(report.period_end)) ")" } }
                dt { "Status" } dd { (badge(if finalized.is_some() { "finalized" } else { "open" })) }
                dt { "Tickets" } dd { (totals.ticket_count) }
                dt { "Stakes" } dd { (rupiah(totals.stakes)) }
                dt { "Payouts" } dd { (rupiah(totals.payouts)) }
                dt { "Refunds" } dd { (rupiah(totals.refunds)) }
                dt { "GGR" } dd { (rupiah(totals.ggr)) }
                dt { "Platform share" } dd { (rupiah(totals.share)) }
                dt { "Amount due" } dd { (rupiah(due.get())) " " span.muted { "(" (direction(towards.as_str())) ")" } }
                dt { "Due date" } dd { @match report.due_date { Some(date) => (date), None => span.muted { "no terms cover the period" } } }
                @if let Some((finalized, _, _, _)) = &finalized {
                    dt { "Report" } dd { code { (finalized.id) } }
                    dt { "Finalized" } dd { (maybe_at(Some(finalized.finalized_at))) }
                    dt { "Statement" } dd { "number " (finalized.statement.sequence) " of your chain, hash " code { (finalized.statement.hash) } }
                    dt { "Signed by key" } dd { code { (finalized.statement.signed.signature.key_id) } }
                }
            }
            @if !report.blockers.is_empty() {
                h3 { "Not finalized yet because" }
                ul { @for blocker in &report.blockers {
                    li { code { (blocker.code()) } }
                } }
            }
        }
        @if let Some(balance) = &report.balance {
            @let (corrected, corrected_towards) = balance.corrected_due();
            @let (remaining, remaining_towards) = balance.remaining_due();
            section.card {
                h2 { "Balance" }
                dl.facts {
                    dt { "Corrections" } dd { (rupiah(balance.corrections)) }
                    dt { "Due after corrections" } dd { (rupiah(corrected.get())) " " span.muted { "(" (direction(corrected_towards.as_str())) ")" } }
                    dt { "Paid to the platform" } dd { (rupiah(balance.paid_to_platform)) }
                    dt { "Paid to you" } dd { (rupiah(balance.paid_to_operator)) }
                    dt { "Remaining" } dd { strong { (rupiah(remaining.get())) } " " span.muted { "(" (direction(remaining_towards.as_str())) ")" } }
                }
            }
        }
        @if let Some((finalized, _, payments, corrections)) = &finalized {
            section.card {
                h2 { "Export" }
                p.muted { "The signed statement with its ticket lines and the player key that maps the proof's player tags back to your players; verify it with " code { "opinion admin statement verify" } " or the script in docs/operator/flight.md." }
                p {
                    a href=(format!("{PATH}/{}/export", finalized.id)) download { "Statement with lines (JSON)" } " · "
                    a href=(format!("{PATH}/{}/export?part=statement", finalized.id)) download { "Signed statement alone (JSON)" } " · "
                    a href=(format!("{PATH}/{}/export?part=lines", finalized.id)) download { "Ticket lines (CSV)" }
                }
            }
            @if let Some((payments, paged)) = payments {
                section {
                    h2 { "Payments" }
                    (payments_table(&payments.items, false))
                    (pager(&path, payments, &[], *paged))
                }
            }
            @if let Some(corrections) = corrections {
                section {
                    h2 { "Corrections" }
                    (corrections_table(&corrections.items, false))
                    @if corrections.next.is_some() {
                        p { a href=(format!("/dashboard/flight/corrections?reportId={}", finalized.id)) { "Every correction of this report →" } }
                    }
                }
            }
        }
    };
    let title = format!("Flight statement {period}");
    Ok(respond(StatusCode::OK, document(&member, PATH, &title, content)))
}

/// `GET /dashboard/flight/statements/{id}/export`: the API's export, for the signed-in member.
pub async fn export(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
    query: web::Query<ExportParams>,
) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightSettlementReportExport, PATH)? {
        return Ok(refused);
    }
    Ok(export_report(state, Caller(member.principal), id, query).await?)
}
