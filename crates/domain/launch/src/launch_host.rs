//! A launch host: a host name an operator points at the service (its own sub-domain, for
//! instance `play.casino.example`) so its players open the hosted app under its name.

use std::fmt;

use crate::dns_name::{self, DnsNameProblem, dns_name_pattern};

/// A lower-case DNS host name without scheme, port or path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LaunchHost(String);

/// Why a text is not a launch host.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` {}", problem.explain())]
pub struct LaunchHostError {
    text: String,
    problem: DnsNameProblem,
}

impl LaunchHost {
    /// Longest name accepted, the DNS limit.
    pub const MAX_CHARS: usize = 253;

    /// Names `parse` accepts, as a regular expression for the API document: labels of
    /// `a-z0-9-` (1 to 63, no hyphen at either end), at least two, the last one starting
    /// with a letter. A last label starting with a digit and holding a letter later is
    /// also accepted by `parse`; the document leaves it out, as no regular expression
    /// without look-ahead says "not all digits" within 63 characters.
    pub const PATTERN: &'static str = concat!("^", dns_name_pattern!(), "$");

    /// Checks a host name as the operator wrote it.
    pub fn parse(text: &str) -> Result<Self, LaunchHostError> {
        dns_name::check(text).map_err(|problem| LaunchHostError {
            text: text.chars().take(64).collect(),
            problem,
        })?;
        Ok(Self(text.to_owned()))
    }

    /// The host of a request's `Host` header: lower-cased, without a port or the
    /// trailing dot of a fully qualified name; `None` when no launch host could match.
    pub fn of_request(header: &str) -> Option<Self> {
        let name = match header.rsplit_once(':') {
            Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => header,
        };
        let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
        Self::parse(&name).ok()
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for LaunchHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_is_a_lower_case_dns_name_and_the_refusal_names_it() {
        assert_eq!(
            LaunchHost::parse("play.casino.example").map(|h| h.to_string()),
            Ok("play.casino.example".into())
        );
        let refused = LaunchHost::parse("Play.Casino.example").expect_err("refused");
        assert_eq!(
            refused.to_string(),
            "`Play.Casino.example` must be written in lower case"
        );
        for bad in [
            "https://play.casino.example",
            "play.casino.example:8443",
            "play.casino.example/",
        ] {
            assert!(LaunchHost::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_request_host_is_read_without_port_case_or_final_dot() {
        for header in ["play.casino.example", "PLAY.casino.example:443", "play.casino.example."] {
            assert_eq!(
                LaunchHost::of_request(header).map(|h| h.to_string()),
                Some("play.casino.example".into()),
                "{header}"
            );
        }
        for header in ["127.0.0.1:8080", "[::1]:8080", "localhost", ""] {
            assert_eq!(LaunchHost::of_request(header), None, "{header}");
        }
    }
}
