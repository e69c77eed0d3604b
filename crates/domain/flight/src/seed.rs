//! A seed of the provably fair chain: 32 raw bytes. Flight k of a chain uses `seed[k]`,
//! and `seed[k-1] = SHA-256(seed[k])`, so revealing a seed lets anyone check it against
//! the one before without being able to predict the one after.

use std::fmt;

use sha2::{Digest, Sha256};

/// 32 raw bytes of the seed chain. A seed is a secret until its flight has crashed, so
/// `Debug` never prints it.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed([u8; 32]);

/// Text that is not a seed: a seed is written as exactly 64 hexadecimal digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeedError {
    /// The text does not have 64 characters.
    #[error("a seed is exactly 64 hexadecimal digits, got {0} characters")]
    WrongLength(usize),
    /// A character is not a hexadecimal digit.
    #[error("a seed is written in hexadecimal digits only")]
    NotHex,
}

impl Seed {
    /// The seed made of these bytes (for a terminal seed, 32 random bytes).
    pub const fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// Its raw bytes: what is hashed down the chain and what keys the crash point's HMAC.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Its published form: 64 lower-case hexadecimal digits.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Reads the published form; upper-case digits are accepted too.
    pub fn from_hex(text: &str) -> Result<Self, SeedError> {
        if text.len() != 64 {
            return Err(SeedError::WrongLength(text.chars().count()));
        }
        let mut bytes = [0u8; 32];
        hex::decode_to_slice(text, &mut bytes).map_err(|_| SeedError::NotHex)?;
        Ok(Self(bytes))
    }

    /// The seed one step down the chain: `seed[i-1] = SHA-256(seed[i])` over the raw bytes.
    pub fn previous(&self) -> Self {
        Self(Sha256::digest(self.0).into())
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(…)")
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn debug_hides_the_bytes() {
        let seed = Seed::from_bytes([0xab; 32]);
        assert_eq!(format!("{seed:?}"), "Seed(…)");
        assert!(!format!("{:?}", Some(&seed)).contains("ab"));
    }

    #[test]
    fn hex_is_lower_case_and_exactly_64_digits() {
        let seed = Seed::from_bytes([0xab; 32]);
        assert_eq!(seed.to_hex(), "ab".repeat(32));
        assert_eq!(Seed::from_hex(&"AB".repeat(32)), Ok(seed));
        assert_eq!(Seed::from_hex(&"ab".repeat(31)), Err(SeedError::WrongLength(62)));
        assert_eq!(Seed::from_hex(&"ab".repeat(33)), Err(SeedError::WrongLength(66)));
        assert_eq!(
            Seed::from_hex(&format!("{}zz", "ab".repeat(31))),
            Err(SeedError::NotHex)
        );
        assert_eq!(
            Seed::from_hex(&format!("{} b", "ab".repeat(31))),
            Err(SeedError::NotHex)
        );
        assert!(Seed::from_hex(&format!("{}é", "ab".repeat(31))).is_err());
    }

    /// SHA-256 of the empty string is well known; SHA-256 of 32 zero bytes computed with
    /// Python's standard library: `hashlib.sha256(bytes(32)).hexdigest()`.
    #[test]
    fn previous_is_sha256_of_the_raw_bytes() {
        let zero = Seed::from_bytes([0; 32]);
        assert_eq!(
            zero.previous().to_hex(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }

    proptest! {
        #[test]
        fn hex_round_trips(bytes in any::<[u8; 32]>()) {
            let seed = Seed::from_bytes(bytes);
            prop_assert_eq!(Seed::from_hex(&seed.to_hex()), Ok(seed.clone()));
            prop_assert_eq!(seed.as_bytes(), &bytes);
        }
    }
}
