//! RFC 6962 §2.1 hashing: a leaf is `SHA-256(0x00 ‖ bytes)`, an interior node
//! `SHA-256(0x01 ‖ left ‖ right)`, and the empty tree's root is the SHA-256 of no bytes.
//! The two prefixes keep a leaf from ever being read as a node (no second preimage).

use std::fmt;
use std::str::FromStr;

use serde_with::{DeserializeFromStr, SerializeDisplay};
use sha2::{Digest, Sha256};

/// A SHA-256 value of the tree: a leaf's hash, a subtree's root or the tree's root.
/// Written as 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, SerializeDisplay, DeserializeFromStr)]
pub struct TreeHash([u8; 32]);

/// Text that is not 64 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a tree hash: 64 lowercase hex digits")]
pub struct TreeHashError(pub String);

impl TreeHash {
    /// The hash with these 32 bytes.
    pub const fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// Its 32 bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Parses 64 lowercase hex digits.
    pub fn from_hex(text: &str) -> Result<Self, TreeHashError> {
        let lowercase = text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        let bytes = hex::decode(text).ok().filter(|_| lowercase);
        bytes
            .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
            .map(Self)
            .ok_or_else(|| TreeHashError(text.to_owned()))
    }

    /// The 64 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl fmt::Debug for TreeHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TreeHash({})", self.to_hex())
    }
}

impl fmt::Display for TreeHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl FromStr for TreeHash {
    type Err = TreeHashError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::from_hex(text)
    }
}

/// The root of the tree of no leaves: `SHA-256("")`.
pub fn empty_root() -> TreeHash {
    TreeHash(Sha256::digest([]).into())
}

/// A leaf's hash, `SHA-256(0x00 ‖ bytes)`.
pub fn leaf_hash(bytes: &[u8]) -> TreeHash {
    let mut digest = Sha256::new();
    digest.update([0x00]);
    digest.update(bytes);
    TreeHash(digest.finalize().into())
}

/// An interior node's hash, `SHA-256(0x01 ‖ left ‖ right)`.
pub fn node_hash(left: &TreeHash, right: &TreeHash) -> TreeHash {
    let mut digest = Sha256::new();
    digest.update([0x01]);
    digest.update(left.0);
    digest.update(right.0);
    TreeHash(digest.finalize().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_root_is_the_sha256_of_nothing() {
        assert_eq!(
            empty_root().to_hex(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn a_leaf_and_a_node_of_the_same_bytes_differ() {
        let (left, right) = (leaf_hash(b"a"), leaf_hash(b"b"));
        let mut joined = left.as_bytes().to_vec();
        joined.extend_from_slice(right.as_bytes());
        assert_ne!(leaf_hash(&joined), node_hash(&left, &right));
        assert_ne!(node_hash(&left, &right), node_hash(&right, &left));
    }

    #[test]
    fn only_64_lowercase_hex_digits_parse() {
        let hash = leaf_hash(b"x");
        assert_eq!(TreeHash::from_hex(&hash.to_hex()), Ok(hash));
        assert!(TreeHash::from_hex(&hash.to_hex().to_uppercase()).is_err());
        assert!(TreeHash::from_hex(&hash.to_hex()[2..]).is_err());
        assert!(TreeHash::from_hex("").is_err());
    }
}
