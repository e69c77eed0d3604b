//! A chain's public salt: the HMAC message of every crash point of the chain. It is
//! published with the commitment before any flight of the chain boards, so it is short
//! visible ASCII that copies and pastes without doubt (no spaces, no look-alike Unicode).

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};

/// 1 to 64 visible ASCII characters (`!` to `~`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, SerializeDisplay, DeserializeFromStr)]
pub struct Salt(String);

/// Text that cannot be a salt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a salt is 1 to {max} visible ASCII characters (no spaces)", max = Salt::MAX_LEN)]
pub struct SaltError;

impl Salt {
    /// The longest salt, in characters.
    pub const MAX_LEN: usize = 64;

    /// The salt `text`, refused unless it is 1 to 64 visible ASCII characters.
    pub fn new(text: impl Into<String>) -> Result<Self, SaltError> {
        let text = text.into();
        let valid = (1..=Self::MAX_LEN).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_graphic());
        if valid { Ok(Self(text)) } else { Err(SaltError) }
    }

    /// The salt's text; its UTF-8 bytes are the HMAC message.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Salt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for Salt {
    type Err = SaltError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::new(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_visible_ascii_up_to_64() {
        assert_eq!(
            Salt::new("flight-test-vector-salt-0001").map(|s| s.as_str().to_owned()),
            Ok("flight-test-vector-salt-0001".to_owned())
        );
        assert!(Salt::new("x".repeat(64)).is_ok());
        assert!(Salt::new("!~").is_ok());
    }

    #[test]
    fn refuses_empty_long_spaced_or_non_ascii() {
        for bad in [
            String::new(),
            "x".repeat(65),
            "a b".into(),
            " a".into(),
            "a\n".into(),
            "sel€".into(),
            "a\u{7f}".into(),
        ] {
            assert_eq!(Salt::new(bad.clone()), Err(SaltError), "{bad:?} accepted");
        }
    }

    #[test]
    fn serde_is_the_plain_string() {
        let salt = Salt::new("abc").ok();
        assert_eq!(serde_json::to_string(&salt).ok().as_deref(), Some("\"abc\""));
        assert!(serde_json::from_str::<Salt>("\"a b\"").is_err());
    }
}
