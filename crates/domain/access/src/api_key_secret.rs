//! The API key secret format: `opk_<env>_<32 base62 characters><6 base62 checksum>`,
//! where `<env>` is `live` (production), `test` (staging) or `dev` (development).
//! The checksum lets the service refuse a mistyped or truncated key without a database
//! read, and lets secret scanners recognise a real key and tell a live one from the
//! others. Only a SHA-256 hash is stored.

use std::fmt;

use sha2::{Digest, Sha256};

use crate::base62;

const PREFIX: &str = "opk";
const BODY_LEN: usize = 32;
const CHECKSUM_LEN: usize = 6;

/// The environment a key was issued in, written into the key so it is never sent to
/// the wrong one unnoticed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApiKeyEnvironment {
    /// Keys issued by a development instance: `opk_dev_…`.
    Development,
    /// Keys issued by staging, the operators' integration environment: `opk_test_…`.
    Staging,
    /// Keys issued by production: `opk_live_…`.
    Production,
}

impl ApiKeyEnvironment {
    /// The tag written in the key, and the name key reads show as its environment.
    pub const fn tag(self) -> &'static str {
        match self {
            Self::Development => "dev",
            Self::Staging => "test",
            Self::Production => "live",
        }
    }

    /// The environment a tag names, if it names one.
    pub fn from_tag(tag: &str) -> Option<Self> {
        [Self::Development, Self::Staging, Self::Production]
            .into_iter()
            .find(|env| env.tag() == tag)
    }
}

/// Why a presented string is not an API key secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SecretFormatError {
    /// It does not have the shape of a key.
    #[error("the credential is not an API key")]
    Malformed,
    /// It has the shape but its checksum does not match: a typo or a truncated copy.
    #[error("the API key's checksum does not match; it was probably copied incompletely")]
    BadChecksum,
}

/// A full API key secret. Its text is shown once, at creation; `Debug` never prints it.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKeySecret {
    text: String,
    environment: ApiKeyEnvironment,
}

/// The stored form of a secret: lower-case hex SHA-256. Keys carry about 190 bits of
/// entropy, so a fast hash is safe here and keeps authentication to one indexed read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SecretHash(pub String);

impl ApiKeySecret {
    /// Makes a new secret from 32 uniformly random bytes supplied by the caller.
    pub fn generate(environment: ApiKeyEnvironment, random: [u8; BODY_LEN]) -> Self {
        let body = base62::from_random(&random);
        let unchecked = format!("{PREFIX}_{}_{body}", environment.tag());
        let checksum = checksum_of(&unchecked);
        Self {
            text: format!("{unchecked}{checksum}"),
            environment,
        }
    }

    /// Checks that a presented string is a well-formed key with a valid checksum.
    pub fn parse(text: &str) -> Result<Self, SecretFormatError> {
        let mut parts = text.splitn(3, '_');
        let (Some(PREFIX), Some(tag), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(SecretFormatError::Malformed);
        };
        let environment = ApiKeyEnvironment::from_tag(tag).ok_or(SecretFormatError::Malformed)?;
        if rest.len() != BODY_LEN + CHECKSUM_LEN || !rest.bytes().all(|b| base62::ALPHABET.contains(&b)) {
            return Err(SecretFormatError::Malformed);
        }
        let (unchecked, checksum) = text.split_at(text.len() - CHECKSUM_LEN);
        if checksum_of(unchecked) != checksum {
            return Err(SecretFormatError::BadChecksum);
        }
        Ok(Self {
            text: text.to_owned(),
            environment,
        })
    }

    /// Whether a credential looks like an API key at all (as opposed to a session token).
    pub fn looks_like_api_key(text: &str) -> bool {
        text.starts_with("opk_")
    }

    /// The environment the key was issued in.
    pub const fn environment(&self) -> ApiKeyEnvironment {
        self.environment
    }

    /// The full secret, to hand to the operator exactly once.
    pub fn expose(&self) -> &str {
        &self.text
    }

