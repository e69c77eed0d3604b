//! Secrets at rest. The platform must sign with an operator's secret, so it keeps the
//! secret itself, not a hash; a copy of the database must still not hand the secrets
//! out. Each secret is sealed with AES-256-GCM under a key derived (HKDF-SHA256) from the
//! service's data key, with its own random nonce, and bound by the associated data to
//! where it is stored (table, operator, slot): a sealed value copied to another row or
//! slot does not open. Written `v1.<base64(nonce ‖ ciphertext ‖ tag)>`.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::hkdf::{HKDF_SHA256, Salt};
use ring::rand::{SecureRandom, SystemRandom};

const VERSION_PREFIX: &str = "v1.";
const SALT: &[u8] = b"opinion.store.data-key.v1";
const INFO: &[u8] = b"opinion.store.sealed-secrets";
/// Bytes of an AES-GCM tag.
const TAG_LEN: usize = 16;

/// The key that seals secrets at rest (`OPINION_DATA_KEY`). `Debug` never shows it.
pub struct DataKey {
    key: LessSafeKey,
    random: SystemRandom,
}

/// Why a data key cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataKeyError(usize);

impl fmt::Display for DataKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the data key needs at least {} bytes of key material, not {}",
            DataKey::MIN_BYTES,
            self.0
        )
    }
}

impl std::error::Error for DataKeyError {}

/// A sealed value that does not open: another key, another place, or damaged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SealError;

impl fmt::Display for SealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sealed secret cannot be sealed or opened with this data key in this place")
    }
}

impl DataKey {
    /// Fewest bytes of key material accepted.
    pub const MIN_BYTES: usize = 32;

    /// Derives the sealing key from `material` (at least [`Self::MIN_BYTES`] random bytes).
    pub fn derive(material: &[u8]) -> Result<Self, DataKeyError> {
        if material.len() < Self::MIN_BYTES {
            return Err(DataKeyError(material.len()));
        }
        let pseudo_random_key = Salt::new(HKDF_SHA256, SALT).extract(material);
        let okm = pseudo_random_key
            .expand(&[INFO], &AES_256_GCM)
            .map_err(|_| DataKeyError(material.len()))?;
        Ok(Self {
            key: LessSafeKey::new(UnboundKey::from(okm)),
            random: SystemRandom::new(),
        })
    }

    /// Seals `secret` for the place named by `context`.
    pub(crate) fn seal(&self, secret: &[u8], context: &str) -> Result<String, SealError> {
        let mut nonce = [0u8; NONCE_LEN];
        self.random.fill(&mut nonce).map_err(|_| SealError)?;
        let mut sealed = secret.to_vec();
        self.key
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(context.as_bytes()),
                &mut sealed,
            )
            .map_err(|_| SealError)?;
        let mut bytes = nonce.to_vec();
        bytes.append(&mut sealed);
        Ok(format!("{VERSION_PREFIX}{}", STANDARD.encode(bytes)))
    }

    /// Opens a value sealed for the place named by `context`.
    pub(crate) fn open(&self, sealed: &str, context: &str) -> Result<Vec<u8>, SealError> {
        let encoded = sealed.strip_prefix(VERSION_PREFIX).ok_or(SealError)?;
        let bytes = STANDARD.decode(encoded).map_err(|_| SealError)?;
        if bytes.len() < NONCE_LEN + TAG_LEN {
            return Err(SealError);
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| SealError)?;
        let mut in_out = ciphertext.to_vec();
        let opened = self
            .key
            .open_in_place(nonce, Aad::from(context.as_bytes()), &mut in_out)
            .map_err(|_| SealError)?;
        Ok(opened.to_vec())
    }
}

impl fmt::Debug for DataKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DataKey(redacted)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(byte: u8) -> DataKey {
        DataKey::derive(&[byte; 32]).expect("key")
    }

    #[test]
    fn opens_what_it_sealed_in_the_same_place_only() {
        let key = key(1);
        let sealed = key.seal(b"secret bytes", "wallet_adapters:a:current").expect("sealed");
        assert!(sealed.starts_with("v1."));
        assert!(!sealed.contains("c2VjcmV0"), "the base64 of the secret must not show");
        assert_eq!(
            key.open(&sealed, "wallet_adapters:a:current"),
            Ok(b"secret bytes".to_vec())
        );
        assert_eq!(key.open(&sealed, "wallet_adapters:b:current"), Err(SealError));
        assert_eq!(key.open(&sealed, "wallet_adapters:a:previous"), Err(SealError));
    }

    #[test]
    fn another_key_or_damage_does_not_open() {
        let sealed = key(1).seal(b"secret bytes", "here").expect("sealed");
        assert_eq!(key(2).open(&sealed, "here"), Err(SealError));
        let mut damaged = sealed.clone().into_bytes();
        let last = damaged.len() - 3;
        damaged[last] = if damaged[last] == b'A' { b'B' } else { b'A' };
        let damaged = String::from_utf8(damaged).expect("ascii");
        assert_eq!(key(1).open(&damaged, "here"), Err(SealError));
        for garbage in ["", "v1.", "v2.AAAA", "v1.%%%", "v1.AAAA"] {
            assert_eq!(key(1).open(garbage, "here"), Err(SealError), "{garbage}");
        }
    }

    #[test]
    fn every_seal_has_its_own_nonce() {
        let key = key(1);
        assert_ne!(key.seal(b"same", "here"), key.seal(b"same", "here"));
    }

    #[test]
    fn short_material_is_refused_and_debug_is_redacted() {
        assert_eq!(DataKey::derive(&[1; 31]).err(), Some(DataKeyError(31)));
        assert_eq!(format!("{:?}", key(1)), "DataKey(redacted)");
    }
}
