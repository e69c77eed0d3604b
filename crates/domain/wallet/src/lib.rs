//! Wallet mutations of the operator contract, in one place: the flows, their reason keys
//! and required metadata, the one idempotency key of each business action, the request
//! fingerprint, the operation state machine, and what each wallet answer means. Pure: no
//! I/O, no clock, no randomness; times and ids are the caller's.
//!
//! Where each rule of the contract's "Wallet mutation rules" lives:
//!
//! | rule | what | file |
//! |---|---|---|
//! | 1 | required metadata per flow | `metadata_matrix.rs` (the matrix), `metadata.rs` (typed shapes), `metadata_values.rs` (value forms), `metadata_validation.rs` (validator) |
//! | 2 | same key, same outcome | `idempotency_key.rs` (one key per action), `fingerprint.rs` (same key, same payload), `reference_wallet.rs` (the wallet's side) |
//! | 3 | no lookup by key | `operation.rs`: no transition looks anything up; `wire.rs`: the contract has no lookup path |
//! | 4 | ambiguous primary → manual review, no replay | `classification.rs` (what is ambiguous), `consequence.rs` (where it goes), `recovery.rs` (after a crash), `review_reason.rs` (why staff look) |
//! | 5 | never a new key for the same action | `idempotency_key.rs`, `action.rs`, `operation.rs` (the key is fixed at prepare) |
//! | 6 | compensation carries `marketId`, retries with its key (a flight refund likewise carries its ticket and `refundOf`) | `metadata_matrix.rs`, `flow.rs` (roles, owed credits), `consequence.rs`, `recovery.rs`, `retry_limit.rs` (then staff) |
//! | 7 | reconciliation by `remote_reference` and logs | `remote_reference.rs`, `staff_resolution.rs` |
//! | 8 | `marketId` on every trade mutation (`flightId` and `ticketId` on every flight one) | `metadata_matrix.rs` |
//! | 9 | wallet test without lookup | `metadata_matrix.rs` is the data the wallet test checks against |
//! | 10 | stable, additive reason keys; flight reasons native-IDR | `reason.rs`, `flow.rs` (each flow's product and its currency), `mutation.rs` (a flight mutation is IDR or is not built) |
//!
//! The flows and their product, direction and role are in `flow.rs`; amounts and
//! currencies in `money.rs`; the raw transport outcome in `transport.rs`, the answer bodies in
//! `answer_body.rs` and the refusal codes in `refusal.rs`. `tests/contract_rules.rs`
//! has one test per rule that fails if the rule is broken.
//!
//! The wire of the wallet adapter contract (`docs/operator/wallet-adapter.md`), shared by the
//! platform's client and every wallet that answers it: paths and headers in `wire.rs`,
//! the mutation request body in `request_body.rs`, balance reads in `balance.rs`. An
//! operator's configuration of its adapter: base URL and time-out in
//! `adapter_settings.rs`, signing secrets and their rotation in `adapter_secrets.rs`.
//! How a contract-abiding wallet answers (for the test wallet and the staging
//! simulator): `wallet_rules.rs` (the rules over stored keys and accounts) and
//! `reference_wallet.rs` (them in memory), writing `wallet_answer.rs`.

#![warn(missing_docs)]

mod action;
mod adapter_secrets;
mod adapter_settings;
mod answer_body;
mod balance;
mod classification;
mod consequence;
mod fingerprint;
mod flow;
mod idempotency_key;
mod metadata;
mod metadata_matrix;
mod metadata_validation;
mod metadata_values;
mod money;
mod mutation;
mod operation;
mod reason;
mod recovery;
mod reference_wallet;
mod refusal;
mod remote_reference;
mod request_body;
mod retry_limit;
mod review_reason;
mod staff_resolution;
mod state;
mod transport;
mod wallet_answer;
mod wallet_rules;
mod wire;

pub use action::BusinessAction;
pub use adapter_secrets::{AdapterSecrets, RetiringSecret, SECRET_OVERLAP_SECS};
pub use adapter_settings::{AdapterBaseUrl, AdapterTimeout, BaseUrlError, TimeoutError};
pub use answer_body::{AppliedAnswer, AppliedStatus, ErrorAnswer, ErrorDetail};
pub use balance::{BalanceAnswer, BalanceFailure, BalanceReading, BalanceRequest, read_balance};
pub use classification::{Ambiguity, Classification, IN_PROGRESS_CODE, IN_PROGRESS_STATUS, classify};
pub use consequence::{Consequence, answer_consequence};
pub use fingerprint::{FingerprintFormatError, FingerprintInput, RequestFingerprint};
pub use flow::{Direction, FlowRole, Product, UnknownFlow, WalletFlow};
pub use idempotency_key::{IdempotencyKey, IdempotencyKeyError};
pub use metadata::{
    BuyCompensationMetadata, FlowMetadata, RedemptionMetadata, TicketPayoutMetadata, TicketPurchaseMetadata,
    TicketRefundMetadata, TradeMetadata,
};
pub use metadata_matrix::{METADATA_MATRIX, MetadataKey, required_metadata};
pub use metadata_validation::{MetadataError, validate_metadata};
pub use metadata_values::{BadValue, NO_AUTO_CASH_OUT, ShareCount};
pub use money::{Amount, AmountError, AmountTextError, Currency, CurrencyError};
pub use mutation::{CurrencyNotAllowed, WalletMutation};
pub use operation::{Answered, IllegalTransition, OperationEvent, WalletOperation};
pub use reason::{ReasonKey, UnknownReasonKey};
pub use recovery::{Recovery, StartupAction};
pub use reference_wallet::{Admission, ReferenceWallet};
pub use refusal::{Blame, RefusalCode};
pub use remote_reference::{RemoteReference, RemoteReferenceError};
pub use request_body::{MutationRequest, RequestBodyError};
pub use retry_limit::RetryLimit;
pub use review_reason::{ReviewReason, UnknownReviewReason};
pub use staff_resolution::{StaffResolution, WalletLogFinding};
pub use state::{OperationState, UnknownState};
pub use transport::TransportOutcome;
pub use wallet_answer::{AnswerBody, WalletAnswer};
pub use wallet_rules::{
    KeyRecord, WalletAccount, answer_balance_read, answer_for_key, apply_mutation, read_balance_request, read_mutation,
};
pub use wire::{BALANCE_PATH, IDEMPOTENCY_KEY_HEADER, MUTATIONS_PATH, balance_read_id};
