//! A complete webhook receiver for the Opinion platform, on the standard library's TCP
//! listener with `hmac`, `sha2`, `base64` (and `httparse` to read the request).
//!
//! It verifies each delivery's Standard Webhooks signature (every `v1,` entry of
//! `webhook-signature`, constant-time), refuses timestamps more than five minutes from
//! this machine's clock, and handles each event id once: a repeated id is answered
//! 200 "already processed" without handling it again, so the service stops retrying.
//!
//! Answers: 204 on an accepted event, 200 on a duplicate, 400 on a missing header or a
//! stale timestamp, 401 on a signature that does not match.
//!
//! It is a library with a thin `main` so that the platform's tests run the very same code
//! in-process; a receiver of your own only needs [`Receiver::verify`] and the dedup rule.

use std::collections::HashSet;
use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// How far a `webhook-timestamp` may be from this machine's clock, as the docs say.
pub const TOLERANCE_SECONDS: u64 = 5 * 60;

/// The largest request read: the service's bodies are at most 256 KiB.
const MAX_REQUEST_BYTES: usize = 300 * 1024;

/// Why a delivery was not accepted.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The `webhook-timestamp` is not unix seconds (400).
    UnreadableTimestamp,
    /// No `v1` signature matches (401).
    InvalidSignature,
    /// The timestamp is outside the tolerance (400).
    Stale,
}

/// The receiver's state: the endpoint's secret and the ids already handled.
pub struct Receiver {
    key: Vec<u8>,
    /// Ids already handled. An in-memory set is enough for an example; a real receiver
    /// keeps them in its database (at least as long as the retry window, about three
    /// days), ideally in the same transaction as the work the event causes.
    seen: Mutex<HashSet<String>>,
}

impl Receiver {
    /// A receiver for the endpoint secret `whsec_<base64>`; `None` when it is not one.
    pub fn new(secret: &str) -> Option<Self> {
        let key = STANDARD.decode(secret.strip_prefix("whsec_").unwrap_or(secret)).ok()?;
        Some(Self {
            key,
            seen: Mutex::new(HashSet::new()),
        })
    }

    /// Checks a delivery's signature and timestamp, as of `now` (unix seconds).
    pub fn verify(&self, id: &str, timestamp: &str, signatures: &str, body: &[u8], now: u64) -> Result<(), Refusal> {
        let signed = |signature: &[u8]| {
            let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("HMAC takes any key length");
            mac.update(format!("{id}.{timestamp}.").as_bytes());
            mac.update(body);
            mac.verify_slice(signature).is_ok()
        };
        let matched = signatures
            .split(' ')
            .filter_map(|entry| entry.strip_prefix("v1,"))
            .filter_map(|encoded| STANDARD.decode(encoded).ok())
            .fold(false, |matched, signature| signed(&signature) | matched);
        if !matched {
            return Err(Refusal::InvalidSignature);
        }
        let sent_at: u64 = timestamp.parse().map_err(|_| Refusal::UnreadableTimestamp)?;
        if now.abs_diff(sent_at) > TOLERANCE_SECONDS {
            return Err(Refusal::Stale);
        }
        Ok(())
    }

    /// Serves `listener` until it fails, one thread per connection, writing one line per
    /// accepted event (`accepted <id> <type>`) and per duplicate to `out`.
    pub fn serve(self, listener: TcpListener, out: impl Write + Send + 'static) -> io::Result<()> {
        let receiver = Arc::new(self);
        let out = Arc::new(Mutex::new(out));
        for stream in listener.incoming() {
            let stream = stream?;
            let (receiver, out) = (receiver.clone(), out.clone());
            std::thread::spawn(move || {
                if let Err(error) = receiver.answer(stream, &out) {
                    eprintln!("connection failed: {error}");
                }
            });
        }
        Ok(())
    }

    fn answer(&self, mut stream: TcpStream, out: &Mutex<impl Write>) -> io::Result<()> {
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        let (status, text) = match read_request(&mut stream)? {
            Some(request) => self.handle(&request, out)?,
            None => (400, "unreadable request"),
        };
        let head = format!(
            "HTTP/1.1 {status} {}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            reason(status),
            text.len()
        );
        stream.write_all(head.as_bytes())?;
        stream.write_all(text.as_bytes())?;
        stream.flush()
    }

