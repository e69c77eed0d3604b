//! One connection to the fake wallet: read the request, check its signature, let the
//! reference wallet decide, commit the player's next fault if one is set, answer, and
//! keep the ledger.

use std::sync::{Arc, Mutex, PoisonError};

use opinion_wallet::{
    Admission, BALANCE_PATH, Direction, MUTATIONS_PATH, MutationRequest, RefusalCode, RemoteReference, WalletAnswer,
    WalletFlow, required_metadata,
};
use opinion_webhook::{DEFAULT_TOLERANCE_SECS, verify};
use time::OffsetDateTime;
use tokio::net::TcpStream;

use super::State;
use super::ledger::{Breakage, Fault, LedgerAnswer, LedgerEntry, SignatureCheck};
use crate::http_wire::{WireRequest, answer_bytes, read_request, write_and_close};

type Shared = Arc<Mutex<State>>;

fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, State> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Serves one connection.
pub(super) async fn handle(mut stream: TcpStream, shared: Shared) {
    let Ok(Some(request)) = read_request(&mut stream).await else {
        return;
    };
    let answer = match (request.method.as_str(), request.path.as_str()) {
        ("POST", MUTATIONS_PATH) => mutation(&shared, &request).await,
        ("POST", BALANCE_PATH) => Some(Reply::of(&balance(&shared, &request))),
        _ => Some(Reply::of(&WalletAnswer::error(404, "not_found", "no such path"))),
    };
    if let Some(answer) = answer {
        write(&mut stream, &answer).await;
    }
}

/// What the wallet writes back: a contract answer's bytes, or whatever a fault sends.
struct Reply {
    status: u16,
    body: Vec<u8>,
}

impl Reply {
    fn of(answer: &WalletAnswer) -> Self {
        Self {
            status: answer.status,
            body: answer.body_bytes().unwrap_or_default(),
        }
    }

    /// A 200 with `GARBAGE`.
    fn garbage() -> Self {
        Self {
            status: 200,
            body: GARBAGE.to_vec(),
        }
    }
}

/// The body a `Fault::Garbage` answers: neither JSON nor anything the contract knows.
const GARBAGE: &[u8] = b"<html><body>Bad Gateway</body></html>";

fn balance(shared: &Shared, request: &WireRequest) -> WalletAnswer {
    let state = lock(shared);
    if signature(&state, request) == SignatureCheck::Invalid {
        return WalletAnswer::refused(RefusalCode::InvalidSignature, "no set secret verifies the signature");
    }
    state.wallet.read_balance(&request.body)
}

/// Handles a mutation; `None` when the connection is to be dropped without an answer.
async fn mutation(shared: &Shared, request: &WireRequest) -> Option<Reply> {
    let (entry, step) = admit(shared, request);
    let (answer, applied) = match step {
        Step::Answer(answer) => (Some(Reply::of(&answer)), false),
        Step::Proceed(admitted, fault) => commit(shared, &admitted, fault).await,
    };
    let mut state = lock(shared);
    if let Some(recorded) = state.ledger.get_mut(entry) {
        recorded.applied = applied;
        recorded.answer = match &answer {
            Some(answer) => LedgerAnswer::Answered {
                status: answer.status,
                body: String::from_utf8_lossy(&answer.body).into_owned(),
            },
            None => LedgerAnswer::Dropped,
        };
    }
    answer
}

enum Step {
    Answer(WalletAnswer),
    Proceed(MutationRequest, Option<Fault>),
}

/// Records the request in the ledger (its index is returned) and decides on it.
fn admit(shared: &Shared, request: &WireRequest) -> (usize, Step) {
    let mut state = lock(shared);
    let checked = signature(&state, request);
    let key_header = request.header("idempotency-key");
    let step = if checked == SignatureCheck::Invalid {
        Step::Answer(WalletAnswer::refused(
            RefusalCode::InvalidSignature,
            "no set secret verifies the signature",
        ))
    } else if request.header("webhook-id").is_some_and(|id| Some(id) != key_header) {
        Step::Answer(WalletAnswer::refused(
            RefusalCode::InvalidRequest,
            "webhook-id differs from the Idempotency-Key",
        ))
    } else if let Some(answer) = overdraft(&state, &request.body) {
        Step::Answer(answer)
    } else {
        let body = broken_body(&state, &request.body);
        match state.wallet.admit(&body, key_header) {
            Admission::Answer(answer)
                if answer.is_applied() && state.breakage == Some(Breakage::DoubleAppliesRepeats) =>
            {
                match MutationRequest::parse(&body) {
                    Ok(again) => Step::Proceed(again, None),
                    Err(_) => Step::Answer(answer),
                }
            }
            Admission::Answer(answer) => Step::Answer(answer),
            Admission::Proceed(admitted) => {
                let queued = state
                    .faults
                    .get_mut(&admitted.external_user_id)
                    .and_then(|queue| queue.pop_front());
                let fault = queued.or_else(|| state.fault_source.as_ref().and_then(|source| source(&admitted)));
                Step::Proceed(admitted, fault)
            }
        }
    };
    state.ledger.push(LedgerEntry {
        received_at: OffsetDateTime::now_utc(),
        body: String::from_utf8_lossy(&request.body).into_owned(),
        request: MutationRequest::parse(&request.body).ok(),
        signature: checked,
        fault: match &step {
            Step::Proceed(_, fault) => fault.clone(),
            Step::Answer(_) => None,
        },
        applied: false,
        answer: LedgerAnswer::Pending,
    });
    (state.ledger.len() - 1, step)
}

