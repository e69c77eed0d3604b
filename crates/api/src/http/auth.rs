//! Route guarding, declared once per route in the access domain's route table: this
//! middleware authenticates the caller and checks the route's requirement before any
//! handler or body extractor runs, so an unauthenticated request never learns more
//! than its 401.

use std::future::{Ready, ready};
use std::sync::Arc;

use actix_web::body::BoxBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::{AUTHORIZATION, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{Error, FromRequest, HttpMessage, HttpRequest, web};
use opinion_access::{HttpMethod, PLAYGROUND_CONSOLE_HEADER, Requirement};
use opinion_app::access::{AuthFailure, Principal};
use opinion_app::error::AppError;

use crate::http::client::request_client;
use crate::http::error::ApiError;
use crate::http::rate_limit::Standing;
use crate::state::ApiState;

/// The cookie that may carry a staff session token for browsers.
pub const SESSION_COOKIE: &str = "opinion_session";

/// The requirements of the methods of one path.
pub type MethodRequirements = Arc<Vec<(Method, Requirement)>>;

/// Authenticates and authorises a request against its route's requirement and counts it
/// in its operator's rate limit; a refusal is answered here, as a problem response, before
/// any handler or extractor runs.
pub async fn guard(
    requirements: MethodRequirements,
    request: ServiceRequest,
    next: Next<BoxBody>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let requirement = requirements
        .iter()
        .find(|(method, _)| method == request.method())
        .map(|(_, requirement)| *requirement);
    let Some(requirement) = requirement.filter(|r| !r.is_public()) else {
        return next.call(request).await;
    };
    let (principal, standing) = match authenticate(&request).await {
        Ok(admitted) => admitted,
        Err(refusal) => return Ok(request.error_response(refusal)),
    };
    let refusal = match standing.retry_after_secs() {
        Some(retry_after_secs) => Some(ApiError::App(AppError::RateLimited { retry_after_secs })),
        None => match requirement.check(principal.kind(), &principal.grant) {
            Err(denial) => Some(ApiError::Denied(denial)),
            Ok(()) => console_refusal(&request, &principal).await,
        },
    };
    let mut response = match refusal {
        Some(refusal) => request.error_response(refusal),
        None => {
            request.extensions_mut().insert(principal);
            next.call(request).await?
        }
    };
    standing.write_to(response.headers_mut());
    Ok(response)
}

/// The caller of a request and its operator's standing in the rate limit, which counts
/// this request whatever the answer to it will be.
async fn authenticate(request: &ServiceRequest) -> Result<(Principal, Standing), ApiError> {
    let state = request
        .app_data::<web::Data<ApiState>>()
        .ok_or_else(|| ApiError::App(AppError::Internal("API state is not registered".into())))?;
    let credential = presented_credential(request.request())?.ok_or(ApiError::App(AuthFailure::Missing.into()))?;
    let client = request_client(request.request(), &state.trusted_proxies);
    let principal = state.access.authenticate(&credential, &client).await?;
    let span = tracing::Span::current();
    span.record("operator_id", tracing::field::display(principal.operator_id));
    span.record("actor", principal.actor_id());
    let standing = state.rate_limit.admit(principal.operator_id);
    Ok((principal, standing))
}

/// The refusal of a request the docs' playground console marked as its own (its
/// `opinion-playground` header), where the operator keeps the console read-only.
async fn console_refusal(request: &ServiceRequest, principal: &Principal) -> Option<ApiError> {
    if !request.headers().contains_key(PLAYGROUND_CONSOLE_HEADER) {
        return None;
    }
    let method = HttpMethod::from_name(request.method().as_str())?;
    let state = request.app_data::<web::Data<ApiState>>()?;
    state
        .access
        .admit_console_request(principal.operator_id, method)
        .await
        .err()
        .map(ApiError::App)
}

/// The credential of a request: `Authorization: Bearer …`, else the session cookie.
fn presented_credential(request: &HttpRequest) -> Result<Option<String>, ApiError> {
    match bearer_credential(request)? {
        Some(credential) => Ok(Some(credential)),
        None => Ok(request.cookie(SESSION_COOKIE).map(|cookie| cookie.value().to_owned())),
    }
}

/// The credential of an `Authorization: Bearer …` header, if there is one; a header of
/// any other shape is malformed.
pub(crate) fn bearer_credential(request: &HttpRequest) -> Result<Option<String>, ApiError> {
    bearer_in(request.headers().get(AUTHORIZATION))
}

/// The credential of an `Authorization` header, as [`bearer_credential`] reads it.
pub(crate) fn bearer_in(header: Option<&HeaderValue>) -> Result<Option<String>, ApiError> {
    let Some(header) = header else {
        return Ok(None);
    };
    let malformed = || ApiError::App(AuthFailure::Malformed.into());
    let text = header.to_str().map_err(|_| malformed())?;
    let (scheme, credential) = text.split_once(' ').ok_or_else(malformed)?;
    let credential = credential.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || credential.is_empty() {
        return Err(malformed());
    }
    Ok(Some(credential.to_owned()))
}

/// The authenticated caller of a guarded route, as a handler argument.
#[derive(Debug, Clone)]
pub struct Caller(pub Principal);

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let principal = request.extensions().get::<Principal>().cloned();
        ready(principal.map(Caller).ok_or_else(|| {
            ApiError::App(AppError::Internal(
                "a handler asked for the caller of an unguarded route".into(),
            ))
        }))
    }
}
