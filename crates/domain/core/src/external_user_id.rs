//! The operator's own identifier of a player: what its wallet knows the player by, so it
//! is sent to the wallet exactly as the operator gave it.

use std::fmt;

/// An operator's player id: 1 to 128 characters, no control characters, no leading or
/// trailing white space (it is compared and sent byte for byte).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExternalUserId(String);

/// Why a text is not an external user id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ExternalUserIdError {
    /// Empty, or longer than [`ExternalUserId::MAX_CHARS`].
    #[error("must be 1 to {max} characters", max = ExternalUserId::MAX_CHARS)]
    Length,
    /// Has a control character or white space at either end.
    #[error("must not contain control characters or start or end with white space")]
    Character,
}

impl ExternalUserId {
    /// Longest id accepted, in characters.
    pub const MAX_CHARS: usize = 128;

    /// Checks an operator's player id.
    pub fn parse(text: &str) -> Result<Self, ExternalUserIdError> {
        let chars = text.chars().count();
        if chars == 0 || chars > Self::MAX_CHARS {
            return Err(ExternalUserIdError::Length);
        }
        if text.chars().any(char::is_control) || text.trim() != text {
            return Err(ExternalUserIdError::Character);
        }
        Ok(Self(text.to_owned()))
    }

    /// The id as the operator wrote it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The id as an owned string.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for ExternalUserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_what_operators_use() {
        for id in ["42", "player-9f1c", "ana@example.com", "ユーザー1", &"x".repeat(128)] {
            assert_eq!(ExternalUserId::parse(id).map(|i| i.to_string()), Ok(id.to_owned()));
        }
    }

    #[test]
    fn refuses_empty_long_padded_and_control_characters() {
        assert_eq!(ExternalUserId::parse(""), Err(ExternalUserIdError::Length));
        assert_eq!(
            ExternalUserId::parse(&"x".repeat(129)),
            Err(ExternalUserIdError::Length)
        );
        for bad in [" 42", "42 ", "a\nb", "a\u{0}b"] {
            assert_eq!(
                ExternalUserId::parse(bad),
                Err(ExternalUserIdError::Character),
                "{bad:?}"
            );
        }
    }
}
