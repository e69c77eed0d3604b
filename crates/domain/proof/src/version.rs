//! The proof's format version. This platform issues version 5 only (the contract's "v5
//! proof"), and a verifier refuses any other: a document that says 4, 6, `"5"` or
//! nothing is not a proof this verifier understands, and guessing would prove nothing.

use serde_json::Value;

/// The one proof format this platform issues and verifies.
pub const PROOF_VERSION: u64 = 5;

/// The field that names the version in a signed statement or a ticket's proof.
pub const PROOF_VERSION_FIELD: &str = "proofVersion";

/// A document whose proof version is not 5.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProofVersionError {
    /// The document names no `proofVersion`.
    #[error("the document names no proofVersion")]
    Missing,
    /// It names another version, or not as the JSON integer 5.
    #[error("proofVersion {0} is not supported: only the integer 5 is")]
    Unsupported(String),
}

/// Checks that `document` says `"proofVersion": 5`, the JSON integer.
pub fn check_proof_version(document: &Value) -> Result<(), ProofVersionError> {
    match document.get(PROOF_VERSION_FIELD) {
        None => Err(ProofVersionError::Missing),
        Some(version) if version.as_u64() == Some(PROOF_VERSION) => Ok(()),
        Some(version) => Err(ProofVersionError::Unsupported(version.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_the_integer_5_is_accepted() {
        assert_eq!(check_proof_version(&json!({"proofVersion": 5})), Ok(()));
        assert_eq!(check_proof_version(&json!({})), Err(ProofVersionError::Missing));
        assert_eq!(check_proof_version(&json!([5])), Err(ProofVersionError::Missing));
        for other in [
            json!(4),
            json!(6),
            json!("5"),
            json!(5.0),
            json!(null),
            json!(-5),
            json!([5]),
        ] {
            assert!(
                matches!(
                    check_proof_version(&json!({"proofVersion": other.clone()})),
                    Err(ProofVersionError::Unsupported(_))
                ),
                "{other}"
            );
        }
    }
}
