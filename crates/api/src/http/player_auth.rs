//! Authentication of the hosted app's player API: `Authorization: Bearer <session token>`,
//! a token only `POST /api/player/sessions` hands out, on the public host or on its
//! operator's launch host. Operator credentials mean nothing here.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use opinion_app::access::AuthFailure;
use opinion_app::error::AppError;
use opinion_app::players::PlayerPrincipal;

use crate::http::auth::bearer_credential;
use crate::http::client::request_host;
use crate::http::error::ApiError;
use crate::state::ApiState;

/// The authenticated player of a player API request, as a handler argument.
#[derive(Debug, Clone)]
pub struct Player(pub PlayerPrincipal);

impl FromRequest for Player {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = request.app_data::<web::Data<ApiState>>().cloned();
        let token =
            bearer_credential(request).and_then(|token| token.ok_or(ApiError::App(AuthFailure::Missing.into())));
        let host = request_host(request).map(str::to_owned);
        Box::pin(async move {
            let state = state.ok_or_else(|| ApiError::App(AppError::Internal("API state is not registered".into())))?;
            let token = token?;
            let player = state.players.authenticate_player(&token, host.as_deref()).await?;
            let span = tracing::Span::current();
            span.record("operator_id", tracing::field::display(player.operator_id));
            span.record("actor", tracing::field::display(player.user.id));
            Ok(Player(player))
        })
    }
}
