//! `/api/operator/staff/sessions`: staff log in and out.

use actix_web::cookie::time::Duration as CookieDuration;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::{HttpResponse, web};

use crate::http::auth::{Caller, SESSION_COOKIE};
use crate::http::error::ApiError;
use crate::operator::staff::sessions::dto::{LoginBody, SessionBody};
use crate::state::ApiState;

/// Logs a member in: the token is in the body and in an HttpOnly, SameSite=Strict cookie.
pub async fn create(state: web::Data<ApiState>, body: web::Json<LoginBody>) -> Result<HttpResponse, ApiError> {
    let started = state.access.start_session(&body.email, &body.password).await?;
    let lifetime = started.session.expires_at - started.session.created_at;
    let cookie = session_cookie(
        &state,
        started.token.clone(),
        CookieDuration::seconds(lifetime.whole_seconds()),
    );
    Ok(HttpResponse::Created().cookie(cookie).json(SessionBody::from(started)))
}

/// Ends the caller's session and clears the cookie.
pub async fn end(state: web::Data<ApiState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    state.access.end_session(&caller.0).await?;
    let cookie = session_cookie(&state, String::new(), CookieDuration::ZERO);
    Ok(HttpResponse::NoContent().cookie(cookie).finish())
}

fn session_cookie(state: &ApiState, value: String, max_age: CookieDuration) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, value)
        .path("/api/operator")
        .http_only(true)
        .secure(state.secure_cookies)
        .same_site(SameSite::Strict)
        .max_age(max_age)
        .finish()
}
