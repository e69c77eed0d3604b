//! Flights: the platform's flights (one sequence for every operator), newest first, with
//! the API's boarding window filter and keyset pages, each opening to the flight with
//! its fairness data and the operator's own tickets' totals on it; and the export of the
//! filtered flights as CSV. Mirrors `GET /api/operator/flight/flights`, `…/flights/{id}`
//! and `…/flights/export` and calls the same use cases (the export through the API's own
//! handler).

use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::flight::reads::{FlightQuery, FlightView};

use crate::dashboard::error::DashboardError;
use crate::dashboard::flight::{badge, gate, rupiah};
use crate::dashboard::format::{at, maybe_at};
use crate::dashboard::layout::document;
use crate::dashboard::listing::{Filter, ListQuery, Listing};
use crate::dashboard::page::html as respond;
use crate::dashboard::session::SignedIn;
use crate::http::auth::Caller;
use crate::http::extract::path_id;
use crate::operator::flight::dto::FlightsExportParams;
use crate::operator::flight::handlers::export_flights;
use crate::state::ApiState;

/// The list's address.
pub const PATH: &str = "/dashboard/flight/flights";

fn filters() -> Vec<Filter> {
    vec![
        Filter::Day("from", "Boarded from (UTC day)"),
        Filter::Day("to", "Boarded before (UTC day)"),
    ]
}

/// A flight's address on the dashboard.
pub fn flight_link(id: &str) -> String {
    format!("{PATH}/{id}")
}

/// A flight's crash point (`3.46×`), or a dash until it crashed.
fn crash(flight: &FlightView) -> Markup {
    match flight.crash {
        Some(point) => html! { (point) "×" },
        None => html! { span.muted { "—" } },
    }
}

/// `GET /dashboard/flight/flights`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightFlightsList, PATH)? {
        return Ok(refused);
    }
    let query = ListQuery::of(query);
    let cursor = query.cursor();
    let asked = FlightQuery {
        from: query.instant("from"),
        to: query.instant("to"),
    };
    let result = async { Ok::<_, DashboardError>(state.flight_reads.list_flights(&asked, cursor.page()?).await?) };
    let filters = filters();
    let export = {
        let mut link = url::form_urlencoded::Serializer::new(String::new());
        for (name, value) in [("from", &asked.from), ("to", &asked.to)] {
            if let Some(value) = value {
                link.append_pair(name, value);
            }
        }
        format!("{PATH}/export?{}", link.finish())
    };
    let listing = Listing::new(PATH, &filters, &query);
    let export = html! { p { a href=(export) download { "Export these flights (CSV)" } } };
    let rows = |items: &[FlightView]| {
        html! {
            @if items.is_empty() { p.empty { "No flight matches." } } @else {
                div.scroll { table {
                    thead { tr { th { "Flight" } th.num { "Number" } th { "Phase" } th.num { "Crash point" } th { "Boarded" } th { "Crashed" } } }
                    tbody { @for flight in items { tr {
                        td { a href=(flight_link(&flight.id.to_string())) { code { (flight.id) } } }
                        td.num { (flight.number) }
                        td { (badge(flight.phase.as_str())) }
                        td.num { (crash(flight)) }
                        td { (at(flight.boarding_at)) }
                        td { (maybe_at(flight.crashed_at)) }
                    } } }
                } }
            }
        }
    };
    let (status, content) = listing.section(result.await, rows, export)?;
    Ok(respond(status, document(&member, PATH, "Flights", content)))
}

/// `GET /dashboard/flight/flights/{id}`.
pub async fn flight(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightFlightGet, PATH)? {
        return Ok(refused);
    }
    let detail = state
        .flight_reads
        .flight(member.principal.operator_id, path_id(&id)?)
        .await?;
    let flight = &detail.flight;
    let totals = &detail.totals;
    let tickets = member.may(RouteId::FlightTicketsList);
    let content = html! {
        section.card {
            dl.facts {
                dt { "Flight" } dd { code { (flight.id) } }
                dt { "Phase" } dd { (badge(flight.phase.as_str())) }
                dt { "Crash point" } dd { (crash(flight)) }
                dt { "Boarding opened" } dd { (at(flight.boarding_at)) }
                dt { "Take-off" } dd { (at(flight.take_off_at)) }
                dt { "Crashed" } dd { (maybe_at(flight.crashed_at)) }
                @if let Some(cancelled) = flight.cancelled_at { dt { "Cancelled" } dd { (at(cancelled)) } }
            }
        }
        section.card {
            h2 { "Fairness" }
            p.muted { "Anyone re-derives the crash point from the revealed seed and the chain's salt (docs/operator/flight.md)." }
            dl.facts {
                dt { "Chain" } dd { code { (flight.chain_id) } }
                dt { "Number in the chain" } dd { (flight.number) " of " (flight.chain_length.get()) }
                dt { "Commitment" } dd { code { (flight.commitment.to_hex()) } }
                dt { "Salt" } dd { code { (flight.salt.as_str()) } }
                dt { "Seed" } dd {
                    @match &flight.seed { Some(seed) => code { (seed.to_hex()) }, None => span.muted { "revealed once it crashed" } }
                }
            }
        }
        section.card {
            h2 { "Your players' tickets on it" }
            dl.facts {
                dt { "Tickets" } dd { (totals.tickets) }
                dt { "Players" } dd { (totals.players) }
                dt { "Not settled" } dd { (totals.unsettled) }
                dt { "Stakes" } dd { (rupiah(totals.stakes.get())) }
                dt { "Payouts" } dd { (rupiah(totals.payouts.get())) }
                dt { "Refunds" } dd { (rupiah(totals.refunds.get())) }
                dt { "GGR" } dd { (rupiah(totals.ggr())) }
            }
            @if tickets && totals.tickets > 0 {
                p { a href=(format!("/dashboard/flight/tickets?flightId={}", flight.id)) { "Its tickets →" } }
            }
        }
    };
    let title = format!("Flight {}", flight.number);
    Ok(respond(
        actix_web::http::StatusCode::OK,
        document(&member, PATH, &title, content),
    ))
}

/// `GET /dashboard/flight/flights/export`: the API's export, for the signed-in member.
pub async fn export(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<FlightsExportParams>,
) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightFlightsExport, PATH)? {
        return Ok(refused);
    }
    Ok(export_flights(state, Caller(member.principal), query).await?)
}
