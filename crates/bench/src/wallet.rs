//! The bench's wallet adapter: applies every mutation at once with a unique remote
//! reference and a generous balance, so a buy's cost is the service's alone.

use std::sync::atomic::{AtomicU64, Ordering};

use hyper::StatusCode;
use opinion_wallet::{AppliedAnswer, AppliedStatus, RemoteReference};

use crate::local_http::Responder;

/// Answers every call with `{"status":"applied",…}`, counting them.
#[derive(Debug, Default)]
pub struct InstantWallet {
    calls: AtomicU64,
}

impl Responder for InstantWallet {
    fn respond(&self, _path: &str, _body: &[u8]) -> (StatusCode, Vec<u8>) {
        let call = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        let reference: Result<RemoteReference, _> = format!("bench-{call}").parse();
        let Ok(remote_reference) = reference else {
            return (StatusCode::INTERNAL_SERVER_ERROR, Vec::new());
        };
        let answer = AppliedAnswer {
            status: AppliedStatus::Applied,
            remote_reference,
            balance: "1000000000".into(),
        };
        match serde_json::to_vec(&answer) {
            Ok(body) => (StatusCode::OK, body),
            Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, Vec::new()),
        }
    }
}
