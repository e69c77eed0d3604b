//! The hosted app's player API (`/api/player/…`): open a session with a launch token (the
//! player's login), log out, list the markets on offer, quote, place orders, and read the
//! player's own positions and trades; the board of markets, one market's page with its
//! price history, and the player's wallet balance. Every call but the first carries the session token; every read is confined to
//! the player's operator and, for positions and trades, to the player. The market, quote,
//! order, position and trade routes take only a session launched into Opinion (a flight
//! session is refused with `wrong_product`); the logout takes either product's.

use actix_web::http::Method;
use actix_web::{HttpRequest, HttpResponse, web};
use opinion_app::error::AppError;
use opinion_app::opinion::trading::OrderRequest;
use opinion_app::players::ActingPlayer;
use opinion_market::Side;

use crate::http::client::request_host;
use crate::http::error::ApiError;
use crate::http::extract::{AfterAuth, Json, path_id};
use crate::http::player_auth::{OpinionPlayer, OpinionSession, Player};
use crate::operator::markets::dto::MarketBody;
use crate::operator::users::dto::PortfolioBody;
use crate::player::board_dto::{BalanceBody, BoardBody, BoardMarketBody, MarketPageBody};
use crate::player::dto::{OpenSessionBody, OrderBody, PlayerTradeBody, QuoteBody, SessionOpenedBody};
use crate::routing::resource::serving;
use crate::shared::list::ListBody;
use crate::shared::page_query::PageQuery;
use crate::state::ApiState;

/// Mounts the player API on `config`.
pub fn mount(config: &mut web::ServiceConfig) {
    config.service(crate::player::flight::mount(
        web::scope("/api/player")
            .service(serving(
                "/sessions",
                vec![(Method::POST, web::route().to(open_session))],
            ))
            .service(serving(
                "/sessions/current",
                vec![(Method::DELETE, web::route().to(log_out))],
            ))
            .service(serving("/markets", vec![(Method::GET, web::route().to(markets))]))
            .service(serving(
                "/markets/{id}",
                vec![(Method::GET, web::route().to(market_page))],
            ))
            .service(serving("/board", vec![(Method::GET, web::route().to(board))]))
            .service(serving("/balance", vec![(Method::GET, web::route().to(balance))]))
            .service(serving(
                "/branding",
                vec![(Method::GET, web::route().to(crate::player::branding::branding))],
            ))
            .service(serving("/quotes", vec![(Method::POST, web::route().to(quote))]))
            .service(serving("/orders", vec![(Method::POST, web::route().to(place_order))]))
            .service(serving("/positions", vec![(Method::GET, web::route().to(positions))]))
            .service(serving("/trades", vec![(Method::GET, web::route().to(trades))])),
    ));
}

/// Exchanges a launch token (once) for a player session; on an operator's launch host
/// only that operator's tokens.
async fn open_session(
    state: web::Data<ApiState>,
    request: HttpRequest,
    body: Json<OpenSessionBody>,
) -> Result<HttpResponse, ApiError> {
    let opened = state
        .players
        .open_player_session(&body.launch_token, request_host(&request))
        .await?;
    Ok(HttpResponse::Created().json(SessionOpenedBody::from(opened)))
}

/// Ends the player's session (a logout): its token stops working at once, and the
/// operator's `mini_app.logout.requested` is written with the ending.
async fn log_out(state: web::Data<ApiState>, player: Player) -> Result<HttpResponse, ApiError> {
    state.players.log_out(&player.0).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The markets the player may trade now (open and not hidden by the operator), with
/// their prices, newest first.
async fn markets(
    state: web::Data<ApiState>,
    player: OpinionPlayer,
    query: AfterAuth<web::Query<PageQuery>>,
) -> Result<HttpResponse, ApiError> {
    let query = query?;
    let page = state
        .reads
        .markets_on_offer(player.0.operator_id, query.page()?)
        .await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(page, MarketBody::from)))
}

/// Every market on offer with its last day's volume and price change, trending first.
async fn board(state: web::Data<ApiState>, player: OpinionPlayer) -> Result<HttpResponse, ApiError> {
    let board = state.reads.market_board(player.0.operator_id).await?;
    Ok(HttpResponse::Ok().json(BoardBody {
        data: board.into_iter().map(BoardMarketBody::from).collect(),
    }))
}

