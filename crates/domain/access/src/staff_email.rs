//! Staff e-mail addresses: the staff member's login name, unique across the platform.

use std::fmt;

/// A normalised (trimmed, lower-case) e-mail address.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StaffEmail(String);

/// Why an address is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`email` must be an e-mail address like name@example.com (at most 254 characters)")]
pub struct StaffEmailError;

impl StaffEmail {
    /// Longest address accepted, the SMTP path limit.
    pub const MAX_CHARS: usize = 254;

    /// Normalises and checks an address: one `@`, a non-empty local part, a dotted domain.
    pub fn parse(text: &str) -> Result<Self, StaffEmailError> {
        let email = text.trim().to_lowercase();
        let (local, domain) = email.split_once('@').ok_or(StaffEmailError)?;
        let domain_ok =
            domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.') && !domain.contains('@');
        let plain = !email.chars().any(|c| c.is_whitespace() || c.is_control());
        if local.is_empty() || !domain_ok || !plain || email.len() > Self::MAX_CHARS {
            return Err(StaffEmailError);
        }
        Ok(Self(email))
    }

    /// The normalised address.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for StaffEmail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_case_and_space() {
        assert_eq!(
            StaffEmail::parse("  Ana@Example.COM ").map(|e| e.to_string()),
            Ok("ana@example.com".into())
        );
    }

    #[test]
    fn refuses_non_addresses() {
        for bad in [
            "",
            "ana",
            "ana@",
            "@example.com",
            "ana@example",
            "ana@.com",
            "ana@example.com.",
            "a na@example.com",
            "a@b@example.com",
        ] {
            assert_eq!(StaffEmail::parse(bad), Err(StaffEmailError), "{bad}");
        }
    }
}
