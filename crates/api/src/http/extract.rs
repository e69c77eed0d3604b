//! Request parsing with clear 4xx answers: JSON bodies, query strings, path ids.

use actix_web::dev::Payload;
use actix_web::error::{PayloadError, QueryPayloadError};
use actix_web::{FromRequest, HttpMessage, HttpRequest, mime, web};
use futures_util::future::LocalBoxFuture;
use opinion_app::error::ProblemCode;
use opinion_core::{Id, IdKind};
use serde::de::DeserializeOwned;

use crate::http::error::ApiError;

/// A body or query string extracted after the credential: a handler takes it after its
/// player extractor and returns its error first thing, so a refused session (401, or
/// 409 `wrong_product`) is answered before anything the request carries is judged
/// (actix answers the first extractor error that is ready, and a body or query error is
/// ready before the session has been looked up).
pub type AfterAuth<T> = Result<T, actix_web::Error>;

impl From<actix_web::Error> for ApiError {
    /// The problem an extractor configured here refused an input with (`AfterAuth`).
    fn from(error: actix_web::Error) -> Self {
        match error.as_error::<ApiError>() {
            Some(ApiError::BadRequest { code, detail }) => ApiError::bad_request(*code, detail.clone()),
            Some(ApiError::PayloadTooLarge { limit }) => ApiError::PayloadTooLarge { limit: *limit },
            Some(ApiError::UnsupportedMediaType) => ApiError::UnsupportedMediaType,
            _ => ApiError::bad_request(ProblemCode::InvalidBody, "the request could not be read"),
        }
    }
}

/// Largest JSON body accepted.
pub const MAX_JSON_BYTES: usize = 64 * 1024;

/// Query extraction errors as problems.
pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|error, _: &HttpRequest| {
        let detail = match error {
            QueryPayloadError::Deserialize(e) => e.to_string(),
            other => other.to_string(),
        };
        ApiError::bad_request(
            ProblemCode::InvalidQuery,
            format!("the query string is invalid: {detail}"),
        )
        .into()
    })
}

/// The limit on every body the service reads whole, JSON or not: a body over it is
/// refused before it is buffered.
pub fn payload_config() -> web::PayloadConfig {
    web::PayloadConfig::new(MAX_JSON_BYTES)
}

/// A JSON object body, under the rules of every JSON body: at most `MAX_JSON_BYTES`
/// (413), sent as JSON (415), well formed (400 `malformed_json`) and an object (400
/// `invalid_body`). Serde reads a struct from an array too, by position, so a body of
/// `[null]` would otherwise pass for an empty change.
pub struct Json<T>(pub T);

impl<T> Json<T> {
    /// The body.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Json<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(request: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let sent_as_json = is_json(request);
        let body = web::Bytes::from_request(request, payload);
        Box::pin(async move {
            if !sent_as_json {
                return Err(ApiError::UnsupportedMediaType);
            }
            object(&read_body(body.await)?).map(Self)
        })
    }
}

/// A JSON body that may be empty (then the type's default is used), under the same rules
/// as every JSON body (`Json`).
pub struct OptionalJson<T>(pub T);

impl<T: DeserializeOwned + Default + 'static> FromRequest for OptionalJson<T> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(request: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let sent_as_json = is_json(request);
        let body = web::Bytes::from_request(request, payload);
        Box::pin(async move {
            let body = read_body(body.await)?;
            if body.iter().all(u8::is_ascii_whitespace) {
                return Ok(Self(T::default()));
            }
            if !sent_as_json {
                return Err(ApiError::UnsupportedMediaType);
            }
            object(&body).map(Self)
        })
    }
}

/// A body read as a JSON object of type `T`.
fn object<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let parsed = serde_json::from_slice(body).map_err(|e| {
        let code = if e.is_data() {
            ProblemCode::InvalidBody
        } else {
            ProblemCode::MalformedJson
        };
        ApiError::bad_request(code, format!("the request body is invalid: {e}"))
    })?;
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::bad_request(
            ProblemCode::InvalidBody,
            "the request body must be a JSON object",
        ));
    }
    Ok(parsed)
}

/// A whole body as the `Bytes` extractor read it under `payload_config`, its refusal as a
/// problem: over the limit is 413, a body cut short 400.
pub fn read_body(body: Result<web::Bytes, actix_web::Error>) -> Result<web::Bytes, ApiError> {
    body.map_err(|error| match error.as_error::<PayloadError>() {
        Some(PayloadError::Overflow) => ApiError::PayloadTooLarge { limit: MAX_JSON_BYTES },
        _ => ApiError::bad_request(ProblemCode::MalformedJson, "the request body could not be read"),
    })
}

/// Whether a request's `Content-Type` is JSON (`application/json` or a `+json` type), as
/// the JSON extractor accepts it.
fn is_json(request: &HttpRequest) -> bool {
    matches!(
        request.mime_type(),
        Ok(Some(mime)) if mime.subtype() == mime::JSON || mime.suffix() == Some(mime::JSON)
    )
}

/// A path id of the expected kind, or a 400 naming the problem.
pub fn path_id<K: IdKind>(text: &str) -> Result<Id<K>, ApiError> {
    text.parse()
        .map_err(|e| ApiError::bad_request(ProblemCode::InvalidId, format!("`{text}` is not a valid id: {e}")))
}
