//! `GET /api/player/flight/flights`: the fairness data of the flights that have crashed,
//! newest first, for the player's page to show and for the player to verify: each
//! flight's number, seed, crash point, chain, commitment and salt. A flight that has not
//! crashed is not listed, and `FlightView` withholds its secrets wherever it is read.

use actix_web::{HttpResponse, web};

use crate::http::error::ApiError;
use crate::http::extract::AfterAuth;
use crate::http::player_auth::FlightPlayer;
use crate::operator::flight::dto::FlightBody;
use crate::shared::list::ListBody;
use crate::shared::page_query::PageQuery;
use crate::state::ApiState;

/// One page of crashed flights, newest first (flights are platform-wide: every player
/// sees the same ones).
pub async fn crashed_flights(
    state: web::Data<ApiState>,
    _player: FlightPlayer,
    query: AfterAuth<web::Query<PageQuery>>,
) -> Result<HttpResponse, ApiError> {
    let query = query?;
    let page = state.flight_reads.crashed_flights(query.page()?).await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(page, FlightBody::from)))
}
