//! The flight overview: what the operator's flight dashboard shows first, as the API's
//! overview answers it: whether flight is enabled and (in production) authorized, the
//! terms in force, the money of the tickets bought in a window (the running calendar
//! month unless asked) with a chart of it, the live flight, and, for a member who may
//! read settlement reports, the running period's share so far and what remains due on
//! finalized reports. Mirrors `GET /api/operator/flight/overview` and calls the same use
//! cases.

use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::flight::office::{PERIOD, SettlementStanding};
use opinion_app::flight::reads::{Overview, OverviewQuery};
use opinion_wallet::Currency;

use crate::dashboard::chart::money_bars;
use crate::dashboard::error::DashboardError;
use crate::dashboard::flight::statements::PATH as STATEMENTS;
use crate::dashboard::flight::{badge, direction, gate, rupiah, share};
use crate::dashboard::format::{at, maybe_at};
use crate::dashboard::layout::document;
use crate::dashboard::listing::{Filter, ListQuery, filter_form, listed};
use crate::dashboard::page::html as respond;
use crate::dashboard::session::SignedIn;
use crate::state::ApiState;

/// The page's address.
pub const PATH: &str = "/dashboard/flight";

fn status_panels(overview: &Overview) -> Markup {
    let enabled = overview.enablement.as_ref().is_some_and(|e| e.enabled);
    let authorization = &overview.production_authorization;
    html! {
        div.panels {
            section.panel {
                h2 { "Flight" }
                p { @if enabled { span.badge.good { "enabled" } } @else { span.badge.bad { "disabled" } } }
                p.muted { "Changed " (maybe_at(overview.enablement.as_ref().map(|e| e.changed_at))) }
            }
            section.panel {
                h2 { "Production authorization" }
                @if !authorization.required {
                    p { span.badge.good { "not needed here" } }
                    p.muted { "Only production needs one." }
                } @else if authorization.authorized {
                    p { span.badge.good { "authorized" } }
                } @else {
                    p { span.badge.bad { "missing" } }
                    p.muted { "Every ticket purchase is refused until platform staff record one." }
                }
                @if let Some(latest) = &authorization.latest {
                    p.muted { "Reference " code { (latest.reference.as_str()) } ", " (at(latest.recorded_at)) }
                }
            }
            section.panel {
                h2 { "Terms in force" }
                @match &overview.terms {
                    Some(terms) => {
                        @let limits = terms.version.terms.limits();
                        p.figure { (share(terms.version.terms.share_bps().get())) }
                        p.muted { "Stakes " (rupiah(limits.min_stake().get())) " to " (rupiah(limits.max_stake().get())) }
                    }
                    None => p { span.badge.warn { "none" } },
                }
            }
            section.panel {
                h2 { "Live flight" }
                @match &overview.live {
                    Some(flight) => {
                        p.figure { "Number " (flight.number) }
                        p { (badge(flight.phase.as_str())) @if let Some(crash) = flight.crash { " at " (crash) "×" } }
                        p { a href=(format!("/dashboard/flight/flights/{}", flight.id)) { "The flight →" } }
                    }
                    None => p.muted { "No flight has boarded yet." },
                }
            }
        }
    }
}

fn window_figures(overview: &Overview) -> Markup {
    let totals = &overview.totals;
    let window = match (overview.window.from, overview.window.to) {
        (Some(from), Some(to)) => html! { (at(from)) " to " (at(to)) },
        (Some(from), None) => html! { "since " (at(from)) },
        (None, Some(to)) => html! { "before " (at(to)) },
        (None, None) => html! { "all time" },
    };
    html! {
        section.card {
            h2 { "Your players' tickets" }
            p.muted { "Bought " (window) }
            div.panels {
                section.panel { h2 { "Tickets" } p.figure { (totals.tickets) } p.muted { (totals.unsettled) " not settled" } }
                section.panel { h2 { "Players" } p.figure { (totals.players) } }
                section.panel { h2 { "Stakes" } p.figure { (rupiah(totals.stakes.get())) } }
                section.panel { h2 { "GGR" } p.figure { (rupiah(totals.ggr())) } p.muted { "stakes − payouts − refunds" } }
            }
            (money_bars(
                &[
                    ("Stakes", totals.stakes.get()),
                    ("Payouts", totals.payouts.get()),
                    ("Refunds", totals.refunds.get()),
                    ("GGR", totals.ggr()),
                ],
                Currency::IDR,
                "Stakes, payouts, refunds and GGR of the window",
            ))
        }
    }
}

fn settlement(standing: &SettlementStanding) -> Markup {
    let running = &standing.current.totals;
    html! {
        section.card {
            h2 { "Settlement" }
            dl.facts {
                dt { "Running period" } dd { a href=(format!("{STATEMENTS}/{}", PERIOD.label(standing.current.period_start))) { (PERIOD.label(standing.current.period_start)) } }
                dt { "Settled tickets so far" } dd { (running.ticket_count) }
                dt { "GGR so far" } dd { (rupiah(running.ggr)) }
                dt { "Platform share so far" } dd { (rupiah(running.share)) }
            }
            h3 { "Remaining due on finalized statements" }
            @if standing.outstanding.is_empty() { p.empty { "Nothing: every finalized statement is settled." } } @else {
                div.scroll { table {
                    thead { tr { th { "Period" } th { "Due date" } th.num { "Remaining" } th { "Direction" } } }
                    tbody { @for report in &standing.outstanding { tr {
                        td { a href=(format!("{STATEMENTS}/{}", report.report_id)) { (PERIOD.label(report.period_start)) } }
                        td { (report.due_date) }
                        td.num { (rupiah(report.remaining_due.get())) }
                        td { (direction(report.direction.as_str())) }
                    } } }
                } }
            }
        }
    }
}

/// `GET /dashboard/flight`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightOverview, PATH)? {
        return Ok(refused);
    }
    let operator = member.principal.operator_id;
    let query = ListQuery::of(query);
    let asked = OverviewQuery {
        from: query.instant("from"),
        to: query.instant("to"),
    };
    let result = state
        .flight_reads
        .overview(operator, &asked)
        .await
        .map_err(DashboardError::from);
    let (status, view, found) = listed(result, &query)?;
    let standing = match (&found, member.may(RouteId::FlightSettlementReportsList)) {
        (Some(_), true) => Some(state.office.settlement_standing(operator).await?),
        _ => None,
    };
    let filters = vec![
        Filter::Day("from", "Bought from (UTC day)"),
        Filter::Day("to", "Bought before (UTC day)"),
    ];
    let content = html! {
        @if let Some(overview) = &found { (status_panels(overview)) }
        (filter_form(PATH, &filters, &query, &view))
        @if let Some(overview) = &found {
            (window_figures(overview))
            @if let Some(standing) = &standing { (settlement(standing)) }
            p.muted { "Read " (at(overview.generated_at)) }
        }
    };
    Ok(respond(status, document(&member, PATH, "Flight overview", content)))
}
