//! A document's canonical bytes (RFC 8785, JSON Canonicalization Scheme) and its hash,
//! `hex(SHA-256(canonical bytes))`: what is signed and what the next statement names.
//! Statement documents hold no floating-point numbers (money is integer strings), so
//! any JSON library that sorts keys and writes no whitespace reproduces the bytes.

use std::fmt;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// A document that cannot be canonicalized.
#[derive(Debug, thiserror::Error)]
#[error("the document cannot be canonicalized: {0}")]
pub struct CanonicalError(String);

/// The RFC 8785 bytes of `document`.
pub fn canonical_bytes(document: &Value) -> Result<Vec<u8>, CanonicalError> {
    serde_json_canonicalizer::to_vec(document).map_err(|error| CanonicalError(error.to_string()))
}

/// The SHA-256 of a document's canonical bytes, written as 64 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DocumentHash(String);

impl DocumentHash {
    /// Parses 64 lowercase hex digits.
    pub fn parse(text: &str) -> Option<Self> {
        let valid = text.len() == 64 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        valid.then(|| Self(text.to_owned()))
    }

    /// The hex digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for DocumentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The hash of `document`.
pub fn document_hash(document: &Value) -> Result<DocumentHash, CanonicalError> {
    let bytes = canonical_bytes(document)?;
    Ok(DocumentHash(hex::encode(Sha256::digest(&bytes))))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keys_are_sorted_and_no_whitespace_is_written() {
        let document = json!({"b": 1, "a": {"d": "x", "c": [true, null]}, "é": "ü"});
        let bytes = canonical_bytes(&document).expect("canonical");
        assert_eq!(
            String::from_utf8(bytes).expect("utf-8"),
            r#"{"a":{"c":[true,null],"d":"x"},"b":1,"é":"ü"}"#
        );
    }

    #[test]
    fn the_hash_ignores_how_the_document_was_written() {
        let one: Value = serde_json::from_str(r#"{ "amount": "100", "id": "fsr_1" }"#).expect("json");
        let other: Value = serde_json::from_str(r#"{"id":"fsr_1","amount":"100"}"#).expect("json");
        assert_eq!(document_hash(&one).expect("hash"), document_hash(&other).expect("hash"));
        assert_ne!(
            document_hash(&one).expect("hash"),
            document_hash(&json!({"id": "fsr_1", "amount": "101"})).expect("hash")
        );
    }

    #[test]
    fn the_hash_of_the_empty_object_is_sha256_of_two_braces() {
        assert_eq!(
            document_hash(&json!({})).expect("hash").as_str(),
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
    }

    #[test]
    fn only_lowercase_sha256_hex_parses() {
        let hash = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";
        assert!(DocumentHash::parse(hash).is_some());
        assert!(DocumentHash::parse(&hash.to_uppercase()).is_none());
        assert!(DocumentHash::parse(&hash[1..]).is_none());
    }
}
