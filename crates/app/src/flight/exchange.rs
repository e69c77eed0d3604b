//! The exchange a statement's comparison-only rate comes from. Finalization asks it once
//! for the operator's reporting pair and freezes what it answers in the signed statement.
//! It never fails: an exchange that is not configured, unreachable, slow or answers
//! garbage gives `Unavailable` evidence saying why, and the statement is finalized all
//! the same. A public ticker knows only the current price, so the evidence is of the
//! instant the answer arrived (`takenAt`), not of an instant the caller names.

use async_trait::async_trait;
use opinion_proof::{CurrencyPair, ExchangeEvidence};

/// What the exchange answered: the evidence, and for a quote the raw answer bytes whose
/// SHA-256 the evidence names (kept with the statement).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExchangeAnswer {
    /// The evidence to freeze.
    pub evidence: ExchangeEvidence,
    /// The answer exactly as received; `Some` for a quote, `None` when unavailable.
    pub raw_answer: Option<Vec<u8>>,
}

/// A third-party exchange's ticker.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait ExchangeRates: Send + Sync {
    /// One quote of `pair` taken now, or why there is none.
    async fn evidence(&self, pair: &CurrencyPair) -> ExchangeAnswer;
}
