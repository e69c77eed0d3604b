//! The flight game's player API (`/api/player/flight…`): the live flight (a snapshot, and
//! a server-sent event stream), buying a ticket, cashing it out and the player's own
//! tickets. The server's clock decides every cash-out.

use std::convert::Infallible;

use actix_web::http::Method;
use actix_web::{HttpResponse, web};
use futures_util::StreamExt;
use opinion_app::error::AppError;
use opinion_app::flight::TicketOrder;
use opinion_app::players::ActingPlayer;
use opinion_flight::{Multiplier, Rupiah};

use crate::http::error::ApiError;
use crate::http::extract::{AfterAuth, Json, path_id};
use crate::http::player_auth::{FlightPlayer, FlightSession};
use crate::player::flight_dto::{LiveFlightBody, PlayerTicketBody, TicketOrderBody};
use crate::player::flight_feed::STREAM_HEADERS;
use crate::routing::resource::serving;
use crate::shared::list::ListBody;
use crate::shared::page_query::PageQuery;
use crate::state::ApiState;

/// Mounts the flight routes inside the player scope.
pub fn mount(scope: actix_web::Scope) -> actix_web::Scope {
    scope
        .service(serving("/flight", vec![(Method::GET, web::route().to(live_flight))]))
        .service(serving(
            "/flight/live",
            vec![(Method::GET, web::route().to(live_events))],
        ))
        .service(serving(
            "/flight/tickets",
            vec![
                (Method::POST, web::route().to(buy_ticket)),
                (Method::GET, web::route().to(tickets)),
            ],
        ))
        .service(serving(
            "/flight/tickets/{id}/cash-out",
            vec![(Method::POST, web::route().to(cash_out))],
        ))
        .service(serving(
            "/flight/tickets/{id}/proof",
            vec![(
                Method::GET,
                web::route().to(crate::operator::flight::proof::player_ticket_proof),
            )],
        ))
        .service(serving(
            "/flight/flights",
            vec![(
                Method::GET,
                web::route().to(crate::player::flight_fairness::crashed_flights),
            )],
        ))
}

/// The flight being played now (or the last one, between flights); `null` before the
/// first flight.
async fn live_flight(state: web::Data<ApiState>, _player: FlightPlayer) -> Result<HttpResponse, ApiError> {
    let live = state.flight.live_flight().await?;
    Ok(HttpResponse::Ok().json(live.map(LiveFlightBody::from)))
}

/// The live flight as server-sent events: `event: flight` with the snapshot at once and
/// at every change of phase, `event: cashouts` with the flight's counts and every
/// player's cash-outs, anonymised (the reader's own marked `mine`).
async fn live_events(state: web::Data<ApiState>, player: FlightPlayer) -> HttpResponse {
    let mut response = HttpResponse::Ok();
    for header in STREAM_HEADERS {
        response.insert_header(header);
    }
    let events = state.flight_feed.events((player.0.operator_id, player.0.user.id));
    response.streaming(events.map(Ok::<_, Infallible>))
}

/// Buys a ticket on the boarding flight; repeating a `clientTicketId` returns the first
/// ticket. The session is made sure of inside the purchase's opening transaction; a body
/// refused before it is still answered after the session's own refusal, if it has one.
async fn buy_ticket(
    state: web::Data<ApiState>,
    session: FlightSession,
    body: AfterAuth<Json<TicketOrderBody>>,
) -> Result<HttpResponse, ApiError> {
    let player = state.players.session_player(session.0);
    let order = match body.map_err(ApiError::from).and_then(|body| ticket_order(&body)) {
        Ok(order) => order,
        Err(refused) => {
            player.confirm().await?;
            return Err(refused);
        }
    };
    let ticket = state.flight.buy_ticket(&player, &order).await?;
    Ok(HttpResponse::Ok().json(PlayerTicketBody::from(ticket)))
}

/// Cashes the player's ticket out at the multiplier of the server's now.
async fn cash_out(
    state: web::Data<ApiState>,
    player: FlightPlayer,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let ticket = state.flight.cash_out(&player.0, path_id(&id)?).await?;
    Ok(HttpResponse::Ok().json(PlayerTicketBody::from(ticket)))
}

/// The player's own tickets, newest first.
async fn tickets(
    state: web::Data<ApiState>,
    player: FlightPlayer,
    query: AfterAuth<web::Query<PageQuery>>,
) -> Result<HttpResponse, ApiError> {
    let query = query?;
    let page = state
        .flight
        .player_tickets(player.0.operator_id, player.0.user.id, query.page()?)
        .await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(page, PlayerTicketBody::from)))
}

/// The order a body describes, each field checked.
fn ticket_order(body: &TicketOrderBody) -> Result<TicketOrder, ApiError> {
    let stake: Rupiah = body
        .stake
        .parse()
        .map_err(|_| AppError::invalid("stake", "must be whole rupiah as an integer string, e.g. \"10000\""))?;
    let auto_cash_out = body
        .auto_cash_out
        .as_deref()
        .map(str::parse::<Multiplier>)
        .transpose()
        .map_err(|_| AppError::invalid("autoCashOut", "must be a multiplier with two decimals, e.g. \"2.00\""))?;
    Ok(TicketOrder {
        stake,
        auto_cash_out,
        client_ticket_id: body.client_ticket_id.clone(),
    })
}
