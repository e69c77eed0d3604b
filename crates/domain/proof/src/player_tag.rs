//! Players in a proof are tags, never the operator's ids: `playerTag =
//! hex(HMAC-SHA256(statementPlayerKey, UTF-8 externalUserId))`. The key is 32 random bytes
//! made for one statement and given only to its operator, so the operator maps tags back to
//! its players and nobody else can, nor link a player across two statements.

use std::fmt;
use std::str::FromStr;

use hmac::{Hmac, Mac};
use serde_with::{DeserializeFromStr, SerializeDisplay};
use sha2::Sha256;

/// One statement's player key. It never shows its bytes in `Debug` and has no `Display`:
/// only `to_hex` writes it, for the operator's copy.
#[derive(Clone)]
pub struct PlayerKey([u8; 32]);

/// Text that is not a player key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a statement player key is 32 bytes written as 64 hex digits")]
pub struct PlayerKeyError;

impl PlayerKey {
    /// The key of these 32 random bytes (the caller draws them).
    pub const fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// The key from its 64 hex digits (as the operator's export gives it).
    pub fn from_hex(text: &str) -> Result<Self, PlayerKeyError> {
        let bytes = hex::decode(text).map_err(|_| PlayerKeyError)?;
        bytes.try_into().map(Self).map_err(|_| PlayerKeyError)
    }

    /// The key as 64 hex digits, for the operator's copy and nowhere public.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// The tag of the operator's player `external_user_id` (its UTF-8 bytes, exactly as
    /// the operator gave it).
    pub fn tag(&self, external_user_id: &str) -> PlayerTag {
        // HMAC pads a key shorter than SHA-256's 64-byte block with zeros, so the padded
        // key is the same key, and key set-up cannot fail.
        let mut key = [0u8; 64];
        key[..32].copy_from_slice(&self.0);
        let mut mac = Hmac::<Sha256>::new(&key.into());
        mac.update(external_user_id.as_bytes());
        PlayerTag(hex::encode(mac.finalize().into_bytes()))
    }
}

impl fmt::Debug for PlayerKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PlayerKey(<secret>)")
    }
}

/// A player as a proof names it: 64 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, SerializeDisplay, DeserializeFromStr)]
pub struct PlayerTag(String);

/// Text that is not a player tag.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a player tag: 64 lowercase hex digits")]
pub struct PlayerTagError(pub String);

impl PlayerTag {
    /// The hex digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for PlayerTag {
    type Err = PlayerTagError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let valid = text.len() == 64 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if valid {
            Ok(Self(text.to_owned()))
        } else {
            Err(PlayerTagError(text.to_owned()))
        }
    }
}

impl fmt::Display for PlayerTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn the_tag_is_hmac_sha256_of_the_id_under_the_key() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?". HMAC pads
        // a short key with zeros to the block size, so the 4-byte key padded to 32 bytes
        // gives the same MAC.
        let mut bytes = [0u8; 32];
        bytes[..4].copy_from_slice(b"Jefe");
        let tag = PlayerKey::from_bytes(bytes).tag("what do ya want for nothing?");
        assert_eq!(
            tag.as_str(),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn the_key_never_shows_its_bytes() {
        let key = PlayerKey::from_bytes([0xab; 32]);
        assert!(!format!("{key:?}").contains("ab"));
        assert!(!format!("{key:?}").contains("171"));
        assert_eq!(PlayerKey::from_hex(&key.to_hex()).map(|k| k.0), Ok([0xab; 32]));
        assert_eq!(PlayerKey::from_hex("abcd").map(|k| k.0), Err(PlayerKeyError));
    }

    #[test]
    fn a_tag_is_64_lowercase_hex_digits() {
        let tag = PlayerKey::from_bytes([1; 32]).tag("player-1");
        assert_eq!(tag.as_str().parse::<PlayerTag>(), Ok(tag.clone()));
        assert!(tag.as_str().to_uppercase().parse::<PlayerTag>().is_err());
        assert!("abc".parse::<PlayerTag>().is_err());
    }

    proptest! {
        #[test]
        fn another_statement_key_gives_another_tag(
            id in "[ -~]{1,40}",
            one in any::<[u8; 32]>(),
            other in any::<[u8; 32]>(),
        ) {
            prop_assume!(one != other);
            let first = PlayerKey::from_bytes(one).tag(&id);
            prop_assert_eq!(&first, &PlayerKey::from_bytes(one).tag(&id));
            prop_assert_ne!(&first, &PlayerKey::from_bytes(other).tag(&id));
        }
    }
}
