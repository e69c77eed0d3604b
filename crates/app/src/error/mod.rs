//! The use cases' error: what went wrong in the caller's terms. The HTTP edge maps
//! each variant to a status and a stable code, once.

mod problem_code;

pub use problem_code::ProblemCode;

use opinion_access::IssuanceError;

use crate::access::AuthFailure;
use crate::ports::StoreError;

/// Why a use case did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// No usable credential.
    #[error("authentication failed: {0}")]
    Unauthenticated(#[from] AuthFailure),
    /// The named thing does not exist for this operator (or belongs to another one).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// A field of the request is invalid.
    #[error("invalid `{field}`: {message}")]
    Invalid {
        /// The request field, as the client wrote it.
        field: &'static str,
        /// What is wrong with it.
        message: String,
    },
    /// The request would hand out more access than the rules allow.
    #[error(transparent)]
    Issuance(#[from] IssuanceError),
    /// The request clashes with the current state (e.g. an e-mail already in use).
    #[error("{detail}")]
    Conflict {
        /// Stable machine code.
        code: ProblemCode,
        /// Human explanation.
        detail: String,
    },
    /// The request must wait: a limit allows it again after this many seconds.
    #[error("rate limited; retry after {retry_after_secs} s")]
    RateLimited {
        /// Seconds until the request may succeed.
        retry_after_secs: u64,
    },
    /// The store failed; details are for the log only.
    #[error("store unavailable: {0}")]
    StoreUnavailable(String),
    /// An internal step failed (hashing, signing); details are for the log only.
    #[error("internal failure: {0}")]
    Internal(String),
}

impl AppError {
    /// Shorthand for an invalid field.
    pub fn invalid(field: &'static str, message: impl ToString) -> Self {
        Self::Invalid {
            field,
            message: message.to_string(),
        }
    }
}

/// A store refusal that no use case translated into its own terms still reaches the
/// client in the use cases' words, never in the store's: a duplicate is a generic
/// `conflict`, a lost compare-and-set a `concurrent_change`, a full cap `cap_reached`.
impl From<StoreError> for AppError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Duplicate(key) => Self::Conflict {
                code: ProblemCode::Conflict,
                detail: format!("a {key} with these values already exists"),
            },
            StoreError::Conflict(record) => Self::Conflict {
                code: ProblemCode::ConcurrentChange,
                detail: format!("the {record} changed while the request was processed; try again"),
            },
            StoreError::Unavailable(message) => Self::StoreUnavailable(message),
            StoreError::TimedOut(limit) => Self::StoreUnavailable(format!("{limit} passed")),
            StoreError::CapReached(cap) => Self::Conflict {
                code: ProblemCode::CapReached,
                detail: cap.to_string(),
            },
        }
    }
}
