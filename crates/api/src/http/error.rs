//! The API's error type and its single mapping to HTTP: status, stable code, detail.
//! 5xx bodies say nothing internal; the log line (inside the request's span) says all.

use actix_web::http::StatusCode;
use actix_web::http::header::{ALLOW, HeaderValue, RETRY_AFTER, WWW_AUTHENTICATE};
use actix_web::{HttpResponse, ResponseError};
use opinion_access::{Denial, IssuanceError, SecretFormatError};
use opinion_app::access::AuthFailure;
use opinion_app::error::{AppError, ProblemCode};

use crate::http::problem::Problem;

/// Everything a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A use case refused or failed.
    #[error(transparent)]
    App(#[from] AppError),
    /// The caller is authenticated but may not call the route.
    #[error("access denied: {0:?}")]
    Denied(Denial),
    /// The request itself is malformed (body, query, path).
    #[error("bad request ({code}): {detail}")]
    BadRequest {
        /// Stable code.
        code: ProblemCode,
        /// What is wrong.
        detail: String,
    },
    /// The body is larger than allowed.
    #[error("payload too large")]
    PayloadTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// The body is not JSON.
    #[error("unsupported media type")]
    UnsupportedMediaType,
    /// No route has this path.
    #[error("no such route")]
    RouteNotFound,
    /// The path exists but not with this method; carries the methods it takes.
    #[error("method not allowed")]
    MethodNotAllowed(std::sync::Arc<str>),
    /// The route exists only in development and staging (the simulator).
    #[error("not available in production")]
    NotAvailableInProduction,
    /// The service cannot serve (e.g. the database is down) — readiness.
    #[error("not ready: {0}")]
    NotReady(String),
}

impl ApiError {
    /// Shorthand for a malformed request.
    pub fn bad_request(code: ProblemCode, detail: impl Into<String>) -> Self {
        Self::BadRequest {
            code,
            detail: detail.into(),
        }
    }

    /// The problem body of this error: the one mapping of errors to statuses and codes,
    /// also read by the dashboard, which shows it as a page.
    pub(crate) fn problem(&self) -> Problem {
        match self {
            Self::App(error) => app_problem(error),
            Self::Denied(Denial::StaffSessionRequired) => Problem::new(
                StatusCode::FORBIDDEN,
                ProblemCode::StaffSessionRequired,
                "this route accepts dashboard staff sessions only; API keys cannot call it",
            ),
            Self::Denied(Denial::MissingScopes { missing, any_of }) => {
                let names: Vec<&str> = missing.iter().map(|s| s.as_str()).collect();
                let detail = if *any_of {
                    format!("the credential needs one of these scopes: {}", names.join(", "))
                } else {
                    format!("the credential lacks these scopes: {}", names.join(", "))
                };
                Problem::new(StatusCode::FORBIDDEN, ProblemCode::InsufficientScope, detail)
                    .with("missingScopes", &names)
                    .with("anyOf", any_of)
            }
            Self::BadRequest { code, detail } => Problem::new(StatusCode::BAD_REQUEST, *code, detail),
            Self::PayloadTooLarge { limit } => Problem::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                ProblemCode::PayloadTooLarge,
                format!("the request body is larger than {limit} bytes"),
            ),
            Self::UnsupportedMediaType => Problem::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ProblemCode::UnsupportedMediaType,
                "the request body must be JSON, sent with `Content-Type: application/json`",
            ),
            Self::RouteNotFound => Problem::new(
                StatusCode::NOT_FOUND,
                ProblemCode::RouteNotFound,
                "no route has this path",
            ),
            Self::MethodNotAllowed(allowed) => Problem::new(
                StatusCode::METHOD_NOT_ALLOWED,
                ProblemCode::MethodNotAllowed,
                format!("this path takes only: {allowed}"),
            ),
            Self::NotAvailableInProduction => Problem::new(
                StatusCode::NOT_FOUND,
                ProblemCode::NotAvailableInProduction,
                "the simulator exists only in development and staging",
            ),
            Self::NotReady(_) => Problem::new(
                StatusCode::SERVICE_UNAVAILABLE,
                ProblemCode::NotReady,
                "the service cannot reach its database",
            ),
        }
    }
}

