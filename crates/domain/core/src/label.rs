//! Human-written names of things (an API key's name, an operator's or staff member's
//! name): trimmed, non-empty, bounded, printable.

use std::fmt;

/// A validated name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label(String);

/// Why a name is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    /// Nothing but white space.
    #[error("must not be empty")]
    Empty,
    /// Longer than the maximum ([`Label::MAX_CHARS`] for names).
    #[error("must be at most {max} characters")]
    TooLong {
        /// The maximum, in characters.
        max: usize,
    },
    /// Contains control characters (line breaks, NUL, …).
    #[error("must not contain control characters")]
    ControlCharacters,
}

impl Label {
    /// Longest accepted name, in characters.
    pub const MAX_CHARS: usize = 200;

    /// Trims and validates a name.
    pub fn parse(text: &str) -> Result<Self, LabelError> {
        Self::parse_at_most(text, Self::MAX_CHARS)
    }

    /// Trims and validates a one-line text of at most `max_chars` characters (a market
    /// question is a longer label than a name).
    pub fn parse_at_most(text: &str, max_chars: usize) -> Result<Self, LabelError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            Err(LabelError::Empty)
        } else if trimmed.chars().count() > max_chars {
            Err(LabelError::TooLong { max: max_chars })
        } else if trimmed.chars().any(char::is_control) {
            Err(LabelError::ControlCharacters)
        } else {
            Ok(Self(trimmed.to_owned()))
        }
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_and_bounds() {
        assert_eq!(
            Label::parse("  reporting key ").map(Label::into_string),
            Ok("reporting key".into())
        );
        assert_eq!(Label::parse("   "), Err(LabelError::Empty));
        assert!(Label::parse(&"é".repeat(200)).is_ok());
        assert_eq!(Label::parse(&"é".repeat(201)), Err(LabelError::TooLong { max: 200 }));
        assert_eq!(Label::parse_at_most("abc", 2), Err(LabelError::TooLong { max: 2 }));
        assert_eq!(Label::parse_at_most(" ab ", 2).map(Label::into_string), Ok("ab".into()));
        assert_eq!(Label::parse("a\nb"), Err(LabelError::ControlCharacters));
    }
}
