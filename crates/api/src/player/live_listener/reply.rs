//! What a live-feed connection writes before its events, as HTTP/1.1 bytes: the event
//! stream's head, a problem answer rendered by the service's one error mapping, or the
//! bare status a head that was never understood gets. Every answer closes the
//! connection: a page's stream lasts as long as it does, and nothing follows it.

use actix_web::ResponseError;
use actix_web::body::MessageBody;
use actix_web::http::StatusCode;

use crate::http::error::ApiError;
use crate::http::request_id::REQUEST_ID_HEADER;
use crate::player::flight_feed::STREAM_HEADERS;

/// The head of the event stream's answer, its body following until the connection ends.
pub fn stream_head(request_id: &str) -> Vec<u8> {
    let headers = STREAM_HEADERS
        .iter()
        .map(|(name, value)| (name.as_bytes(), value.as_bytes()));
    head(StatusCode::OK, headers, request_id)
}

/// `error`'s problem answer (status, headers and body as every route's), and its status.
pub fn problem(error: &ApiError, request_id: &str) -> (StatusCode, Vec<u8>) {
    let response = error.error_response();
    let status = response.status();
    let (response, body) = response.into_parts();
    let body = body.try_into_bytes().unwrap_or_default();
    let length = body.len().to_string();
    let headers = response
        .headers()
        .iter()
        .map(|(name, value)| (name.as_str().as_bytes(), value.as_bytes()))
        .chain([(&b"Content-Length"[..], length.as_bytes())]);
    let mut bytes = head(status, headers, request_id);
    bytes.extend_from_slice(&body);
    (status, bytes)
}

/// A bodiless answer of `status`, for a head that could not be read.
pub fn bare(status: StatusCode) -> Vec<u8> {
    let mut bytes = status_line(status);
    bytes.extend_from_slice(b"Content-Length: 0\r\nConnection: close\r\n\r\n");
    bytes
}

/// A head of `status` with `headers`, the request id and `Connection: close`.
fn head<'a>(status: StatusCode, headers: impl Iterator<Item = (&'a [u8], &'a [u8])>, request_id: &str) -> Vec<u8> {
    let mut bytes = status_line(status);
    for (name, value) in headers {
        header_line(&mut bytes, name, value);
    }
    header_line(&mut bytes, REQUEST_ID_HEADER.as_str().as_bytes(), request_id.as_bytes());
    header_line(&mut bytes, b"Connection", b"close");
    bytes.extend_from_slice(b"\r\n");
    bytes
}

fn header_line(bytes: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    for part in [name, b": ", value, b"\r\n"] {
        bytes.extend_from_slice(part);
    }
}

fn status_line(status: StatusCode) -> Vec<u8> {
    let reason = status.canonical_reason().unwrap_or_default();
    format!("HTTP/1.1 {} {reason}\r\n", status.as_u16()).into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(bytes: &[u8]) -> &str {
        std::str::from_utf8(bytes).expect("text")
    }

    #[test]
    fn the_stream_head_names_the_stream_and_the_request() {
        assert_eq!(
            text(&stream_head("req_1")),
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
             X-Accel-Buffering: no\r\nx-request-id: req_1\r\nConnection: close\r\n\r\n"
        );
    }

    #[test]
    fn a_problem_is_the_mapped_status_headers_and_body() {
        let (status, bytes) = problem(&ApiError::MethodNotAllowed("GET".into()), "req_2");
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
        let answer = text(&bytes);
        let (head, body) = answer.split_once("\r\n\r\n").expect("head and body");
        assert!(head.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"), "{head}");
        assert!(
            head.contains("\r\ncontent-type: application/problem+json\r\n"),
            "{head}"
        );
        assert!(head.contains("\r\nallow: GET\r\n"), "{head}");
        assert!(
            head.contains(&format!("\r\nContent-Length: {}\r\n", body.len())),
            "{head}"
        );
        assert!(head.ends_with("\r\nx-request-id: req_2\r\nConnection: close"), "{head}");
        let problem: serde_json::Value = serde_json::from_str(body).expect("json");
        assert_eq!(problem["code"], "method_not_allowed");
    }

    #[test]
    fn a_bare_answer_has_no_body() {
        assert_eq!(
            text(&bare(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)),
            "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
    }
}
