//! The exchange's configuration as the environment gives it (`OPINION_EXCHANGE_PRESET`, or
//! `OPINION_EXCHANGE_URL` + `_PAIR` + `_PRICE_POINTER`; `_TIMEOUT_MS`, `_MAX_ANSWER_BYTES`),
//! turned into a ticker or into none. Nothing set is no exchange, in every environment: a
//! call to a third party is a deployment's explicit choice.

use std::time::Duration;

use opinion_proof::CurrencyPair;
use serde::Deserialize;

use crate::source::{Preset, TickerSource, TickerSourceError, UnknownPreset};

/// The exchange settings, each optional (deserializable from the `exchange` section of the
/// configuration).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExchangeSettings {
    /// `indodax` or `tokocrypto`.
    pub preset: Option<String>,
    /// A custom ticker's URL.
    pub url: Option<String>,
    /// A custom ticker's pair, `BASE/QUOTE`.
    pub pair: Option<String>,
    /// Where a custom ticker's price is, as a JSON pointer.
    pub price_pointer: Option<String>,
    /// The whole call's time limit in milliseconds (default 3000).
    pub timeout_ms: Option<u64>,
    /// The largest answer read, in bytes (default 65536).
    pub max_answer_bytes: Option<usize>,
}

/// Settings that name no usable ticker.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExchangeSettingsError {
    /// A preset and a custom URL, pair or pointer together.
    #[error("set either OPINION_EXCHANGE_PRESET or OPINION_EXCHANGE_URL, _PAIR and _PRICE_POINTER, not both")]
    PresetAndCustom,
    /// A custom ticker without all three of its settings.
    #[error("a custom exchange needs OPINION_EXCHANGE_URL, OPINION_EXCHANGE_PAIR and OPINION_EXCHANGE_PRICE_POINTER")]
    IncompleteCustom,
    /// Limits without any ticker.
    #[error("exchange limits are set but no exchange is")]
    LimitsWithoutTicker,
    /// See `UnknownPreset`.
    #[error(transparent)]
    Preset(#[from] UnknownPreset),
    /// The pair is not `BASE/QUOTE`.
    #[error("OPINION_EXCHANGE_PAIR: {0}")]
    Pair(String),
    /// See `TickerSourceError`.
    #[error(transparent)]
    Source(#[from] TickerSourceError),
}

impl ExchangeSettings {
    /// The configured ticker, `None` when no exchange is configured.
    pub fn ticker(&self) -> Result<Option<TickerSource>, ExchangeSettingsError> {
        let custom = [&self.url, &self.pair, &self.price_pointer];
        let source = match (&self.preset, custom) {
            (Some(_), custom) if custom.iter().any(|setting| setting.is_some()) => {
                return Err(ExchangeSettingsError::PresetAndCustom);
            }
            (Some(preset), _) => preset.parse::<Preset>()?.source()?,
            (None, [Some(url), Some(pair), Some(pointer)]) => {
                let pair: CurrencyPair = pair
                    .parse()
                    .map_err(|error| ExchangeSettingsError::Pair(format!("{error}")))?;
                TickerSource::new(url, pair, pointer)?
            }
            (None, [None, None, None]) => {
                if self.timeout_ms.is_some() || self.max_answer_bytes.is_some() {
                    return Err(ExchangeSettingsError::LimitsWithoutTicker);
                }
                return Ok(None);
            }
            (None, _) => return Err(ExchangeSettingsError::IncompleteCustom),
        };
        let source = match self.timeout_ms {
            Some(millis) => source.with_timeout(Duration::from_millis(millis))?,
            None => source,
        };
        let source = match self.max_answer_bytes {
            Some(max) => source.with_max_answer_bytes(max)?,
            None => source,
        };
        Ok(Some(source))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn custom() -> ExchangeSettings {
        ExchangeSettings {
            url: Some("https://rates.example/ticker".into()),
            pair: Some("USD/IDR".into()),
            price_pointer: Some("/data/rate".into()),
            ..ExchangeSettings::default()
        }
    }

    #[test]
    fn nothing_set_is_no_exchange() {
        assert_eq!(ExchangeSettings::default().ticker(), Ok(None));
    }

    #[test]
    fn a_preset_or_a_complete_custom_ticker_is_taken_with_its_limits() {
        let preset = ExchangeSettings {
            preset: Some("indodax".into()),
            timeout_ms: Some(1_500),
            ..ExchangeSettings::default()
        };
        let ticker = preset.ticker().expect("valid").expect("a ticker");
        assert_eq!(ticker.source_name(), "indodax.com");
        assert_eq!(ticker.timeout(), Duration::from_millis(1_500));
        let ticker = custom().ticker().expect("valid").expect("a ticker");
        assert_eq!(ticker.pair().to_string(), "USD/IDR");
        assert_eq!(ticker.max_answer_bytes(), 64 * 1024);
    }

    #[test]
    fn mixed_incomplete_or_invalid_settings_are_refused() {
        let both = ExchangeSettings {
            preset: Some("indodax".into()),
            ..custom()
        };
        assert_eq!(both.ticker(), Err(ExchangeSettingsError::PresetAndCustom));
        let incomplete = ExchangeSettings {
            price_pointer: None,
            ..custom()
        };
        assert_eq!(incomplete.ticker(), Err(ExchangeSettingsError::IncompleteCustom));
        let limits = ExchangeSettings {
            timeout_ms: Some(1_000),
            ..ExchangeSettings::default()
        };
        assert_eq!(limits.ticker(), Err(ExchangeSettingsError::LimitsWithoutTicker));
        let unknown = ExchangeSettings {
            preset: Some("binance".into()),
            ..ExchangeSettings::default()
        };
        assert!(matches!(unknown.ticker(), Err(ExchangeSettingsError::Preset(_))));
        let pair = ExchangeSettings {
            pair: Some("USDIDR".into()),
            ..custom()
        };
        assert!(matches!(pair.ticker(), Err(ExchangeSettingsError::Pair(_))));
        let http = ExchangeSettings {
            url: Some("http://rates.example/ticker".into()),
            ..custom()
        };
        assert!(matches!(http.ticker(), Err(ExchangeSettingsError::Source(_))));
        let slow = ExchangeSettings {
            timeout_ms: Some(60_000),
            ..custom()
        };
        assert!(matches!(slow.ticker(), Err(ExchangeSettingsError::Source(_))));
    }
}
