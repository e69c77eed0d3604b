//! Where a quote comes from: a ticker URL answering JSON, the pair it prices, where the
//! price is in the answer (an RFC 6901 JSON pointer), how long the whole call may take and
//! how large the answer may be. The URL must be HTTPS; plain HTTP is taken only for a
//! loopback host (a stand-in exchange on the same machine).
//!
//! Presets for public tickers that quote IDR:
//!
//! | preset | URL | price at | pair | checked |
//! |---|---|---|---|---|
//! | `indodax` | `https://indodax.com/api/ticker/usdtidr` | `/ticker/last` (a string) | USDT/IDR | against Indodax's published public REST API documentation |
//! | `tokocrypto` | `https://www.tokocrypto.com/api/v3/ticker/price?symbol=USDTIDR` | `/price` (a string) | USDT/IDR | the answer's shape is Binance's `ticker/price` (`{"symbol", "price"}`); the host and symbol are assumed, not confirmed |

use std::str::FromStr;
use std::time::Duration;

use opinion_proof::CurrencyPair;
use reqwest::Url;

/// The whole call's time limit unless configured.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(3);
/// The largest answer read unless configured: a ticker answer is well under a kilobyte.
pub const DEFAULT_MAX_ANSWER_BYTES: usize = 64 * 1024;
/// The shortest and longest time limits accepted.
const TIMEOUT_BOUNDS: (Duration, Duration) = (Duration::from_millis(50), Duration::from_secs(30));

/// A ticker that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TickerSourceError {
    /// Not a URL.
    #[error("`{0}` is not a URL")]
    Url(String),
    /// Not HTTPS (and not a loopback HTTP stand-in), or without a host.
    #[error("`{0}` must be an https:// URL with a host")]
    NotHttps(String),
    /// Not an RFC 6901 JSON pointer (`/ticker/last`).
    #[error("`{0}` is not a JSON pointer: it starts with `/`")]
    Pointer(String),
    /// A time limit outside 50 ms to 30 s.
    #[error("the time limit must be 50 ms to 30 s, got {0:?}")]
    Timeout(Duration),
    /// A size limit of zero.
    #[error("the answer size limit must be more than zero")]
    MaxAnswerBytes,
}

/// One ticker to take quotes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TickerSource {
    url: Url,
    pair: CurrencyPair,
    price_pointer: String,
    timeout: Duration,
    max_answer_bytes: usize,
}

impl TickerSource {
    /// The ticker at `url` pricing `pair`, its price at `price_pointer`, with the default
    /// limits.
    pub fn new(url: &str, pair: CurrencyPair, price_pointer: &str) -> Result<Self, TickerSourceError> {
        let parsed = Url::parse(url).map_err(|_| TickerSourceError::Url(url.to_owned()))?;
        let loopback = matches!(parsed.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
        let secure = parsed.scheme() == "https" || (parsed.scheme() == "http" && loopback);
        if !secure || parsed.host_str().is_none_or(str::is_empty) {
            return Err(TickerSourceError::NotHttps(url.to_owned()));
        }
        if !price_pointer.starts_with('/') {
            return Err(TickerSourceError::Pointer(price_pointer.to_owned()));
        }
        Ok(Self {
            url: parsed,
            pair,
            price_pointer: price_pointer.to_owned(),
            timeout: DEFAULT_TIMEOUT,
            max_answer_bytes: DEFAULT_MAX_ANSWER_BYTES,
        })
    }

    /// The same ticker with another time limit for the whole call.
    pub fn with_timeout(mut self, timeout: Duration) -> Result<Self, TickerSourceError> {
        if timeout < TIMEOUT_BOUNDS.0 || timeout > TIMEOUT_BOUNDS.1 {
            return Err(TickerSourceError::Timeout(timeout));
        }
        self.timeout = timeout;
        Ok(self)
    }

    /// The same ticker with another answer size limit.
    pub fn with_max_answer_bytes(mut self, max: usize) -> Result<Self, TickerSourceError> {
        if max == 0 {
            return Err(TickerSourceError::MaxAnswerBytes);
        }
        self.max_answer_bytes = max;
        Ok(self)
    }

    /// The URL asked.
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// The pair it prices.
    pub fn pair(&self) -> &CurrencyPair {
        &self.pair
    }

    /// Where the price is in the answer.
    pub fn price_pointer(&self) -> &str {
        &self.price_pointer
    }

    /// The whole call's time limit.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The largest answer read.
    pub fn max_answer_bytes(&self) -> usize {
        self.max_answer_bytes
    }

    /// The evidence's `source`: the URL's host (with its port when not the default).
    pub fn source_name(&self) -> String {
        let host = self.url.host_str().unwrap_or_default();
        match self.url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        }
    }
}

