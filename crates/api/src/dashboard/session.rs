//! The dashboard's session guard: the staff session cookie, authenticated by the same use
//! case as the API's guard on every request (nothing cached, so logout, a password reset
//! or disabling a member ends the dashboard at once), and the checks a page makes with it:
//! the route table's requirement of the API route it mirrors, and the form token of every
//! post.

use std::future::Future;
use std::pin::Pin;

use actix_web::cookie::time::Duration as CookieDuration;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use opinion_access::{CredentialKind, RouteId};
use opinion_app::access::Principal;
use opinion_app::error::AppError;

use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FORM_TOKEN_FIELD, FormData};
use crate::http::auth::SESSION_COOKIE;
use crate::http::client::request_client;
use crate::state::ApiState;

/// The path the dashboard's copy of the session cookie is sent to.
pub const COOKIE_PATH: &str = "/dashboard";

/// A signed-in member on a dashboard page.
pub struct SignedIn {
    /// Who, for which operator, with which scopes: what every use case is called with.
    pub principal: Principal,
    /// The token every form of this session carries.
    pub form_token: String,
    /// Whether this environment has a simulator (development and staging).
    pub simulator: bool,
    /// Whether the operator has the flight product: platform staff enabled it once (it
    /// may be disabled since; its tickets and statements stay readable).
    pub flight: bool,
}

impl SignedIn {
    /// Whether the member passes the requirement of the API route `route`.
    pub fn may(&self, route: RouteId) -> bool {
        route
            .spec()
            .requirement
            .check(self.principal.kind(), &self.principal.grant)
            .is_ok()
    }

    /// Refuses with the 403 page unless the member passes `route`'s requirement.
    pub fn require(&self, route: RouteId) -> Result<(), DashboardError> {
        route
            .spec()
            .requirement
            .check(self.principal.kind(), &self.principal.grant)
            .map_err(DashboardError::Denied)
    }

    /// Refuses a post whose form token is not this session's.
    pub fn check_form(&self, state: &ApiState, form: &FormData) -> Result<(), DashboardError> {
        let presented = form.text(FORM_TOKEN_FIELD);
        if state.access.form_token_matches(&self.principal, &presented) {
            Ok(())
        } else {
            Err(DashboardError::FormExpired)
        }
    }
}

impl FromRequest for SignedIn {
    type Error = DashboardError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let request = request.clone();
        Box::pin(async move {
            let state = request
                .app_data::<web::Data<ApiState>>()
                .ok_or_else(|| AppError::Internal("API state is not registered".into()))?;
            let Some(cookie) = request.cookie(SESSION_COOKIE) else {
                return Err(DashboardError::SignIn { ended: false });
            };
            let client = request_client(&request, &state.trusted_proxies);
            let principal = match state.access.authenticate(cookie.value(), &client).await {
                Ok(principal) if principal.kind() == CredentialKind::StaffSession => principal,
                Ok(_) | Err(AppError::Unauthenticated(_)) => return Err(DashboardError::SignIn { ended: true }),
                Err(other) => return Err(other.into()),
            };
            let span = tracing::Span::current();
            span.record("operator_id", tracing::field::display(principal.operator_id));
            span.record("actor", principal.actor_id());
            let form_token = state
                .access
                .form_token(&principal)
                .ok_or_else(|| AppError::Internal("a staff session has no form token".into()))?;
            let flight = state.flight.enablement(principal.operator_id).await?.is_some();
            Ok(SignedIn {
                principal,
                form_token,
                simulator: state.simulator.is_some(),
                flight,
            })
        })
    }
}

/// The dashboard's session cookie: the API's cookie (same name, HttpOnly, SameSite=Strict,
/// Secure outside development), sent to the dashboard's paths only.
pub fn session_cookie(state: &ApiState, value: String, max_age: CookieDuration) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, value)
        .path(COOKIE_PATH)
        .http_only(true)
        .secure(state.secure_cookies)
        .same_site(SameSite::Strict)
        .max_age(max_age)
        .finish()
}
