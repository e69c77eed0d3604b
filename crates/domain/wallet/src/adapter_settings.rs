//! Where and how long the platform calls an operator's wallet adapter: the base URL and
//! the time-out of one call, as an operator configures them. The URL text checks are the
//! webhook crate's (one rule for every outbound URL); on top of them a base URL has no
//! query or fragment, because the contract's paths are appended to it. Outside
//! production loopback and private addresses are accepted (a local wallet, the test
//! wallet), and the cloud metadata address is refused everywhere, as for webhooks.

use std::fmt;
use std::time::Duration;

use opinion_webhook::{EndpointUrlError, check_endpoint_url};
use url::Url;

/// A checked base URL, written without a trailing `/` (`https://wallet.example.com/opinion`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterBaseUrl(String);

/// Why a text is not a base URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BaseUrlError {
    /// The URL fails the outbound URL checks (scheme, user info, address, length).
    #[error(transparent)]
    Endpoint(#[from] EndpointUrlError),
    /// It has a `?query`.
    #[error("the base URL must not have a query")]
    Query,
    /// It has a `#fragment`.
    #[error("the base URL must not have a fragment")]
    Fragment,
}

impl AdapterBaseUrl {
    /// Checks `text`: `https` (or `http` outside `production`), no user info, no query or
    /// fragment, no literal forbidden address (outside production only the metadata address
    /// is one); host names are checked
    /// by the client at every call. Normalised (lower-case scheme and host, no trailing `/`).
    pub fn parse(text: &str, production: bool) -> Result<Self, BaseUrlError> {
        check_endpoint_url(text, production)?;
        let url = Url::parse(text).map_err(|_| EndpointUrlError::Unparsable)?;
        if url.query().is_some() {
            return Err(BaseUrlError::Query);
        }
        if url.fragment().is_some() {
            return Err(BaseUrlError::Fragment);
        }
        Ok(Self(url.as_str().trim_end_matches('/').to_owned()))
    }

    /// The URL, to which `/v1/…` paths are appended.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AdapterBaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How long one call may take, connecting included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AdapterTimeout(u32);

/// A time-out outside the allowed range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the time-out must be {min} to {max} milliseconds, not {0}",
    min = AdapterTimeout::MIN_MS,
    max = AdapterTimeout::MAX_MS
)]
pub struct TimeoutError(pub i64);

impl AdapterTimeout {
    /// Shortest: below a second, ordinary network jitter turns into ambiguous outcomes.
    pub const MIN_MS: u32 = 1_000;
    /// Longest: a player waits for the answer while the trade is in flight.
    pub const MAX_MS: u32 = 30_000;
    /// When none is configured.
    pub const DEFAULT: Self = Self(10_000);

    /// Accepts [`Self::MIN_MS`] to [`Self::MAX_MS`] milliseconds.
    pub fn from_millis(millis: i64) -> Result<Self, TimeoutError> {
        u32::try_from(millis)
            .ok()
            .filter(|ms| (Self::MIN_MS..=Self::MAX_MS).contains(ms))
            .map(Self)
            .ok_or(TimeoutError(millis))
    }

    /// Milliseconds.
    pub const fn as_millis(self) -> u32 {
        self.0
    }

    /// As a duration.
    pub fn as_duration(self) -> Duration {
        Duration::from_millis(u64::from(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_are_normalised_without_a_trailing_slash() {
        let rows = [
            ("https://wallet.example.com", "https://wallet.example.com"),
            ("https://wallet.example.com/", "https://wallet.example.com"),
            (
                "https://Wallet.Example.com/opinion/",
                "https://wallet.example.com/opinion",
            ),
            (
                "https://wallet.example.com:8443/a/b",
                "https://wallet.example.com:8443/a/b",
            ),
        ];
        for (text, expected) in rows {
            assert_eq!(
                AdapterBaseUrl::parse(text, true).map(|url| url.to_string()),
                Ok(expected.to_owned()),
                "{text}"
            );
        }
    }

    #[test]
    fn base_urls_are_refused_by_environment_and_shape() {
        use BaseUrlError::*;
        use EndpointUrlError::*;
        let rows = [
            (
                "http://wallet.example.com",
                true,
                Err(Endpoint(SchemeNotAllowed("http".into()))),
            ),
            ("http://wallet.example.com", false, Ok(())),
            ("http://127.0.0.1:8080", false, Ok(())),
            ("https://127.0.0.1:8080", true, Err(Endpoint(ForbiddenAddress))),
            ("https://10.0.0.8/opinion", true, Err(Endpoint(ForbiddenAddress))),
            (
                "https://[::ffff:169.254.169.254]/",
                true,
                Err(Endpoint(ForbiddenAddress)),
            ),
            ("https://user:pw@wallet.example.com", true, Err(Endpoint(UserInfo))),
            ("https://wallet.example.com/?env=live", true, Err(Query)),
            ("https://wallet.example.com/#top", true, Err(Fragment)),
            ("wallet.example.com", true, Err(Endpoint(Unparsable))),
        ];
        for (text, production, expected) in rows {
            assert_eq!(AdapterBaseUrl::parse(text, production).map(drop), expected, "{text}");
        }
    }

    #[test]
    fn time_outs_are_bounded() {
        assert_eq!(
            AdapterTimeout::from_millis(1_000).map(AdapterTimeout::as_millis),
            Ok(1_000)
        );
        assert_eq!(
            AdapterTimeout::from_millis(30_000).map(AdapterTimeout::as_millis),
            Ok(30_000)
        );
        for bad in [999, 30_001, 0, -1, i64::MAX] {
            assert_eq!(AdapterTimeout::from_millis(bad), Err(TimeoutError(bad)));
        }
        assert_eq!(AdapterTimeout::DEFAULT.as_duration(), Duration::from_secs(10));
    }
}
