//! Tickets: the operator's flight tickets, newest first, with the API's filters (flight,
//! player, status, purchase days) and keyset pages, each opening to the ticket with its
//! flight and, once its settlement report is finalized, its inclusion proof in the signed
//! statement; and the export of the filtered tickets as CSV. Mirrors
//! `GET /api/operator/flight/tickets`, `…/tickets/{id}`, `…/tickets/{id}/proof` and
//! `…/tickets/export` and calls the same use cases (the export through the API's own
//! handler).

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use opinion_access::RouteId;
use opinion_app::error::{AppError, ProblemCode};
use opinion_app::flight::model::TicketRecord;
use opinion_app::flight::reads::TicketQuery;
use opinion_flight::TicketStatus;

use crate::dashboard::error::DashboardError;
use crate::dashboard::flight::flights::flight_link;
use crate::dashboard::flight::{badge, gate, rupiah, share};
use crate::dashboard::format::{at, maybe_at};
use crate::dashboard::layout::document;
use crate::dashboard::listing::{Filter, ListQuery, Listing};
use crate::dashboard::page::html as respond;
use crate::dashboard::session::SignedIn;
use crate::http::auth::Caller;
use crate::http::extract::path_id;
use crate::operator::flight::dto::TicketsExportParams;
use crate::operator::flight::handlers::export_tickets;
use crate::state::ApiState;

/// The list's address.
pub const PATH: &str = "/dashboard/flight/tickets";

fn filters() -> Vec<Filter> {
    vec![
        Filter::Text("flightId", "Flight (flt_…)"),
        Filter::Text("externalUserId", "Player"),
        Filter::Choice(
            "status",
            "Status",
            TicketStatus::ALL.iter().map(|status| status.as_str()).collect(),
        ),
        Filter::Day("from", "Bought from (UTC day)"),
        Filter::Day("to", "Bought before (UTC day)"),
    ]
}

/// A ticket's address on the dashboard.
pub fn ticket_link(id: &str) -> String {
    format!("{PATH}/{id}")
}

/// A multiplier (`2.00×`) or a dash.
fn times(value: Option<opinion_flight::Multiplier>) -> Markup {
    match value {
        Some(value) => html! { (value) "×" },
        None => html! { span.muted { "—" } },
    }
}

/// The rows of a list of tickets.
fn table(tickets: &[TicketRecord]) -> Markup {
    html! {
        @if tickets.is_empty() { p.empty { "No ticket matches." } } @else {
            div.scroll { table {
                thead { tr { th { "Ticket" } th { "Player" } th { "Flight" } th.num { "Stake" } th.num { "Auto cash-out" } th { "Status" } th.num { "Cashed out at" } th.num { "Payout" } th { "Bought" } } }
                tbody { @for ticket in tickets { tr {
                    td { a href=(ticket_link(&ticket.id.to_string())) { code { (ticket.id) } } }
                    td { (ticket.external_user_id) }
                    td { a href=(flight_link(&ticket.flight_id.to_string())) { code { (ticket.flight_id) } } }
                    td.num { (rupiah(ticket.stake.get())) }
                    td.num { (times(ticket.auto_cash_out)) }
                    td { (badge(ticket.status.as_str())) }
                    td.num { (times(ticket.cash_out)) }
                    td.num { @match ticket.payout { Some(payout) => (rupiah(payout.get())), None => span.muted { "—" } } }
                    td { (at(ticket.created_at)) }
                } } }
            } }
        }
    }
}

/// `GET /dashboard/flight/tickets`.
pub async fn page(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightTicketsList, PATH)? {
        return Ok(refused);
    }
    let query = ListQuery::of(query);
    let cursor = query.cursor();
    let asked = TicketQuery {
        flight_id: query.value("flightId"),
        external_user_id: query.value("externalUserId"),
        status: query.value("status"),
        from: query.instant("from"),
        to: query.instant("to"),
    };
    let result = async {
        Ok::<_, DashboardError>(
            state
                .flight_reads
                .list_tickets(member.principal.operator_id, &asked, cursor.page()?)
                .await?,
        )
    };
    let filters = filters();
    let export = {
        let mut link = url::form_urlencoded::Serializer::new(String::new());
        let kept = [
            ("flightId", &asked.flight_id),
            ("externalUserId", &asked.external_user_id),
            ("status", &asked.status),
            ("from", &asked.from),
            ("to", &asked.to),
        ];
        for (name, value) in kept {
            if let Some(value) = value {
                link.append_pair(name, value);
            }
        }
        format!("{PATH}/export?{}", link.finish())
    };
    let listing = Listing::new(PATH, &filters, &query);
    let export = html! { p { a href=(export) download { "Export these tickets (CSV)" } } };
    let (status, content) = listing.section(result.await, table, export)?;
    Ok(respond(status, document(&member, PATH, "Flight tickets", content)))
}

