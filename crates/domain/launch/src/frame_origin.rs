//! A frame origin: a site allowed to show the hosted app in a frame (the operator's
//! casino page), written into the page's `Content-Security-Policy: frame-ancestors`.

use std::fmt;

use crate::dns_name::{self, dns_name_pattern};

/// `https://` and a lower-case DNS host name, with an optional port; nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FrameOrigin(String);

/// Why a text is not a frame origin.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` {problem}")]
pub struct FrameOriginError {
    text: String,
    problem: &'static str,
}

impl FrameOrigin {
    /// The length the API document allows an origin: `https://` and a host of at most
    /// `LaunchHost::MAX_CHARS`, so no host it admits is too long. The longest host with a
    /// port is also accepted, beyond it.
    pub const MAX_DOCUMENTED_CHARS: usize = "https://".len() + crate::LaunchHost::MAX_CHARS;

    /// The origins `parse` accepts, as a regular expression for the API document (see
    /// `LaunchHost::PATTERN` for the host). The host's length limit is no part of it: the
    /// document bounds the whole origin to `https://` and the longest host
    /// ([`FrameOrigin::MAX_DOCUMENTED_CHARS`]).
    pub const PATTERN: &'static str = concat!(
        "^https://",
        dns_name_pattern!(),
        "(:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?$"
    );

    /// Checks an origin as the operator wrote it: `https://casino.example` or
    /// `https://casino.example:8443`, without a path, not even `/`.
    pub fn parse(text: &str) -> Result<Self, FrameOriginError> {
        let refuse = |problem: &'static str| FrameOriginError {
            text: text.chars().take(80).collect(),
            problem,
        };
        let authority = text
            .strip_prefix("https://")
            .ok_or_else(|| refuse("must start with https://"))?;
        if authority.contains(['/', '?', '#']) {
            return Err(refuse(
                "must be an origin without a path, query or fragment (not even `/`)",
            ));
        }
        if authority.contains('@') {
            return Err(refuse("must not carry a user name or password"));
        }
        let (host, port) = match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        };
        if let Some(port) = port {
            let number_ok = !port.starts_with('0') && port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit());
            if !number_ok || port.parse::<u32>().map_or(true, |p| !(1..=65_535).contains(&p)) {
                return Err(refuse("has a port that is not a number from 1 to 65535"));
            }
        }
        dns_name::check(host).map_err(|problem| refuse(problem.explain()))?;
        Ok(Self(text.to_owned()))
    }

    /// The origin as written, a CSP source expression as it is.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for FrameOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_is_https_a_host_and_maybe_a_port() {
        for good in [
            "https://casino.example",
            "https://www.casino.example:8443",
            "https://a.b:1",
        ] {
            assert_eq!(
                FrameOrigin::parse(good).map(|o| o.to_string()),
                Ok(good.into()),
                "{good}"
            );
        }
        for (bad, says) in [
            ("http://casino.example", "https://"),
            ("casino.example", "https://"),
            ("https://casino.example/", "path"),
            ("https://casino.example/lobby", "path"),
            ("https://casino.example?x=1", "path"),
            ("https://casino.example#top", "path"),
            ("https://ana@casino.example", "user name"),
            ("https://casino.example:0", "port"),
            ("https://casino.example:08443", "port"),
            ("https://casino.example:65536", "port"),
            ("https://casino.example:", "port"),
            ("https://Casino.example", "lower case"),
            ("https://*.casino.example", "labels"),
            ("https://10.0.0.1", "IP address"),
            ("https://localhost:3000", "two labels"),
            ("https://casino.example 'unsafe-inline'", "labels"),
        ] {
            let error = FrameOrigin::parse(bad).expect_err(bad).to_string();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }
}