    /// The form that is stored and looked up.
    pub fn hash(&self) -> SecretHash {
        let digest = Sha256::digest(self.text.as_bytes());
        SecretHash(digest.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// A short, non-secret beginning of the key, so people can tell their keys apart.
    pub fn hint(&self) -> String {
        let visible = PREFIX.len() + self.environment.tag().len() + 2 + 4;
        format!("{}…", &self.text[..visible])
    }
}

impl fmt::Debug for ApiKeySecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKeySecret({})", self.hint())
    }
}

fn checksum_of(unchecked: &str) -> String {
    base62::fixed_width(u64::from(crc32fast::hash(unchecked.as_bytes())), CHECKSUM_LEN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn key() -> ApiKeySecret {
        ApiKeySecret::generate(ApiKeyEnvironment::Development, [7; 32])
    }

    #[test]
    fn has_the_documented_shape() {
        let text = key().expose().to_owned();
        assert!(text.starts_with("opk_dev_"), "{text}");
        assert_eq!(text.len(), "opk_dev_".len() + 38);
    }

    #[test]
    fn the_prefix_names_the_environment() {
        for (environment, prefix) in [
            (ApiKeyEnvironment::Production, "opk_live_"),
            (ApiKeyEnvironment::Staging, "opk_test_"),
            (ApiKeyEnvironment::Development, "opk_dev_"),
        ] {
            let secret = ApiKeySecret::generate(environment, [1; 32]);
            assert!(secret.expose().starts_with(prefix), "{}", secret.expose());
            assert_eq!(secret.expose().len(), prefix.len() + 38);
            assert!(secret.hint().starts_with(prefix));
            assert_eq!(
                ApiKeySecret::parse(secret.expose()).map(|s| s.environment()),
                Ok(environment)
            );
            assert_eq!(ApiKeyEnvironment::from_tag(environment.tag()), Some(environment));
        }
        assert_eq!(ApiKeyEnvironment::from_tag("stg"), None);
        assert_eq!(ApiKeyEnvironment::from_tag("prod"), None);
    }

    #[test]
    fn a_changed_character_fails_the_checksum() {
        let text = key().expose().to_owned();
        let mut typo = text.clone().into_bytes();
        typo[12] = if typo[12] == b'a' { b'b' } else { b'a' };
        let typo = String::from_utf8(typo).expect("ascii");
        assert_eq!(ApiKeySecret::parse(&typo), Err(SecretFormatError::BadChecksum));
    }

    #[test]
    fn malformed_keys_are_refused() {
        let text = key().expose().to_owned();
        for bad in [
            "",
            "opk_dev_",
            &text[..text.len() - 1],
            &text.replace("opk_dev_", "opk_prod_"),
            &text.replace("opk_dev_", "opk_stg_"),
            &text.replace("opk_dev_", "opk_LIVE_"),
            &text.replace("opk_", "xpk_"),
            &format!("{text}0"),
            &text.replace(&text[10..11], "-"),
        ] {
            assert_eq!(ApiKeySecret::parse(bad), Err(SecretFormatError::Malformed), "{bad}");
        }
    }

    #[test]
    fn debug_never_prints_the_secret() {
        let secret = key();
        assert!(!format!("{secret:?}").contains(secret.expose()));
        assert_eq!(secret.hint().chars().count(), "opk_dev_".len() + 4 + 1);
    }

    #[test]
    fn hash_is_hex_sha256() {
        let hash = key().hash().0;
        assert_eq!(hash.len(), 64);
        assert!(hash.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
    }

    proptest! {
        #[test]
        fn every_generated_key_parses_back(random in any::<[u8; 32]>()) {
            let secret = ApiKeySecret::generate(ApiKeyEnvironment::Staging, random);
            let parsed = ApiKeySecret::parse(secret.expose());
            prop_assert_eq!(parsed.map(|s| s.hash()), Ok(secret.hash()));
        }
    }
}
