//! `/api/operator/staff/sessions`: staff log in and out.

use actix_web::cookie::time::Duration as CookieDuration;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::{HttpRequest, HttpResponse, web};
use opinion_access::RouteId;

use crate::http::auth::{Caller, SESSION_COOKIE};
use crate::http::client::request_client;
use crate::http::error::ApiError;
use crate::http::extract::Json;
use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::http::problem_responses::{InvalidRequest, PayloadTooLarge, UnsupportedMediaType};
use crate::operator::staff::sessions::dto::{LoginBody, SessionBody};
use crate::state::ApiState;

/// Logs a member in: the token is in the body and in an HttpOnly, SameSite=Strict cookie.
/// Attempts are throttled per e-mail and per client address, before the password is
/// checked, the same way whether or not the e-mail belongs to a member.
#[utoipa::path(
    post,
    path = RouteId::StaffSessionCreate.spec().path,
    request_body = LoginBody,
    responses(
        (status = 201, description = "the session; its token is also set in the HttpOnly `opinion_session` cookie", body = SessionBody),
        InvalidRequest,
        (status = 401, description = "`login_failed` (no member with this e-mail and password) or `staff_disabled`", body = Problem, content_type = PROBLEM_JSON),
        PayloadTooLarge,
        UnsupportedMediaType,
        (status = 429, description = "`rate_limited`: too many attempts for this e-mail or from this address; the password was not checked", body = Problem, content_type = PROBLEM_JSON, headers(("Retry-After" = u64, description = "Seconds until an attempt is allowed."))),
    ),
)]
pub async fn create(
    state: web::Data<ApiState>,
    request: HttpRequest,
    body: Json<LoginBody>,
) -> Result<HttpResponse, ApiError> {
    let address = request_client(&request, &state.trusted_proxies).address;
    let started = state.access.start_session(&body.email, &body.password, address).await?;
    let lifetime = started.session.expires_at - started.session.created_at;
    let cookie = session_cookie(
        &state,
        started.token.clone(),
        CookieDuration::seconds(lifetime.whole_seconds()),
    );
    Ok(HttpResponse::Created().cookie(cookie).json(SessionBody::from(started)))
}

/// Ends the caller's session and clears the cookie.
#[utoipa::path(
    delete,
    path = RouteId::StaffSessionEnd.spec().path,
    responses(
        (status = 204, description = "the session is over and the cookie cleared"),
    ),
)]
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