/// `GET /dashboard/flight/tickets/{id}`.
pub async fn ticket(
    state: web::Data<ApiState>,
    member: SignedIn,
    id: web::Path<String>,
) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightTicketGet, PATH)? {
        return Ok(refused);
    }
    let operator = member.principal.operator_id;
    let id = path_id(&id)?;
    let detail = state.flight_reads.ticket(operator, id).await?;
    let proof = if member.may(RouteId::FlightTicketProof) {
        match state.office.ticket_proof(operator, id).await {
            Ok(proof) => Some(Ok(proof)),
            Err(AppError::Conflict {
                code: ProblemCode::ProofNotAvailable,
                detail,
            }) => Some(Err(detail)),
            Err(other) => return Err(other.into()),
        }
    } else {
        None
    };
    let ticket = &detail.ticket;
    let flight = &detail.flight;
    let content = html! {
        section.card {
            dl.facts {
                dt { "Ticket" } dd { code { (ticket.id) } }
                dt { "Status" } dd { (badge(ticket.status.as_str())) }
                dt { "Player" } dd { (ticket.external_user_id) " " code { (ticket.user_id) } }
                dt { "Player's ticket id" } dd { code { (ticket.client_ticket_id) } }
                dt { "Stake" } dd { (rupiah(ticket.stake.get())) }
                dt { "Auto cash-out" } dd { (times(ticket.auto_cash_out)) }
                dt { "Cashed out at" } dd { (times(ticket.cash_out)) @if let Some(when) = ticket.cashed_out_at { " " (at(when)) } }
                dt { "Payout" } dd { @match ticket.payout { Some(payout) => (rupiah(payout.get())), None => span.muted { "—" } } }
                @if let Some(reason) = &ticket.refund_reason { dt { "Refunded because" } dd { (reason.as_str()) } }
                @if let Some(reason) = &ticket.failure_reason { dt { "Wallet refused" } dd { code { (reason) } } }
                dt { "Platform share" } dd { (share(ticket.share_bps.get())) " " span.muted { "frozen at purchase, terms " code { (ticket.terms_id) } } }
                dt { "Maximum payout" } dd { (rupiah(ticket.max_payout.get())) }
                dt { "Purchase debit" } dd { code { (ticket.purchase_operation_id) } }
                dt { "Bought" } dd { (at(ticket.created_at)) }
                dt { "Settled" } dd { (maybe_at(ticket.settled_at)) }
            }
        }
        section.card {
            h2 { "Its flight" }
            dl.facts {
                dt { "Flight" } dd { a href=(flight_link(&flight.id.to_string())) { code { (flight.id) } } " number " (flight.number) }
                dt { "Phase" } dd { (badge(flight.phase.as_str())) }
                dt { "Crash point" } dd { (times(flight.crash)) }
            }
        }
        @if let Some(proof) = proof {
            section.card {
                h2 { "Inclusion proof" }
                @match proof {
                    Ok(proof) => {
                        p.muted { "The ticket's line is leaf " (proof.proof.leaf_index) " of the " (proof.proof.tree_size) " in its signed statement's Merkle tree (proof version 5)." }
                        dl.facts {
                            dt { "Merkle root" } dd { code { (proof.merkle_root.to_hex()) } }
                            dt { "Leaf index" } dd { (proof.proof.leaf_index) }
                            dt { "Tree size" } dd { (proof.proof.tree_size) }
                            dt { "Audit path" } dd {
                                @if proof.proof.audit_path.is_empty() { span.muted { "empty: the leaf is the root" } }
                                @for hash in &proof.proof.audit_path { code { (hash.to_hex()) } br; }
                            }
                        }
                        pre.body { (serde_json::to_string_pretty(&proof.line).unwrap_or_default()) }
                    }
                    Err(why) => p.muted { (why) }
                }
            }
        }
    };
    Ok(respond(
        StatusCode::OK,
        document(&member, PATH, "Flight ticket", content),
    ))
}

/// `GET /dashboard/flight/tickets/export`: the API's export, for the signed-in member.
pub async fn export(
    state: web::Data<ApiState>,
    member: SignedIn,
    query: web::Query<TicketsExportParams>,
) -> Result<HttpResponse, DashboardError> {
    if let Some(refused) = gate(&member, RouteId::FlightTicketsExport, PATH)? {
        return Ok(refused);
    }
    Ok(export_tickets(state, Caller(member.principal), query).await?)
}
