//! The bench's wallet adapter (`docs/operator/wallet-adapter.md`): applies every mutation at once
//! with a unique remote reference and a generous balance, and tells that balance when
//! asked, so a buy's cost is the service's alone. Signatures are not checked: the bench
//! measures the caller, not the wallet.

use std::sync::atomic::{AtomicU64, Ordering};

use hyper::StatusCode;
use opinion_wallet::{AppliedAnswer, AppliedStatus, RemoteReference};
use serde::Deserialize;
use serde_json::json;

use crate::local_http::Responder;

/// The balance every player has.
const BALANCE: &str = "1000000000";

/// The one field of a balance read the answer repeats.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BalanceRead {
    external_user_id: String,
}

/// Answers mutations with `{"status":"applied",…}` and balance reads with the balance.
#[derive(Debug, Default)]
pub struct InstantWallet {
    calls: AtomicU64,
}

impl Responder for InstantWallet {
    fn respond(&self, path: &str, body: &[u8]) -> (StatusCode, Vec<u8>) {
        if path.ends_with("/v1/balance") {
            return balance(body);
        }
        let call = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        let reference: Result<RemoteReference, _> = format!("bench-{call}").parse();
        let Ok(remote_reference) = reference else {
            return (StatusCode::INTERNAL_SERVER_ERROR, Vec::new());
        };
        let answer = AppliedAnswer {
            status: AppliedStatus::Applied,
            remote_reference,
            balance: BALANCE.into(),
        };
        match serde_json::to_vec(&answer) {
            Ok(body) => (StatusCode::OK, body),
            Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, Vec::new()),
        }
    }
}

/// The answer to `POST /v1/balance`.
fn balance(body: &[u8]) -> (StatusCode, Vec<u8>) {
    let Ok(read) = serde_json::from_slice::<BalanceRead>(body) else {
        return (
            StatusCode::BAD_REQUEST,
            br#"{"error":{"code":"invalid_request"}}"#.to_vec(),
        );
    };
    let answer = json!({ "externalUserId": read.external_user_id, "balance": BALANCE, "currency": "USD" });
    (StatusCode::OK, answer.to_string().into_bytes())
}