/// One market the player may see, with its price history for the chart.
async fn market_page(
    state: web::Data<ApiState>,
    player: OpinionPlayer,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let page = state.reads.market_page(player.0.operator_id, path_id(&id)?).await?;
    Ok(HttpResponse::Ok().json(MarketPageBody::from(page)))
}

/// The player's wallet balance, read through the operator's wallet adapter.
async fn balance(state: web::Data<ApiState>, player: OpinionPlayer) -> Result<HttpResponse, ApiError> {
    let balance = state.trading.balance(&player.0).await?;
    Ok(HttpResponse::Ok().json(BalanceBody::from(balance)))
}

/// The player's own positions with their valuation.
async fn positions(state: web::Data<ApiState>, player: OpinionPlayer) -> Result<HttpResponse, ApiError> {
    let portfolio = state.reads.portfolio_of(player.0.user).await?;
    Ok(HttpResponse::Ok().json(PortfolioBody::from(portfolio)))
}

/// The player's own trades, newest first.
async fn trades(
    state: web::Data<ApiState>,
    player: OpinionPlayer,
    query: AfterAuth<web::Query<PageQuery>>,
) -> Result<HttpResponse, ApiError> {
    let query = query?;
    let page = state.reads.trades_of_player(&player.0.user, query.page()?).await?;
    Ok(HttpResponse::Ok().json(ListBody::from_page(page, PlayerTradeBody::from)))
}

/// Prices an order without trading.
async fn quote(
    state: web::Data<ApiState>,
    player: OpinionPlayer,
    body: AfterAuth<Json<OrderBody>>,
) -> Result<HttpResponse, ApiError> {
    let body = body?;
    let request = order_request(&body)?;
    let quote = state.trading.quote(&player.0, &request).await?;
    Ok(HttpResponse::Ok().json(QuoteBody::from(quote)))
}

/// Places a buy or a sale; repeating a client order id returns the first trade. The
/// session is made sure of inside the order's opening transaction; a body refused before
/// it is still answered after the session's own refusal, if it has one.
async fn place_order(
    state: web::Data<ApiState>,
    session: OpinionSession,
    body: AfterAuth<Json<OrderBody>>,
) -> Result<HttpResponse, ApiError> {
    let player = state.players.session_player(session.0);
    let (request, client_order_id) = match body.map_err(ApiError::from).and_then(|body| order_of(&body)) {
        Ok(order) => order,
        Err(refused) => {
            player.confirm().await?;
            return Err(refused);
        }
    };
    let trade = match request.side {
        Side::Buy => state.trading.buy(&player, &request, &client_order_id).await?,
        Side::Sell => state.trading.sell(&player, &request, &client_order_id).await?,
    };
    Ok(HttpResponse::Ok().json(PlayerTradeBody::from(trade)))
}

/// The order a body places and its client order id.
fn order_of(body: &OrderBody) -> Result<(OrderRequest, String), ApiError> {
    let request = order_request(body)?;
    let client_order_id = body
        .client_order_id
        .clone()
        .ok_or(AppError::invalid("clientOrderId", "is required for an order"))?;
    Ok((request, client_order_id))
}

/// The order a body describes, each field checked.
fn order_request(body: &OrderBody) -> Result<OrderRequest, ApiError> {
    Ok(OrderRequest {
        market_id: path_id(&body.market_id)?,
        side: body.side,
        outcome: body.outcome,
        kind: body
            .kind
            .parse()
            .map_err(|_| AppError::invalid("kind", "must be `shares` or `amount`"))?,
        value: integer("value", &body.value)?,
        limit: body.limit.as_deref().map(|limit| integer("limit", limit)).transpose()?,
    })
}

/// A positive integer sent as a string.
fn integer(field: &'static str, text: &str) -> Result<i64, ApiError> {
    text.parse::<i64>()
        .ok()
        .filter(|value| *value > 0)
        .ok_or_else(|| AppError::invalid(field, "must be a positive integer, as a string").into())
}
