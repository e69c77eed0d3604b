//! Secrets at rest. The platform must sign with an operator's secret, so it keeps the
//! secret itself, not a hash; a copy of the database must still not hand the secrets
//! out. Each secret is sealed with AES-256-GCM under a key derived (HKDF-SHA256) from the
//! service's data key, with its own random nonce, and bound by the associated data to
//! where it is stored (table, operator, slot): a sealed value copied to another row or
//! slot does not open. Written `v2.<key id>.<base64(nonce ‖ ciphertext ‖ tag)>`, the key
//! id naming the data key that sealed it, so a rotation knows what is left to re-seal;
//! values written before key ids (`v1.<base64>`) open with whichever accepted key fits.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::hkdf::{self, HKDF_SHA256, Prk, Salt};
use ring::rand::{SecureRandom, SystemRandom};

const LEGACY_PREFIX: &str = "v1.";
const PREFIX: &str = "v2.";
const SALT: &[u8] = b"opinion.store.data-key.v1";
const INFO: &[u8] = b"opinion.store.sealed-secrets";
const KEY_ID_INFO: &[u8] = b"opinion.store.data-key-id";
/// Bytes of a key id (written as twice as many hex digits).
const KEY_ID_LEN: usize = 8;
/// Bytes of an AES-GCM tag.
const TAG_LEN: usize = 16;

/// The key that seals secrets at rest (`OPINION_DATA_KEY`), and during a rotation the
/// previous one (`OPINION_DATA_KEY_PREVIOUS`), which still opens what it sealed but never
/// seals. `Debug` never shows either.
pub struct DataKey {
    current: Sealer,
    previous: Option<Sealer>,
    random: SystemRandom,
}

/// One derived sealing key and its public id.
struct Sealer {
    key: LessSafeKey,
    id: String,
}

/// An HKDF output length, for the key id.
struct Bytes(usize);

impl hkdf::KeyType for Bytes {
    fn len(&self) -> usize {
        self.0
    }
}

impl Sealer {
    fn derive(material: &[u8]) -> Result<Self, DataKeyError> {
        if material.len() < DataKey::MIN_BYTES {
            return Err(DataKeyError(material.len()));
        }
        let failed = |_| DataKeyError(material.len());
        let pseudo_random_key: Prk = Salt::new(HKDF_SHA256, SALT).extract(material);
        let okm = pseudo_random_key.expand(&[INFO], &AES_256_GCM).map_err(failed)?;
        let mut id = [0u8; KEY_ID_LEN];
        pseudo_random_key
            .expand(&[KEY_ID_INFO], Bytes(KEY_ID_LEN))
            .and_then(|okm| okm.fill(&mut id))
            .map_err(failed)?;
        Ok(Self {
            key: LessSafeKey::new(UnboundKey::from(okm)),
            id: id.iter().map(|byte| format!("{byte:02x}")).collect(),
        })
    }

    fn open(&self, bytes: &[u8], context: &str) -> Result<Vec<u8>, SealError> {
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
        Ok(Self {
            current: Sealer::derive(material)?,
            previous: None,
            random: SystemRandom::new(),
        })
    }

    /// The same key, also opening what `previous` sealed: only while a rotation re-seals
    /// those values. The previous key never seals; the same key given twice adds nothing.
    pub fn accepting_previous(self, previous: DataKey) -> Self {
        let previous = Some(previous.current).filter(|previous| previous.id != self.current.id);
        Self { previous, ..self }
    }

    /// The public id of the key that seals (16 hex digits), written into every value it
    /// seals. It is derived apart from the sealing key and tells nothing about it.
    pub fn id(&self) -> &str {
        &self.current.id
    }

    /// The id of the previous key, when one is accepted.
    pub fn previous_id(&self) -> Option<&str> {
        self.previous.as_ref().map(|previous| previous.id.as_str())
    }

