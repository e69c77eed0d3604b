//! The problem responses that handlers declare in their OpenAPI attributes, one type per
//! refusal that many routes share: each is an `application/problem+json` body with its
//! status, as `error.rs` answers it.

use std::collections::BTreeMap;

use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::{IntoResponses, ToSchema};

use crate::http::extract::MAX_JSON_BYTES;
use crate::http::problem::{PROBLEM_JSON, Problem};

/// A response whose body is a problem, described by `description`.
pub fn problem_response(description: &str) -> Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            PROBLEM_JSON,
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name(Problem::name())))
                .build(),
        )
        .build()
}

macro_rules! problems {
    ($($(#[doc = $doc:literal])* $name:ident: $status:literal => $description:expr;)+) => {
        $(
            $(#[doc = $doc])*
            pub struct $name;

            impl IntoResponses for $name {
                fn responses() -> BTreeMap<String, RefOr<Response>> {
                    BTreeMap::from([($status.to_owned(), problem_response(&$description).into())])
                }
            }
        )+
    };
}

problems! {
    /// A body, query parameter or path id the route cannot take.
    InvalidRequest: "400" => "the request is malformed or invalid: `code` says how, and `field` names the culprit when there is one";
    /// A JSON body over the size limit.
    PayloadTooLarge: "413" => format!("the body is larger than {MAX_JSON_BYTES} bytes (`payload_too_large`)");
    /// A body that is not sent as JSON.
    UnsupportedMediaType: "415" => "the body is not sent with `Content-Type: application/json` (`unsupported_media_type`)";
    /// An id (in the path or the body) that names nothing of the operator's.
    NotFound: "404" => "no such object for this operator (`not_found`)";
    /// A simulator route where no simulator runs.
    NoSimulator: "404" => "no simulator runs in this environment, as in production (`not_available_in_production`)";
    /// A simulator route naming something missing, or where no simulator runs.
    SimulatorNotFound: "404" => "no such object for this operator (`not_found`), or no simulator runs in this environment, as in production (`not_available_in_production`)";
    /// The export of a settlement report that is still open.
    ReportNotFinalized: "409" => "the report is open: only a finalized report has a signed statement to export, and payments (`report_not_finalized`)";
    /// A ticket's proof asked for before its report is finalized, or a ticket that does not exist.
    ProofNotAvailable: "404" => "no such ticket for this operator (`not_found`), or its settlement report is not finalized yet, so it has no proof (`proof_not_available`)";
    /// A route that grants scopes, called by a credential that lacks the route's scope or the scopes it would grant.
    ScopeEscalation: "403" => "the credential lacks a required scope or is of the wrong kind, or would grant scopes it does not hold (`scope_escalation`)";
}
