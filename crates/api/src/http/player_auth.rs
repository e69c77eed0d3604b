//! Authentication of the hosted app's player API: `Authorization: Bearer <session token>`,
//! a token only `POST /api/player/sessions` hands out, on the public host or on its
//! operator's launch host. Operator credentials mean nothing here.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header::HeaderValue;
use actix_web::{FromRequest, HttpRequest, web};
use opinion_app::access::AuthFailure;
use opinion_app::error::AppError;
use opinion_app::players::{PlayerPrincipal, SessionCredential};
use opinion_wallet::Product;

use crate::http::auth::{bearer_credential, bearer_in};
use crate::http::client::request_host;
use crate::http::error::ApiError;
use crate::state::ApiState;

/// The authenticated player of a player API request of either product (the logout), as
/// a handler argument.
#[derive(Debug, Clone)]
pub struct Player(pub PlayerPrincipal);

/// The authenticated player of an Opinion route: a session launched into Opinion (one
/// launched into flight is refused with `wrong_product`).
#[derive(Debug, Clone)]
pub struct OpinionPlayer(pub PlayerPrincipal);

/// The session credential of an Opinion route whose use case makes sure of the session
/// inside its own first transaction (an order): the token's signature is checked here,
/// the session's life, host and product by the use case (`SessionPlayer`).
#[derive(Debug, Clone)]
pub struct OpinionSession(pub SessionCredential);

/// The authenticated player of a flight route: a session launched into flight (one
/// launched into Opinion is refused with `wrong_product`).
#[derive(Debug, Clone)]
pub struct FlightPlayer(pub PlayerPrincipal);

/// The session credential of a flight route whose use case makes sure of the session
/// inside its own first transaction (a ticket purchase), as [`OpinionSession`] is for
/// Opinion's orders.
#[derive(Debug, Clone)]
pub struct FlightSession(pub SessionCredential);

impl FromRequest for Player {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let authenticated = authenticate(request, None);
        Box::pin(async move { authenticated.await.map(Player) })
    }
}

impl FromRequest for OpinionPlayer {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let authenticated = authenticate(request, Some(Product::Opinion));
        Box::pin(async move { authenticated.await.map(OpinionPlayer) })
    }
}

impl FromRequest for OpinionSession {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(session_credential(request, Product::Opinion).map(OpinionSession))
    }
}

impl FromRequest for FlightSession {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(session_credential(request, Product::Flight).map(FlightSession))
    }
}

impl FromRequest for FlightPlayer {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let authenticated = authenticate(request, Some(Product::Flight));
        Box::pin(async move { authenticated.await.map(FlightPlayer) })
    }
}

/// The credential of `request`'s session token for a route of `product`, its signature
/// checked; its operator goes on the request's span.
fn session_credential(request: &HttpRequest, product: Product) -> Result<SessionCredential, ApiError> {
    let state = request
        .app_data::<web::Data<ApiState>>()
        .ok_or_else(|| ApiError::App(AppError::Internal("API state is not registered".into())))?;
    let token = bearer_credential(request)?.ok_or(ApiError::App(AuthFailure::Missing.into()))?;
    let credential = state
        .players
        .session_credential(&token, request_host(request), Some(product))?;
    tracing::Span::current().record("operator_id", tracing::field::display(credential.operator_id()));
    Ok(credential)
}

/// The player of `request`'s session token, of `product` when one is named.
fn authenticate(
    request: &HttpRequest,
    product: Option<Product>,
) -> impl Future<Output = Result<PlayerPrincipal, ApiError>> + use<> {
    let state = request.app_data::<web::Data<ApiState>>().cloned();
    let token = bearer_credential(request).and_then(|token| token.ok_or(ApiError::App(AuthFailure::Missing.into())));
    let host = request_host(request).map(str::to_owned);
    async move {
        let state = state.ok_or_else(|| ApiError::App(AppError::Internal("API state is not registered".into())))?;
        player_of(&state, &token?, host.as_deref(), product).await
    }
}

/// The flight player whose session token a request to `host` sent as `authorization`:
/// how the live feed's own listener authenticates its pages, as [`FlightPlayer`] does.
pub(crate) async fn flight_player(
    state: &ApiState,
    authorization: Option<&HeaderValue>,
    host: Option<&str>,
) -> Result<PlayerPrincipal, ApiError> {
    let token = bearer_in(authorization)?.ok_or(ApiError::App(AuthFailure::Missing.into()))?;
    player_of(state, &token, host, Some(Product::Flight)).await
}

/// The player of session `token` on `host`, of `product` when one is named; they go on
/// the request's span.
async fn player_of(
    state: &ApiState,
    token: &str,
    host: Option<&str>,
    product: Option<Product>,
) -> Result<PlayerPrincipal, ApiError> {
    let player = match product {
        Some(product) => state.players.authenticate_player_for(token, host, product).await?,
        None => state.players.authenticate_player(token, host).await?,
    };
    let span = tracing::Span::current();
    span.record("operator_id", tracing::field::display(player.operator_id));
    span.record("actor", tracing::field::display(player.user.id));
    Ok(player)
}
