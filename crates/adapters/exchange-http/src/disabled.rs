//! The port where no exchange is configured: every statement says the comparison rate is
//! unavailable because no exchange is configured, rather than leaving the field out.

use std::sync::Arc;

use async_trait::async_trait;
use opinion_app::flight::exchange::{ExchangeAnswer, ExchangeRates};
use opinion_app::ports::Clock;
use opinion_proof::{CurrencyPair, ExchangeEvidence, UnavailableReason};

/// Answers `Unavailable` (`not_configured`) for every pair.
pub struct NoExchangeRates {
    clock: Arc<dyn Clock>,
}

impl NoExchangeRates {
    /// Stamps its answers with `clock`.
    pub fn new(clock: Arc<dyn Clock>) -> Self {
        Self { clock }
    }
}

#[async_trait]
impl ExchangeRates for NoExchangeRates {
    async fn evidence(&self, pair: &CurrencyPair) -> ExchangeAnswer {
        ExchangeAnswer {
            evidence: ExchangeEvidence::unavailable(
                "none",
                pair.clone(),
                UnavailableReason::NotConfigured,
                "no exchange is configured",
                self.clock.now(),
            ),
            raw_answer: None,
        }
    }
}
