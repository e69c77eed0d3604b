//! Why a dashboard request is not answered with its page, answered as a page (people read
//! it), never as a problem body: no session (to the sign-in page), a scope the member
//! lacks (403), a stale form (403), or what the use case refused, worded by the API's one
//! mapping of errors (`http/error.rs`).

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use maud::html;
use opinion_access::Denial;
use opinion_app::error::AppError;

use crate::dashboard::layout::bare;
use crate::dashboard::page::{html, see_other};
use crate::dashboard::session::COOKIE_PATH;
use crate::http::auth::SESSION_COOKIE;
use crate::http::error::ApiError;

/// A dashboard request answered with something other than its page.
#[derive(Debug, thiserror::Error)]
pub enum DashboardError {
    /// No session, or one that has ended: to the sign-in page, the cookie cleared.
    #[error("not signed in")]
    SignIn {
        /// Whether a session was presented and is over (the sign-in page says so).
        ended: bool,
    },
    /// The member's scopes do not pass the mirrored API route's requirement.
    #[error("denied: {0:?}")]
    Denied(Denial),
    /// A post without this session's form token.
    #[error("the form token is missing or belongs to another session")]
    FormExpired,
    /// What a use case or the request refused.
    #[error(transparent)]
    Api(#[from] ApiError),
}

impl From<AppError> for DashboardError {
    fn from(error: AppError) -> Self {
        match error {
            AppError::Unauthenticated(_) => Self::SignIn { ended: true },
            other => Self::Api(ApiError::App(other)),
        }
    }
}

impl ResponseError for DashboardError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::SignIn { .. } => StatusCode::SEE_OTHER,
            Self::Denied(_) | Self::FormExpired => StatusCode::FORBIDDEN,
            Self::Api(error) => error.status_code(),
        }
    }

    fn error_response(&self) -> HttpResponse {
        match self {
            Self::SignIn { ended } => {
                let mut response = see_other(if *ended {
                    "/dashboard/sign-in?ended=1"
                } else {
                    "/dashboard/sign-in"
                });
                let mut removal = actix_web::cookie::Cookie::build(SESSION_COOKIE, "")
                    .path(COOKIE_PATH)
                    .finish();
                removal.make_removal();
                if *ended {
                    let _ = response.add_cookie(&removal);
                }
                response
            }
            Self::Denied(denial) => {
                let needed = match denial {
                    Denial::StaffSessionRequired => "a staff session".to_owned(),
                    Denial::MissingScopes { missing, any_of } => {
                        let names: Vec<&str> = missing.iter().map(|s| s.as_str()).collect();
                        let joiner = if *any_of { " or " } else { " and " };
                        names.join(joiner)
                    }
                };
                html(
                    StatusCode::FORBIDDEN,
                    bare(
                        "Not allowed",
                        html! {
                            p { "Your membership does not allow this page. It needs " strong { (needed) } "." }
                            p { "Ask a member who manages staff to extend your scopes." }
                            p { a href="/dashboard" { "Back to the overview" } }
                        },
                    ),
                )
            }
            Self::FormExpired => html(
                StatusCode::FORBIDDEN,
                bare(
                    "This form has expired",
                    html! {
                        p { "The form was not sent from this session of the dashboard, so nothing was changed." }
                        p { "Go back, reload the page and send it again." }
                        p { a href="/dashboard" { "Back to the overview" } }
                    },
                ),
            ),
            Self::Api(error) => {
                let problem = error.problem();
                let status = StatusCode::from_u16(problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                if status.is_server_error() {
                    tracing::error!(error = %error, source = ?error, "dashboard request failed");
                }
                let detail = if status.is_server_error() {
                    "Something went wrong on our side. Nothing more is shown here; the log has the cause.".to_owned()
                } else {
                    problem.detail.clone()
                };
                html(
                    status,
                    bare(
                        &problem.title,
                        html! {
                            p { (detail) }
                            @if let Some(request_id) = &problem.request_id {
                                p.muted { "Request " code { (request_id) } }
                            }
                            p { a href="/dashboard" { "Back to the overview" } }
                        },
                    ),
                )
            }
        }
    }
}