    /// Seals `secret` for the place named by `context`, under the current key.
    pub(crate) fn seal(&self, secret: &[u8], context: &str) -> Result<String, SealError> {
        let mut nonce = [0u8; NONCE_LEN];
        self.random.fill(&mut nonce).map_err(|_| SealError)?;
        let mut sealed = secret.to_vec();
        self.current
            .key
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(context.as_bytes()),
                &mut sealed,
            )
            .map_err(|_| SealError)?;
        let mut bytes = nonce.to_vec();
        bytes.append(&mut sealed);
        Ok(format!("{PREFIX}{}.{}", self.current.id, STANDARD.encode(bytes)))
    }

    /// Opens a value sealed for the place named by `context` by the current key or the
    /// accepted previous one.
    pub(crate) fn open(&self, sealed: &str, context: &str) -> Result<Vec<u8>, SealError> {
        let accepted = || std::iter::once(&self.current).chain(&self.previous);
        if let Some(encoded) = sealed.strip_prefix(LEGACY_PREFIX) {
            let bytes = STANDARD.decode(encoded).map_err(|_| SealError)?;
            return accepted()
                .find_map(|sealer| sealer.open(&bytes, context).ok())
                .ok_or(SealError);
        }
        let id = key_id_of(sealed).ok_or(SealError)?;
        let encoded = &sealed[PREFIX.len() + id.len() + 1..];
        let bytes = STANDARD.decode(encoded).map_err(|_| SealError)?;
        accepted()
            .find(|sealer| sealer.id == id)
            .ok_or(SealError)?
            .open(&bytes, context)
    }
}

/// The key id a `v2.` value names, if it is one.
fn key_id_of(sealed: &str) -> Option<&str> {
    let (id, _) = sealed.strip_prefix(PREFIX)?.split_once('.')?;
    Some(id)
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

    /// A value as the service sealed it before key ids, with key `byte`.
    fn legacy(byte: u8, secret: &[u8], context: &str) -> String {
        let sealed = key(byte).seal(secret, context).expect("sealed");
        let (_, encoded) = sealed.rsplit_once('.').expect("v2 form");
        format!("{LEGACY_PREFIX}{encoded}")
    }

    #[test]
    fn opens_what_it_sealed_in_the_same_place_only() {
        let key = key(1);
        let sealed = key.seal(b"secret bytes", "wallet_adapters:a:current").expect("sealed");
        assert!(sealed.starts_with(&format!("v2.{}.", key.id())));
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
        let id = key(1).id().to_owned();
        let garbage = [
            String::new(),
            "v1.".into(),
            "v2.AAAA".into(),
            "v1.%%%".into(),
            "v1.AAAA".into(),
            format!("v2.{id}."),
            format!("v2.{id}.%%%"),
            format!("v2.{id}.AAAA"),
            "v3.AAAA".into(),
        ];
        for garbage in garbage {
            assert_eq!(key(1).open(&garbage, "here"), Err(SealError), "{garbage}");
        }
    }

    #[test]
    fn key_ids_name_the_key_stably_and_differ_between_keys() {
        assert_eq!(key(1).id(), key(1).id());
        assert_ne!(key(1).id(), key(2).id());
        assert_eq!(key(1).id().len(), 16);
        assert!(
            key(1)
                .id()
                .chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
        assert_eq!(key(1).previous_id(), None);
        assert_eq!(key(2).accepting_previous(key(1)).previous_id(), Some(key(1).id()));
        assert_eq!(key(1).accepting_previous(key(1)).previous_id(), None);
    }

    #[test]
    fn the_previous_key_opens_what_it_sealed_but_seals_nothing() {
        let old = key(1).seal(b"old secret", "here").expect("sealed");
        let rotating = key(2).accepting_previous(key(1));
        assert_eq!(rotating.open(&old, "here"), Ok(b"old secret".to_vec()));
        assert_eq!(rotating.open(&old, "there"), Err(SealError), "still bound to its place");
        assert_eq!(key_id_of(&old), Some(key(1).id()));
        let resealed = rotating.seal(b"old secret", "here").expect("sealed");
        assert_eq!(key_id_of(&resealed), Some(rotating.id()));
        assert_eq!(key(2).open(&resealed, "here"), Ok(b"old secret".to_vec()));
        assert_eq!(key(1).open(&resealed, "here"), Err(SealError));
        assert_eq!(key(2).open(&old, "here"), Err(SealError), "without the previous key");
        assert_eq!(key(3).accepting_previous(key(4)).open(&old, "here"), Err(SealError));
    }

    #[test]
    fn values_sealed_before_key_ids_open_with_whichever_key_fits() {
        let old = legacy(1, b"legacy", "here");
        assert_eq!(key(1).open(&old, "here"), Ok(b"legacy".to_vec()));
        assert_eq!(key(2).open(&old, "here"), Err(SealError));
        assert_eq!(
            key(2).accepting_previous(key(1)).open(&old, "here"),
            Ok(b"legacy".to_vec())
        );
        assert_eq!(
            key(1).accepting_previous(key(2)).open(&old, "here"),
            Ok(b"legacy".to_vec())
        );
        assert_eq!(key(1).open(&old, "there"), Err(SealError));
        assert_eq!(key_id_of(&old), None, "a legacy value names no key");
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
        assert_eq!(format!("{:?}", key(2).accepting_previous(key(1))), "DataKey(redacted)");
    }
}