fn app_problem(error: &AppError) -> Problem {
    match error {
        AppError::Unauthenticated(failure) => Problem::new(
            StatusCode::UNAUTHORIZED,
            auth_failure_code(*failure),
            failure.to_string(),
        ),
        AppError::NotFound(what) => Problem::new(
            StatusCode::NOT_FOUND,
            ProblemCode::NotFound,
            format!("{what} not found"),
        ),
        AppError::Invalid { field, message } => Problem::new(
            StatusCode::BAD_REQUEST,
            ProblemCode::ValidationFailed,
            format!("`{field}` {message}"),
        )
        .with("field", field),
        AppError::Issuance(IssuanceError::StaffScopeOnApiKey(scopes)) => {
            let names: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
            Problem::new(
                StatusCode::BAD_REQUEST,
                ProblemCode::StaffScopeNotAssignable,
                "staffs:read and staffs:write are assignable only to dashboard staff, never to API keys",
            )
            .with("scopes", names)
        }
        AppError::Issuance(IssuanceError::ExceedsIssuer { beyond }) => {
            let names: Vec<&str> = beyond.iter().map(|s| s.as_str()).collect();
            let detail = if names.is_empty() {
                "only a credential holding `*` may grant `*`".to_owned()
            } else {
                format!(
                    "a credential can only grant scopes it holds; it lacks: {}",
                    names.join(", ")
                )
            };
            Problem::new(StatusCode::FORBIDDEN, ProblemCode::ScopeEscalation, detail).with("scopes", names)
        }
        AppError::Conflict {
            code: code @ ProblemCode::ProofNotAvailable,
            detail,
        } => Problem::new(StatusCode::NOT_FOUND, *code, detail.clone()),
        AppError::Conflict {
            code: code @ (ProblemCode::CurrentPasswordWrong | ProblemCode::PlaygroundReadOnly),
            detail,
        } => Problem::new(StatusCode::FORBIDDEN, *code, detail.clone()),
        AppError::Conflict { code, detail } => Problem::new(StatusCode::CONFLICT, *code, detail.clone()),
        AppError::RateLimited { retry_after_secs } => Problem::new(
            StatusCode::TOO_MANY_REQUESTS,
            ProblemCode::RateLimited,
            format!("a rate limit applies; retry after {retry_after_secs} seconds"),
        )
        .with("retryAfterSeconds", retry_after_secs),
        AppError::StoreUnavailable(_) | AppError::Internal(_) => Problem::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            ProblemCode::InternalError,
            "the service failed to complete the request; quote the request id to support",
        ),
    }
}

/// The status each code is answered with, for the documentation's problem code page:
/// exhaustive, so a new code does not compile until its status is stated here, and the
/// tests below hold it to `problem()` above.
pub const fn status_of(code: ProblemCode) -> u16 {
    use ProblemCode::*;
    match code {
        CredentialMissing
        | CredentialMalformed
        | ApiKeyChecksumMismatch
        | ApiKeyWrongEnvironment
        | ApiKeyUnknown
        | ApiKeyRevoked
        | ApiKeyExpired
        | SessionInvalid
        | SessionEnded
        | StaffDisabled
        | LoginFailed
        | LaunchTokenInvalid
        | LaunchTokenUsedOrExpired
        | LaunchHostMismatch
        | ViewLinkInvalid
        | ViewLinkExpired
        | MetricsTokenInvalid => 401,
        StaffSessionRequired | InsufficientScope | ScopeEscalation | CurrentPasswordWrong | PlaygroundReadOnly => 403,
        ValidationFailed
        | InvalidBody
        | MalformedJson
        | InvalidQuery
        | InvalidId
        | InvalidCursor
        | InvalidLimit
        | StaffScopeNotAssignable => 400,
        NotFound | RouteNotFound | NotAvailableInProduction | ProofNotAvailable => 404,
        MethodNotAllowed => 405,
        PayloadTooLarge => 413,
        UnsupportedMediaType => 415,
        RateLimited => 429,
        InternalError => 500,
        NotReady => 503,
        Conflict
        | ConcurrentChange
        | ChangedMeanwhile
        | StaffEmailTaken
        | CapReached
        | ProductNotEnabled
        | WrongProduct
        | LaunchHostTaken
        | WalletAdapterNotConfigured
        | MarketNotOpen
        | LimitNotMet
        | InsufficientShares
        | TradeInProgress
        | ClientOrderIdReused
        | NothingToCredit
        | BoardingClosed
        | TicketCapReached
        | ClientTicketIdReused
        | TicketNotActive
        | CashOutTooEarly
        | FlightCrashed
        | ProductionAuthorizationMissing
        | MarketStatus
        | OpenTrades
        | NotInReview
        | ProductMismatch
        | TermsScheduleFull
        | TermsNotCancellable
        | StatementKeyRetired
        | StatementKeyNotCurrent
        | ReportNotFinalized
        | PaymentExceedsDue
        | PaymentReferenceTaken
        | WebhookEndpointChanged
        | WebhookEndpointDisabled
        | SimulatedUserExists
        | NoSimulatedUsers
        | NotASimulatorMarket
        | MarketTradedByOthers
        | SimulatedUserNotIdr => 409,
    }
}