    fn handle(&self, request: &Request, out: &Mutex<impl Write>) -> io::Result<(u16, &'static str)> {
        let header = |name: &str| {
            request
                .headers
                .iter()
                .find(|(key, _)| key.eq_ignore_ascii_case(name))
                .map(|(_, value)| value.as_str())
        };
        let (Some(id), Some(timestamp), Some(signatures)) = (
            header("webhook-id"),
            header("webhook-timestamp"),
            header("webhook-signature"),
        ) else {
            return Ok((400, "missing webhook headers"));
        };
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        match self.verify(id, timestamp, signatures, &request.body, now) {
            Err(Refusal::InvalidSignature) => return Ok((401, "invalid signature")),
            Err(Refusal::Stale) => return Ok((400, "stale timestamp")),
            Err(Refusal::UnreadableTimestamp) => return Ok((400, "invalid timestamp")),
            Ok(()) => {}
        }
        let mut out = out.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let first = self
            .seen
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(id.to_owned());
        if !first {
            writeln!(out, "duplicate {id}")?;
            out.flush()?;
            return Ok((200, "already processed"));
        }
        let event: serde_json::Value = serde_json::from_slice(&request.body).unwrap_or_default();
        // Answer at once; slow work belongs in a queue of your own.
        writeln!(
            out,
            "accepted {} {}",
            event["id"].as_str().unwrap_or(id),
            event["type"].as_str().unwrap_or("?")
        )?;
        out.flush()?;
        Ok((204, ""))
    }
}

/// One request's headers and body.
struct Request {
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// Reads one request; `None` when it is not HTTP or too large.
fn read_request(stream: &mut TcpStream) -> io::Result<Option<Request>> {
    let mut buffer = Vec::new();
    let mut chunk = [0_u8; 8192];
    loop {
        let read = stream.read(&mut chunk)?;
        if read == 0 {
            return Ok(None);
        }
        buffer.extend_from_slice(&chunk[..read]);
        let mut slots = [httparse::EMPTY_HEADER; 64];
        let mut parsed = httparse::Request::new(&mut slots);
        let Ok(status) = parsed.parse(&buffer) else {
            return Ok(None);
        };
        let httparse::Status::Complete(head_length) = status else {
            if buffer.len() > MAX_REQUEST_BYTES {
                return Ok(None);
            }
            continue;
        };
        let headers: Vec<(String, String)> = parsed
            .headers
            .iter()
            .map(|header| {
                (
                    header.name.to_owned(),
                    String::from_utf8_lossy(header.value).into_owned(),
                )
            })
            .collect();
        let length = headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, value)| value.trim().parse::<usize>().ok())
            .unwrap_or(0);
        if length > MAX_REQUEST_BYTES {
            return Ok(None);
        }
        let mut body = buffer.split_off(head_length);
        while body.len() < length {
            let read = stream.read(&mut chunk)?;
            if read == 0 {
                return Ok(None);
            }
            body.extend_from_slice(&chunk[..read]);
        }
        body.truncate(length);
        return Ok(Some(Request { headers, body }));
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        401 => "Unauthorized",
        _ => "Bad Request",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of docs/webhooks.md.
    #[test]
    fn the_documented_example_verifies_and_only_within_five_minutes() {
        let receiver = Receiver::new("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").expect("secret");
        let body = br#"{"id":"evt_01jdz3qv6mz8x5c0a2t5d4e7f9","type":"mini_app.market.resolved","createdAt":"2026-11-22T10:15:00.123456Z","operatorId":"op_01jdz3p0000000000000000000","data":{"marketId":"mkt_01jdz3qv6mz8x5c0a2t5d4e7fa","resolvedAt":"2026-11-22T10:15:00.123456Z","winningOutcome":"yes"}}"#;
        let id = "evt_01jdz3qv6mz8x5c0a2t5d4e7f9";
        let signature = "v2,ignored v1,SGmyhPZy+VfcbXHLJi+ESHQCK7DbVzBx7Ecy3boI7xw=";
        let at = 1_795_343_700;
        assert_eq!(receiver.verify(id, "1795343700", signature, body, at + 300), Ok(()));
        assert_eq!(
            receiver.verify(id, "1795343700", signature, body, at + 301),
            Err(Refusal::Stale)
        );
        assert_eq!(
            receiver.verify(id, "1795343701", signature, body, at),
            Err(Refusal::InvalidSignature)
        );
    }
}
