//! One GET of the ticker per quote. The whole call (connecting, sending, the status and the
//! body) has one time limit; the body is read in chunks and refused past the size limit;
//! no redirect is followed and no proxy from the environment is used. A good answer's raw
//! bytes are returned with the quote, which names their SHA-256.

use std::sync::Arc;

use async_trait::async_trait;
use opinion_app::flight::exchange::{ExchangeAnswer, ExchangeRates};
use opinion_app::ports::Clock;
use opinion_proof::{CurrencyPair, ExchangeEvidence, UnavailableReason};
use reqwest::redirect::Policy;
use reqwest::{Client, StatusCode, header};

use crate::price::{NoRate, read_price};
use crate::source::TickerSource;

/// Sent as `User-Agent`.
const USER_AGENT: &str = concat!("opinion-exchange-client/", env!("CARGO_PKG_VERSION"));

/// Takes quotes from one ticker.
pub struct HttpExchangeRates {
    client: Client,
    source: TickerSource,
    clock: Arc<dyn Clock>,
}

impl HttpExchangeRates {
    /// A client of `source`, stamping evidence with `clock`.
    pub fn new(source: TickerSource, clock: Arc<dyn Clock>) -> Result<Self, reqwest::Error> {
        let client = Client::builder()
            .redirect(Policy::none())
            .no_proxy()
            .timeout(source.timeout())
            .user_agent(USER_AGENT)
            .build()?;
        Ok(Self { client, source, clock })
    }

    /// The raw answer, or why there is none.
    async fn fetch(&self) -> Result<Vec<u8>, NoRate> {
        let mut response = self
            .client
            .get(self.source.url().clone())
            .header(header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|error| self.failed(&error))?;
        if response.status() != StatusCode::OK {
            let status = response.status().as_u16();
            return Err((
                UnavailableReason::HttpStatus,
                format!("the exchange answered HTTP {status}"),
            ));
        }
        let limit = self.source.max_answer_bytes();
        let too_large = || {
            (
                UnavailableReason::TooLarge,
                format!("the answer is larger than {limit} bytes"),
            )
        };
        if response.content_length().is_some_and(|length| length > limit as u64) {
            return Err(too_large());
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|error| self.failed(&error))? {
            if body.len() + chunk.len() > limit {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }

    fn failed(&self, error: &reqwest::Error) -> NoRate {
        if error.is_timeout() {
            self.timed_out()
        } else {
            (
                UnavailableReason::Unreachable,
                "the exchange could not be reached".to_owned(),
            )
        }
    }

    fn timed_out(&self) -> NoRate {
        let millis = self.source.timeout().as_millis();
        (
            UnavailableReason::Timeout,
            format!("no complete answer within {millis} ms"),
        )
    }

    fn unavailable(&self, pair: &CurrencyPair, (reason, detail): NoRate) -> ExchangeAnswer {
        tracing::warn!(source = %self.source.source_name(), %pair, ?reason, %detail, "no exchange quote");
        ExchangeAnswer {
            evidence: ExchangeEvidence::unavailable(
                self.source.source_name(),
                pair.clone(),
                reason,
                detail,
                self.clock.now(),
            ),
            raw_answer: None,
        }
    }
}

#[async_trait]
impl ExchangeRates for HttpExchangeRates {
    async fn evidence(&self, pair: &CurrencyPair) -> ExchangeAnswer {
        if pair != self.source.pair() {
            let detail = format!("this exchange source quotes {}", self.source.pair());
            return self.unavailable(pair, (UnavailableReason::NotConfigured, detail));
        }
        let fetched = tokio::time::timeout(self.source.timeout(), self.fetch())
            .await
            .unwrap_or_else(|_| Err(self.timed_out()));
        let quoted = fetched.and_then(|raw| read_price(&raw, self.source.price_pointer()).map(|rate| (rate, raw)));
        match quoted {
            Ok((rate, raw)) => ExchangeAnswer {
                evidence: ExchangeEvidence::quoted(
                    self.source.source_name(),
                    pair.clone(),
                    rate,
                    self.clock.now(),
                    &raw,
                ),
                raw_answer: Some(raw),
            },
            Err(no_rate) => self.unavailable(pair, no_rate),
        }
    }
}
