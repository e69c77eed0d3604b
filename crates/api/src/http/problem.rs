//! RFC 9457 problem details: the one shape of every error body.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::{CONTENT_TYPE, HeaderValue};
use opinion_app::error::ProblemCode;
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::http::request_id;

/// The media type of problem bodies.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// An error body: a stable machine `code`, a human `detail`, the request id, and
/// fields particular to the problem (e.g. `missingScopes`).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// `urn:opinion:problem:<code>`.
    #[serde(rename = "type")]
    pub problem_type: String,
    /// Short summary of the kind of problem (the HTTP reason phrase).
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// Stable machine-readable code.
    pub code: String,
    /// What went wrong, for a person.
    pub detail: String,
    /// The request's id, as in the `x-request-id` header.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// Problem-specific members.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub extensions: Map<String, Value>,
}

impl Problem {
    /// A problem of `status` with a stable `code` and a human `detail`.
    pub fn new(status: StatusCode, code: ProblemCode, detail: impl Into<String>) -> Self {
        Self {
            problem_type: format!("urn:opinion:problem:{code}"),
            title: status.canonical_reason().unwrap_or("Error").to_owned(),
            status: status.as_u16(),
            code: code.as_str().to_owned(),
            detail: detail.into(),
            request_id: request_id::current(),
            extensions: Map::new(),
        }
    }

    /// Adds a problem-specific member.
    pub fn with(mut self, name: &str, value: impl Serialize) -> Self {
        let value = serde_json::to_value(value).unwrap_or(Value::Null);
        self.extensions.insert(name.to_owned(), value);
        self
    }

    /// The HTTP response carrying this problem.
    pub fn into_response(self) -> HttpResponse {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = HttpResponse::build(status).json(&self);
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        response
    }
}
