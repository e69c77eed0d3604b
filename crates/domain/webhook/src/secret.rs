//! The signing secret of an endpoint: `whsec_` followed by the standard (padded) base64 of
//! 24 to 64 random bytes, as in Standard Webhooks. It is shown to the operator once at
//! creation or rotation; `Debug` never prints it, so it cannot leak through logs or
//! error reports. The random bytes are the caller's (this crate draws no randomness).

use std::fmt;
use std::str::FromStr;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// The HMAC key of an endpoint's signatures.
#[derive(Clone, PartialEq, Eq)]
pub struct SigningSecret(Vec<u8>);

/// Why bytes or text are not a signing secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    /// Fewer than 24 bytes is too weak a key; more than 64 is longer than the HMAC-SHA256
    /// block, which gains nothing.
    #[error("a signing secret holds {min} to {max} bytes, not {0}", min = SigningSecret::MIN_BYTES, max = SigningSecret::MAX_BYTES)]
    BadLength(usize),
    /// The text does not start with `whsec_`.
    #[error("a signing secret starts with `whsec_`")]
    MissingPrefix,
    /// The part after the prefix is not standard padded base64.
    #[error("a signing secret is base64 after `whsec_`")]
    NotBase64,
}

impl SigningSecret {
    /// The wire prefix, including the underscore.
    pub const PREFIX: &'static str = "whsec_";
    /// Fewest random bytes in a secret.
    pub const MIN_BYTES: usize = 24;
    /// Most random bytes in a secret.
    pub const MAX_BYTES: usize = 64;
    /// The texts `from_str` accepts, as a regular expression for the API document: the
    /// prefix, then canonical padded base64 of 24 to 64 bytes (8 to 21 groups of four,
    /// then one or two bytes more whose unused bits are zero).
    pub const PATTERN: &'static str = concat!(
        "^whsec_(([A-Za-z0-9+/]{4}){8,20}([A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?",
        "|([A-Za-z0-9+/]{4}){21}([A-Za-z0-9+/][AQgw]==)?)$"
    );

    /// Makes a secret from freshly drawn random bytes (32 is the usual choice).
    pub fn from_random_bytes(bytes: &[u8]) -> Result<Self, SecretError> {
        if (Self::MIN_BYTES..=Self::MAX_BYTES).contains(&bytes.len()) {
            Ok(Self(bytes.to_vec()))
        } else {
            Err(SecretError::BadLength(bytes.len()))
        }
    }

    /// The HMAC key.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The `whsec_…` text shown to the operator once. Named rather than `Display` so it is
    /// never printed by accident through `{}`.
    pub fn reveal(&self) -> String {
        format!("{}{}", Self::PREFIX, STANDARD.encode(&self.0))
    }
}

impl FromStr for SigningSecret {
    type Err = SecretError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let encoded = text.strip_prefix(Self::PREFIX).ok_or(SecretError::MissingPrefix)?;
        let bytes = STANDARD.decode(encoded).map_err(|_| SecretError::NotBase64)?;
        Self::from_random_bytes(&bytes)
    }
}

impl fmt::Debug for SigningSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SigningSecret(redacted)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reveals_prefixed_padded_base64() {
        let secret = SigningSecret::from_random_bytes(&[0u8; 32]);
        assert_eq!(
            secret.map(|s| s.reveal()),
            Ok("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=".to_owned())
        );
    }

    #[test]
    fn refuses_bad_lengths() {
        assert_eq!(
            SigningSecret::from_random_bytes(&[7; 23]),
            Err(SecretError::BadLength(23))
        );
        assert_eq!(
            SigningSecret::from_random_bytes(&[7; 65]),
            Err(SecretError::BadLength(65))
        );
        assert!(SigningSecret::from_random_bytes(&[7; 24]).is_ok());
        assert!(SigningSecret::from_random_bytes(&[7; 64]).is_ok());
    }

    #[test]
    fn refuses_malformed_text() {
        let cases = [
            ("", SecretError::MissingPrefix),
            ("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", SecretError::MissingPrefix),
            ("WHSEC_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", SecretError::MissingPrefix),
            ("whsec_not base64!", SecretError::NotBase64),
            (
                "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                SecretError::NotBase64,
            ),
            ("whsec_AAAA", SecretError::BadLength(3)),
        ];
        for (text, error) in cases {
            assert_eq!(text.parse::<SigningSecret>(), Err(error), "{text}");
        }
    }

    #[test]
    fn debug_never_prints_the_secret() {
        let secret = SigningSecret::from_random_bytes(&[0xAB; 32]);
        let debug = format!("{secret:?}");
        assert!(
            !debug.contains("whsec_") && !debug.contains("q6ur") && !debug.contains("171"),
            "{debug}"
        );
    }

    proptest! {
        #[test]
        fn round_trips_through_text(bytes in proptest::collection::vec(any::<u8>(), 24..=64)) {
            let secret = SigningSecret::from_random_bytes(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(secret.reveal().parse::<SigningSecret>(), Ok(secret.clone()));
            prop_assert_eq!(secret.as_bytes(), &bytes[..]);
        }
    }
}