/// For a wallet accepting overdrafts: a 200 to a debit above the balance, moving nothing.
fn overdraft(state: &State, body: &[u8]) -> Option<WalletAnswer> {
    if state.breakage != Some(Breakage::AcceptsOverdraft) {
        return None;
    }
    let request = MutationRequest::parse(body).ok()?;
    let balance = state.wallet.balance(&request.external_user_id)?;
    let above = request.direction == Direction::Debit && request.amount.minor_units() > balance;
    let reference = RemoteReference::parse("overdraft-accepted").ok()?;
    above.then(|| WalletAnswer::applied(reference, balance))
}

/// For a wallet ignoring metadata: the body with every missing required key filled in.
fn broken_body(state: &State, body: &[u8]) -> Vec<u8> {
    if state.breakage != Some(Breakage::IgnoresMetadata) {
        return body.to_vec();
    }
    let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(body) else {
        return body.to_vec();
    };
    let flow = value["flow"].as_str().and_then(|flow| flow.parse::<WalletFlow>().ok());
    if let (Some(flow), Some(metadata)) = (flow, value["metadata"].as_object_mut()) {
        for key in required_metadata(flow) {
            metadata
                .entry(key.as_str())
                .or_insert_with(|| serde_json::Value::from("unchecked"));
        }
    }
    serde_json::to_vec(&value).unwrap_or_else(|_| body.to_vec())
}

/// Carries out an admitted request under its fault: the answer (`None`: drop the
/// connection) and whether money moved.
async fn commit(shared: &Shared, admitted: &MutationRequest, fault: Option<Fault>) -> (Option<Reply>, bool) {
    let settle = || {
        let answer = lock(shared).wallet.settle(admitted);
        let applied = answer.is_applied();
        (Reply::of(&answer), applied)
    };
    let release = || lock(shared).wallet.release(admitted);
    match fault {
        None => {
            let (answer, applied) = settle();
            (Some(answer), applied)
        }
        Some(Fault::SlowAnswer(delay)) => {
            tokio::time::sleep(delay).await;
            let (answer, applied) = settle();
            (Some(answer), applied)
        }
        Some(Fault::ServerError(status)) => {
            release();
            (
                Some(Reply::of(&WalletAnswer::error(
                    status,
                    "injected_fault",
                    "a fault injected by the test",
                ))),
                false,
            )
        }
        Some(Fault::ApplyThenServerError) => {
            let (_, applied) = settle();
            (
                Some(Reply::of(&WalletAnswer::error(
                    500,
                    "injected_fault",
                    "applied, then failed",
                ))),
                applied,
            )
        }
        Some(Fault::DropConnection { applied: true }) => (None, settle().1),
        Some(Fault::DropConnection { applied: false }) => {
            release();
            (None, false)
        }
        Some(Fault::Refuse(code)) => (Some(Reply::of(&lock(shared).wallet.refuse(admitted, code))), false),
        Some(Fault::Garbage { applied: true }) => (Some(Reply::garbage()), settle().1),
        Some(Fault::Garbage { applied: false }) => {
            release();
            (Some(Reply::garbage()), false)
        }
    }
}

/// Checks the Standard Webhooks headers against every set secret.
fn signature(state: &State, request: &WireRequest) -> SignatureCheck {
    if state.secrets.is_empty() {
        return SignatureCheck::NotChecked;
    }
    let header = |name: &str| request.header(name).unwrap_or_default();
    let now = OffsetDateTime::now_utc().unix_timestamp();
    let valid = state.secrets.iter().any(|secret| {
        verify(
            secret,
            header("webhook-id"),
            header("webhook-timestamp"),
            header("webhook-signature"),
            &request.body,
            now,
            DEFAULT_TOLERANCE_SECS,
        )
        .is_ok()
    });
    if valid {
        SignatureCheck::Valid
    } else {
        SignatureCheck::Invalid
    }
}

async fn write(stream: &mut TcpStream, answer: &Reply) {
    let headers = [("content-type".to_owned(), "application/json".to_owned())];
    // The caller may have given up (a slow answer); that is not the wallet's failure.
    let _ = write_and_close(stream, &answer_bytes(answer.status, &headers, &answer.body)).await;
}
