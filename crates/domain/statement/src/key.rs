//! Ed25519 keys of the platform's statements. A key id is derived from the public key
//! (`ed25519:` and the first 16 hex digits of its SHA-256), so it names exactly one key
//! and an operator can recompute it from the published key.

use std::fmt;

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use sha2::{Digest, Sha256};

/// A key that is not an Ed25519 key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// Not 64 hex digits (32 bytes).
    #[error("a key is 32 bytes written as 64 hex digits")]
    Encoding,
    /// 32 bytes that are no valid Ed25519 public key.
    #[error("the bytes are not a valid Ed25519 public key")]
    InvalidPublicKey,
}

/// The platform's secret signing key.
#[derive(Clone)]
pub struct StatementKey(SigningKey);

impl StatementKey {
    /// The key whose secret seed is `seed` (32 random bytes the caller keeps secret).
    pub fn from_seed(seed: [u8; 32]) -> Self {
        Self(SigningKey::from_bytes(&seed))
    }

    /// The key from its seed written as 64 hex digits (how configuration holds it).
    pub fn from_hex(text: &str) -> Result<Self, KeyError> {
        Ok(Self::from_seed(bytes32(text.trim())?))
    }

    /// The seed as 64 hex digits, to keep the key.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0.to_bytes())
    }

    /// Its public half.
    pub fn public_key(&self) -> PublicKey {
        PublicKey(self.0.verifying_key())
    }

    /// Its key id.
    pub fn key_id(&self) -> KeyId {
        self.public_key().key_id()
    }

    pub(crate) fn sign(&self, message: &[u8]) -> Signature {
        self.0.sign(message)
    }
}

impl fmt::Debug for StatementKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StatementKey({})", self.key_id())
    }
}

/// A public key that verifies statements, published with its key id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublicKey(VerifyingKey);

impl PublicKey {
    /// The key written as 64 hex digits.
    pub fn from_hex(text: &str) -> Result<Self, KeyError> {
        VerifyingKey::from_bytes(&bytes32(text.trim())?)
            .map(Self)
            .map_err(|_| KeyError::InvalidPublicKey)
    }

    /// Its 32 bytes as 64 hex digits.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0.as_bytes())
    }

    /// Its id: `ed25519:` and the first 16 hex digits of SHA-256 of its 32 bytes.
    pub fn key_id(&self) -> KeyId {
        let digest = hex::encode(Sha256::digest(self.0.as_bytes()));
        KeyId(format!("ed25519:{}", &digest[..16]))
    }

    pub(crate) fn verifies(&self, message: &[u8], signature: &Signature) -> bool {
        self.0.verify_strict(message, signature).is_ok()
    }
}

/// The id every signed document names its key by.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyId(String);

impl KeyId {
    /// The id as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn bytes32(text: &str) -> Result<[u8; 32], KeyError> {
    let bytes = hex::decode(text).map_err(|_| KeyError::Encoding)?;
    bytes.try_into().map_err(|_| KeyError::Encoding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_id_is_derived_from_the_public_key() {
        let key = StatementKey::from_seed([7; 32]);
        let id = key.key_id();
        assert!(id.as_str().starts_with("ed25519:"));
        assert_eq!(id.as_str().len(), "ed25519:".len() + 16);
        assert_eq!(
            PublicKey::from_hex(&key.public_key().to_hex())
                .expect("public")
                .key_id(),
            id
        );
        assert_ne!(StatementKey::from_seed([8; 32]).key_id(), id);
    }

    #[test]
    fn a_key_survives_its_hex_and_its_debug_shows_no_secret() {
        let key = StatementKey::from_seed([9; 32]);
        let again = StatementKey::from_hex(&key.to_hex()).expect("key");
        assert_eq!(again.public_key(), key.public_key());
        assert!(!format!("{key:?}").contains(&key.to_hex()));
    }

    #[test]
    fn malformed_keys_are_refused() {
        assert_eq!(StatementKey::from_hex("abc").unwrap_err(), KeyError::Encoding);
        assert_eq!(PublicKey::from_hex(&"zz".repeat(32)).unwrap_err(), KeyError::Encoding);
        assert_eq!(PublicKey::from_hex(&"00".repeat(31)).unwrap_err(), KeyError::Encoding);
    }
}
