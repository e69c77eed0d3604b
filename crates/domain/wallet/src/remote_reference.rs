//! The operator wallet's own reference of an applied mutation. Kept on every operation
//! for reconciliation (contract rule 7), so it must be something staff can read and
//! search for in the operator's wallet log.

use std::fmt;

use serde_with::{DeserializeFromStr, SerializeDisplay};

/// A non-empty, printable reference of at most [`RemoteReference::MAX_LEN`] bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, SerializeDisplay, DeserializeFromStr)]
pub struct RemoteReference(String);

/// Why a text is not kept as a remote reference.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RemoteReferenceError {
    /// Empty or only white space.
    #[error("a remote reference must not be empty")]
    Empty,
    /// Longer than [`RemoteReference::MAX_LEN`] bytes.
    #[error("a remote reference must be at most {max} bytes", max = RemoteReference::MAX_LEN)]
    TooLong,
    /// Contains control characters.
    #[error("a remote reference must not contain control characters")]
    ControlCharacters,
}

impl RemoteReference {
    /// Longest accepted reference, in bytes.
    pub const MAX_LEN: usize = 256;

    /// Accepts a reference exactly as the wallet wrote it (no trimming: it is searched for verbatim).
    pub fn parse(text: &str) -> Result<Self, RemoteReferenceError> {
        if text.trim().is_empty() {
            Err(RemoteReferenceError::Empty)
        } else if text.len() > Self::MAX_LEN {
            Err(RemoteReferenceError::TooLong)
        } else if text.chars().any(char::is_control) {
            Err(RemoteReferenceError::ControlCharacters)
        } else {
            Ok(Self(text.to_owned()))
        }
    }

    /// The reference.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::str::FromStr for RemoteReference {
    type Err = RemoteReferenceError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse(text)
    }
}

impl fmt::Display for RemoteReference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_printable_references_verbatim() {
        assert_eq!(
            RemoteReference::parse(" tx-42 ").map(|r| r.to_string()),
            Ok(" tx-42 ".into())
        );
        assert!(RemoteReference::parse(&"r".repeat(256)).is_ok());
    }

    #[test]
    fn refuses_what_cannot_be_reconciled() {
        assert_eq!(RemoteReference::parse(""), Err(RemoteReferenceError::Empty));
        assert_eq!(RemoteReference::parse("  "), Err(RemoteReferenceError::Empty));
        assert_eq!(
            RemoteReference::parse(&"r".repeat(257)),
            Err(RemoteReferenceError::TooLong)
        );
        assert_eq!(
            RemoteReference::parse("tx\n42"),
            Err(RemoteReferenceError::ControlCharacters)
        );
    }
}