/// A documented public ticker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// Indodax's USDT/IDR ticker.
    Indodax,
    /// Tokocrypto's USDT/IDR price (Binance-style).
    Tokocrypto,
}

/// A preset name that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an exchange preset: indodax or tokocrypto")]
pub struct UnknownPreset(pub String);

impl FromStr for Preset {
    type Err = UnknownPreset;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "indodax" => Ok(Self::Indodax),
            "tokocrypto" => Ok(Self::Tokocrypto),
            _ => Err(UnknownPreset(text.to_owned())),
        }
    }
}

impl Preset {
    /// The preset's ticker, with the default limits (always valid: a test holds them).
    pub fn source(self) -> Result<TickerSource, TickerSourceError> {
        let (url, pointer) = match self {
            Self::Indodax => ("https://indodax.com/api/ticker/usdtidr", "/ticker/last"),
            Self::Tokocrypto => (
                "https://www.tokocrypto.com/api/v3/ticker/price?symbol=USDTIDR",
                "/price",
            ),
        };
        let pair = CurrencyPair::from_str("USDT/IDR").map_err(|error| TickerSourceError::Url(error.to_string()))?;
        TickerSource::new(url, pair, pointer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair() -> CurrencyPair {
        "USDT/IDR".parse().expect("pair")
    }

    #[test]
    fn only_https_or_a_loopback_stand_in_is_taken() {
        assert!(TickerSource::new("https://indodax.com/api/ticker/usdtidr", pair(), "/ticker/last").is_ok());
        assert!(TickerSource::new("http://127.0.0.1:8080/t", pair(), "/price").is_ok());
        for bad in ["http://indodax.com/api", "ftp://x/y", "not a url", "https://"] {
            assert!(TickerSource::new(bad, pair(), "/price").is_err(), "{bad}");
        }
        assert_eq!(
            TickerSource::new("https://x.test/", pair(), "price"),
            Err(TickerSourceError::Pointer("price".into()))
        );
    }

    #[test]
    fn limits_are_bounded() {
        let source = TickerSource::new("https://x.test/", pair(), "/price").expect("source");
        assert_eq!(source.timeout(), Duration::from_secs(3));
        assert!(source.clone().with_timeout(Duration::from_millis(10)).is_err());
        assert!(source.clone().with_timeout(Duration::from_secs(31)).is_err());
        assert!(source.clone().with_max_answer_bytes(0).is_err());
        assert_eq!(
            source.with_timeout(Duration::from_secs(1)).map(|s| s.timeout()),
            Ok(Duration::from_secs(1))
        );
    }

    #[test]
    fn the_presets_are_valid_and_named_by_host() {
        let indodax = Preset::Indodax.source().expect("indodax");
        assert_eq!(indodax.source_name(), "indodax.com");
        assert_eq!(indodax.price_pointer(), "/ticker/last");
        assert_eq!(
            Preset::Tokocrypto.source().expect("tokocrypto").price_pointer(),
            "/price"
        );
        assert_eq!("indodax".parse(), Ok(Preset::Indodax));
        assert!("binance".parse::<Preset>().is_err());
    }
}