/// The stable code of each authentication failure.
fn auth_failure_code(failure: AuthFailure) -> ProblemCode {
    match failure {
        AuthFailure::Missing => ProblemCode::CredentialMissing,
        AuthFailure::Malformed | AuthFailure::ApiKeyFormat(SecretFormatError::Malformed) => {
            ProblemCode::CredentialMalformed
        }
        AuthFailure::ApiKeyFormat(SecretFormatError::BadChecksum) => ProblemCode::ApiKeyChecksumMismatch,
        AuthFailure::WrongEnvironment { .. } => ProblemCode::ApiKeyWrongEnvironment,
        AuthFailure::UnknownKey => ProblemCode::ApiKeyUnknown,
        AuthFailure::RevokedKey => ProblemCode::ApiKeyRevoked,
        AuthFailure::ExpiredKey => ProblemCode::ApiKeyExpired,
        AuthFailure::InvalidSession => ProblemCode::SessionInvalid,
        AuthFailure::SessionEnded => ProblemCode::SessionEnded,
        AuthFailure::StaffDisabled => ProblemCode::StaffDisabled,
        AuthFailure::BadLogin => ProblemCode::LoginFailed,
        AuthFailure::WrongMetricsToken => ProblemCode::MetricsTokenInvalid,
        AuthFailure::InvalidLaunch => ProblemCode::LaunchTokenInvalid,
        AuthFailure::LaunchUsedOrExpired => ProblemCode::LaunchTokenUsedOrExpired,
        AuthFailure::ForeignLaunchHost => ProblemCode::LaunchHostMismatch,
        AuthFailure::InvalidViewLink => ProblemCode::ViewLinkInvalid,
        AuthFailure::ExpiredViewLink => ProblemCode::ViewLinkExpired,
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.problem().status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        let problem = self.problem();
        if problem.status >= 500 {
            tracing::error!(error = %self, source = ?self, "request failed");
        } else {
            tracing::info!(code = %problem.code, "request refused");
        }
        let unauthenticated = problem.status == StatusCode::UNAUTHORIZED.as_u16();
        let mut response = problem.into_response();
        if unauthenticated {
            response
                .headers_mut()
                .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer realm=\"opinion\""));
        }
        if let Self::App(AppError::RateLimited { retry_after_secs }) = self {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(*retry_after_secs));
        }
        if let Self::MethodNotAllowed(allowed) = self
            && let Ok(value) = HeaderValue::from_str(allowed)
        {
            response.headers_mut().insert(ALLOW, value);
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use opinion_access::{ApiKeyEnvironment, Scope};

    use super::*;

    /// An error of every kind `problem()` answers, then a conflict for each code no other
    /// kind carries (the use cases' own refusals).
    fn every_kind_of_error() -> Vec<ApiError> {
        use AuthFailure::*;
        let failures = [
            Missing,
            Malformed,
            ApiKeyFormat(SecretFormatError::Malformed),
            ApiKeyFormat(SecretFormatError::BadChecksum),
            WrongEnvironment {
                presented: ApiKeyEnvironment::Staging,
                accepted: ApiKeyEnvironment::Production,
            },
            UnknownKey,
            RevokedKey,
            ExpiredKey,
            InvalidSession,
            SessionEnded,
            StaffDisabled,
            BadLogin,
            InvalidLaunch,
            LaunchUsedOrExpired,
            ForeignLaunchHost,
            InvalidViewLink,
            ExpiredViewLink,
            WrongMetricsToken,
        ];
        let mut errors: Vec<ApiError> = failures
            .into_iter()
            .map(|failure| ApiError::App(AppError::Unauthenticated(failure)))
            .collect();
        errors.extend([
            ApiError::Denied(Denial::StaffSessionRequired),
            ApiError::Denied(Denial::MissingScopes {
                missing: vec![Scope::MarketsRead],
                any_of: false,
            }),
            ApiError::PayloadTooLarge { limit: 1 },
            ApiError::UnsupportedMediaType,
            ApiError::RouteNotFound,
            ApiError::MethodNotAllowed("GET".into()),
            ApiError::NotAvailableInProduction,
            ApiError::NotReady("down".into()),
            ApiError::App(AppError::NotFound("market")),
            ApiError::App(AppError::invalid("field", "is wrong")),
            ApiError::App(AppError::Issuance(IssuanceError::StaffScopeOnApiKey(vec![
                Scope::StaffsRead,
            ]))),
            ApiError::App(AppError::Issuance(IssuanceError::ExceedsIssuer { beyond: vec![] })),
            ApiError::App(AppError::RateLimited { retry_after_secs: 1 }),
            ApiError::App(AppError::Internal("boom".into())),
        ]);
        for code in [
            ProblemCode::InvalidBody,
            ProblemCode::MalformedJson,
            ProblemCode::InvalidQuery,
            ProblemCode::InvalidId,
            ProblemCode::InvalidCursor,
            ProblemCode::InvalidLimit,
        ] {
            errors.push(ApiError::bad_request(code, "bad"));
        }
        let carried: BTreeSet<ProblemCode> = errors.iter().map(code_of).collect();
        for code in ProblemCode::ALL.iter().filter(|code| !carried.contains(code)) {
            errors.push(ApiError::App(AppError::Conflict {
                code: *code,
                detail: "refused".into(),
            }));
        }
        errors
    }

    fn code_of(error: &ApiError) -> ProblemCode {
        let problem = error.problem();
        *ProblemCode::ALL
            .iter()
            .find(|code| code.as_str() == problem.code)
            .expect("a known code")
    }

    #[test]
    fn the_documented_status_of_every_code_is_the_one_it_is_answered_with() {
        let errors = every_kind_of_error();
        let mut seen = BTreeSet::new();
        for error in &errors {
            let code = code_of(error);
            assert_eq!(status_of(code), error.problem().status, "{code}");
            seen.insert(code);
        }
        assert_eq!(seen.len(), ProblemCode::ALL.len());
    }
}
