//! One connection to the fake wallet: read the request, check its signature, let the
//! reference wallet decide, commit the player's next fault if one is set, answer, and
//! keep the ledger.

use std::sync::{Arc, Mutex, PoisonError};

use opinion_wallet::{Admission, BALANCE_PATH, MUTATIONS_PATH, MutationRequest, RefusalCode, WalletAnswer};
use opinion_webhook::{DEFAULT_TOLERANCE_SECS, verify};
use time::OffsetDateTime;
use tokio::net::TcpStream;

use super::State;
use super::ledger::{Fault, LedgerAnswer, LedgerEntry, SignatureCheck};
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
        ("POST", BALANCE_PATH) => Some(balance(&shared, &request)),
        _ => Some(WalletAnswer::error(404, "not_found", "no such path")),
    };
    if let Some(answer) = answer {
        write(&mut stream, &answer).await;
    }
}

fn balance(shared: &Shared, request: &WireRequest) -> WalletAnswer {
    let state = lock(shared);
    if signature(&state, request) == SignatureCheck::Invalid {
        return WalletAnswer::refused(RefusalCode::InvalidSignature, "no set secret verifies the signature");
    }
    state.wallet.read_balance(&request.body)
}

/// Handles a mutation; `None` when the connection is to be dropped without an answer.
async fn mutation(shared: &Shared, request: &WireRequest) -> Option<WalletAnswer> {
    let (entry, step) = admit(shared, request);
    let (answer, applied) = match step {
        Step::Answer(answer) => (Some(answer), false),
        Step::Proceed(admitted, fault) => commit(shared, &admitted, fault).await,
    };
    let mut state = lock(shared);
    if let Some(recorded) = state.ledger.get_mut(entry) {
        recorded.applied = applied;
        recorded.answer = match &answer {
            Some(answer) => LedgerAnswer::Answered {
                status: answer.status,
                body: answer
                    .body_bytes()
                    .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                    .unwrap_or_default(),
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
    } else {
        match state.wallet.admit(&request.body, key_header) {
            Admission::Answer(answer) => Step::Answer(answer),
            Admission::Proceed(admitted) => {
                let fault = state
                    .faults
                    .get_mut(&admitted.external_user_id)
                    .and_then(|queue| queue.pop_front());
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

/// Carries out an admitted request under its fault: the answer (`None`: drop the
/// connection) and whether money moved.
async fn commit(shared: &Shared, admitted: &MutationRequest, fault: Option<Fault>) -> (Option<WalletAnswer>, bool) {
    let settle = || {
        let answer = lock(shared).wallet.settle(admitted);
        let applied = answer.is_applied();
        (answer, applied)
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
                Some(WalletAnswer::error(
                    status,
                    "injected_fault",
                    "a fault injected by the test",
                )),
                false,
            )
        }
        Some(Fault::ApplyThenServerError) => {
            let (_, applied) = settle();
            (
                Some(WalletAnswer::error(500, "injected_fault", "applied, then failed")),
                applied,
            )
        }
        Some(Fault::DropConnection { applied: true }) => (None, settle().1),
        Some(Fault::DropConnection { applied: false }) => {
            release();
            (None, false)
        }
        Some(Fault::Refuse(code)) => (Some(lock(shared).wallet.refuse(admitted, code)), false),
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

async fn write(stream: &mut TcpStream, answer: &WalletAnswer) {
    let body = answer.body_bytes().unwrap_or_default();
    let headers = [("content-type".to_owned(), "application/json".to_owned())];
    // The caller may have given up (a slow answer); that is not the wallet's failure.
    let _ = write_and_close(stream, &answer_bytes(answer.status, &headers, &body)).await;
}
