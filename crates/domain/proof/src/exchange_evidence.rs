//! Comparison-only evidence from a third-party exchange: one quote taken when a statement
//! is finalized and frozen in it, so a reader sees what the IDR amounts came to in the
//! operator's reporting currency at that instant. It is never an input to any amount: no
//! function of this crate or of `opinion-flight` that computes money takes it, and the
//! statement's money is written from the report's totals alone (`statement.rs`).
//!
//! On the wire, as the signed statement's `exchangeEvidence`:
//!
//! ```json
//! {"status": "quoted", "source": "indodax.com", "pair": "USDT/IDR", "rate": "16250.5",
//!  "takenAt": "2026-12-01T00:05:00Z", "rawSha256": "<64 hex>", "use": "comparison_only"}
//! {"status": "unavailable", "source": "indodax.com", "pair": "USDT/IDR",
//!  "reason": "timeout", "detail": "no answer within 3 s", "at": "2026-12-01T00:05:03Z",
//!  "use": "comparison_only"}
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_with::{DeserializeFromStr, SerializeDisplay};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use crate::exchange_quote::{CurrencyPair, ExchangeRate};

/// What the evidence may be used for: comparison, never settlement.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceUse {
    /// Shown beside the amounts for comparison only.
    #[default]
    ComparisonOnly,
}

/// The SHA-256 of the exchange's raw answer bytes, as 64 lowercase hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, SerializeDisplay, DeserializeFromStr)]
pub struct RawSha256([u8; 32]);

/// Text that is not a SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a SHA-256: 64 lowercase hex digits")]
pub struct RawSha256Error(pub String);

impl RawSha256 {
    /// The hash of `raw`, the answer exactly as received.
    pub fn of(raw: &[u8]) -> Self {
        Self(Sha256::digest(raw).into())
    }
}

impl FromStr for RawSha256 {
    type Err = RawSha256Error;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let lowercase = text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        let bytes = hex::decode(text).ok().filter(|_| lowercase);
        bytes
            .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
            .map(Self)
            .ok_or_else(|| RawSha256Error(text.to_owned()))
    }
}

impl fmt::Display for RawSha256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

/// Why no quote was taken. Stable names: the statement is signed with them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnavailableReason {
    /// No exchange is configured for this environment.
    NotConfigured,
    /// No complete answer within the time limit.
    Timeout,
    /// The exchange could not be reached (name resolution, connection, TLS).
    Unreachable,
    /// The exchange answered with a status other than 200.
    HttpStatus,
    /// The answer was larger than the size limit.
    TooLarge,
    /// The answer was not JSON.
    NotJson,
    /// The answer had no value where the price should be.
    PriceMissing,
    /// The value there was no positive decimal.
    PriceInvalid,
}

/// A quote, frozen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Quote {
    /// Who quoted it: the exchange's host name.
    pub source: String,
    /// What it prices.
    pub pair: CurrencyPair,
    /// How many of the pair's quote asset one base asset was worth.
    pub rate: ExchangeRate,
    /// When it was taken (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub taken_at: OffsetDateTime,
    /// The SHA-256 of the raw answer, kept with the statement.
    pub raw_sha256: RawSha256,
    /// Always `comparison_only`.
    #[serde(rename = "use")]
    pub use_: EvidenceUse,
}

/// Evidence that no quote could be taken, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Unavailable {
    /// The exchange asked.
    pub source: String,
    /// What was asked.
    pub pair: CurrencyPair,
    /// Why there is no quote.
    pub reason: UnavailableReason,
    /// The reason in words (a status code, a time limit), never a secret.
    pub detail: String,
    /// When the attempt ended (UTC).
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// Always `comparison_only`.
    #[serde(rename = "use")]
    pub use_: EvidenceUse,
}

/// What a statement freezes of the exchange: a quote, or why there is none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ExchangeEvidence {
    /// A quote was taken.
    Quoted(Quote),
    /// None could be.
    Unavailable(Unavailable),
}

impl ExchangeEvidence {
    /// A quote taken from `raw`, the exchange's answer exactly as received.
    pub fn quoted(
        source: impl Into<String>,
        pair: CurrencyPair,
        rate: ExchangeRate,
        taken_at: OffsetDateTime,
        raw: &[u8],
    ) -> Self {
        Self::Quoted(Quote {
            source: source.into(),
            pair,
            rate,
            taken_at,
            raw_sha256: RawSha256::of(raw),
            use_: EvidenceUse::ComparisonOnly,
        })
    }

    /// No quote, and why.
    pub fn unavailable(
        source: impl Into<String>,
        pair: CurrencyPair,
        reason: UnavailableReason,
        detail: impl Into<String>,
        at: OffsetDateTime,
    ) -> Self {
        Self::Unavailable(Unavailable {
            source: source.into(),
            pair,
            reason,
            detail: detail.into(),
            at,
            use_: EvidenceUse::ComparisonOnly,
        })
    }

    /// The pair it is about.
    pub fn pair(&self) -> &CurrencyPair {
        match self {
            Self::Quoted(quote) => &quote.pair,
            Self::Unavailable(unavailable) => &unavailable.pair,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use time::macros::datetime;

    use super::*;

    fn pair() -> CurrencyPair {
        "USDT/IDR".parse().expect("pair")
    }

    #[test]
    fn a_quote_is_written_with_its_raw_hash_and_its_use() {
        let raw = br#"{"ticker":{"last":"16250.5"}}"#;
        let evidence = ExchangeEvidence::quoted(
            "indodax.com",
            pair(),
            "16250.5".parse().expect("rate"),
            datetime!(2026-12-01 00:05 UTC),
            raw,
        );
        let wire = serde_json::to_value(&evidence).expect("json");
        assert_eq!(
            wire,
            json!({"status": "quoted", "source": "indodax.com", "pair": "USDT/IDR", "rate": "16250.5",
                "takenAt": "2026-12-01T00:05:00Z", "rawSha256": hex::encode(Sha256::digest(raw)),
                "use": "comparison_only"})
        );
        assert_eq!(
            serde_json::from_value::<ExchangeEvidence>(wire).expect("read"),
            evidence
        );
    }

    #[test]
    fn unavailable_evidence_says_why() {
        let evidence = ExchangeEvidence::unavailable(
            "indodax.com",
            pair(),
            UnavailableReason::Timeout,
            "no answer within 3 s",
            datetime!(2026-12-01 00:05:03 UTC),
        );
        let wire = serde_json::to_value(&evidence).expect("json");
        assert_eq!(wire["status"], "unavailable");
        assert_eq!(wire["reason"], "timeout");
        assert_eq!(wire["use"], "comparison_only");
        assert_eq!(
            serde_json::from_value::<ExchangeEvidence>(wire).expect("read"),
            evidence
        );
    }

    #[test]
    fn evidence_for_another_use_or_with_a_float_rate_is_refused() {
        let good = json!({"status": "quoted", "source": "x", "pair": "USDT/IDR", "rate": "1.5",
            "takenAt": "2026-12-01T00:05:00Z", "rawSha256": "00".repeat(32), "use": "comparison_only"});
        assert!(serde_json::from_value::<ExchangeEvidence>(good.clone()).is_ok());
        for (field, value) in [
            ("use", json!("settlement")),
            ("rate", json!(1.5)),
            ("rate", json!("1e3")),
            ("rawSha256", json!("00")),
        ] {
            let mut bad: Value = good.clone();
            bad[field] = value;
            assert!(serde_json::from_value::<ExchangeEvidence>(bad).is_err(), "{field}");
        }
    }
}
