//! The route table's requirement of a route laid on its operation: the operation's id, the
//! credentials and scopes it takes (as security requirements and in words), and the
//! guard's refusals (authentication, the operator's rate limit, scopes), which happen
//! before any handler runs.

use opinion_access::{CredentialRule, Requirement, RouteSpec, Scope, ScopeRule};
use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{ComponentsBuilder, OpenApi};

use crate::http::problem_responses::problem_response;

/// The security scheme of operator API keys.
const API_KEY: &str = "api_key";
/// The security scheme of dashboard staff sessions.
const STAFF_SESSION: &str = "staff_session";

/// Lays `spec`'s requirement on `operation`; responses the handler documents itself win.
pub fn lay(operation: &mut Operation, spec: &RouteSpec) {
    operation.operation_id = Some(format!("{:?}", spec.id));
    let words = in_words(&spec.requirement);
    operation.description = Some(match operation.description.take().filter(|text| !text.is_empty()) {
        Some(text) => format!("{text}\n\n{words}"),
        None => words,
    });
    let Requirement::Authenticated { credential, scopes } = spec.requirement else {
        return;
    };
    operation.security = Some(security(credential, scopes));
    let responses = &mut operation.responses.responses;
    responses
        .entry("401".to_owned())
        .or_insert_with(|| problem_response("no usable credential: `code` says why").into());
    responses.entry("429".to_owned()).or_insert_with(|| {
        problem_response(
            "the operator's request rate limit is spent (`rate_limited`); `Retry-After` says when to retry, \
             `RateLimit` and `RateLimit-Policy` where the operator stands",
        )
        .into()
    });
    if let Some(refusal) = refusal(credential, spec.requirement.scopes()) {
        responses
            .entry("403".to_owned())
            .or_insert_with(|| problem_response(refusal).into());
    }
}

/// Declares the two kinds of credential the security requirements name.
pub fn declare_schemes(document: &mut OpenApi) {
    let components = document
        .components
        .get_or_insert_with(|| ComponentsBuilder::new().build());
    components.add_security_scheme(
        API_KEY,
        bearer("An operator API key (`opk_<env>_…`), sent as `Authorization: Bearer <key>`."),
    );
    components.add_security_scheme(
        STAFF_SESSION,
        bearer(
            "A dashboard staff session token, sent as `Authorization: Bearer <token>`; browsers may carry it in \
             the HttpOnly `opinion_session` cookie instead.",
        ),
    );
}

fn bearer(description: &str) -> SecurityScheme {
    SecurityScheme::Http(
        HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(description))
            .build(),
    )
}

/// One security requirement per accepted credential and sufficient set of scopes.
fn security(credential: CredentialRule, scopes: ScopeRule) -> Vec<SecurityRequirement> {
    let schemes: &[&str] = match credential {
        CredentialRule::Any => &[API_KEY, STAFF_SESSION],
        CredentialRule::StaffSessionOnly => &[STAFF_SESSION],
    };
    let sufficient: Vec<Vec<&str>> = match scopes {
        ScopeRule::None => vec![Vec::new()],
        ScopeRule::AllOf(all) => vec![all.iter().map(|scope| scope.as_str()).collect()],
        ScopeRule::AnyOf(any) => any.iter().map(|scope| vec![scope.as_str()]).collect(),
    };
    schemes
        .iter()
        .flat_map(|scheme| {
            sufficient
                .iter()
                .map(|scopes| SecurityRequirement::new(*scheme, scopes.clone()))
        })
        .collect()
}

/// Why the guard refuses an authenticated caller of a route, if it can.
fn refusal(credential: CredentialRule, scopes: &[Scope]) -> Option<&'static str> {
    match (credential, scopes.is_empty()) {
        (CredentialRule::Any, true) => None,
        (CredentialRule::Any, false) => {
            Some("the credential lacks a required scope (`insufficient_scope`, naming them)")
        }
        (CredentialRule::StaffSessionOnly, true) => Some("the credential is an API key (`staff_session_required`)"),
        (CredentialRule::StaffSessionOnly, false) => Some(
            "the credential is an API key (`staff_session_required`) or lacks a required scope \
             (`insufficient_scope`, naming them)",
        ),
    }
}

fn in_words(requirement: &Requirement) -> String {
    let Requirement::Authenticated { credential, scopes } = requirement else {
        return "No credential required.".to_owned();
    };
    let who = match credential {
        CredentialRule::Any => "API key or staff session",
        CredentialRule::StaffSessionOnly => "Staff session only (API keys are refused)",
    };
    let names = |scopes: &[Scope]| scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
    match scopes {
        ScopeRule::None | ScopeRule::AllOf([]) => format!("{who}; no scope required."),
        ScopeRule::AllOf(all) => format!("{who}; requires all of: {}.", names(all)),
        ScopeRule::AnyOf(any) => format!("{who}; requires any one of: {}.", names(any)),
    }
}
