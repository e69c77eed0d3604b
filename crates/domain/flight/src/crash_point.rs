//! The crash point of a flight, exactly as published (`docs/operator/flight.md`):
//! `h = HMAC-SHA256(key = seed[k] (32 raw bytes), message = UTF-8 bytes of the salt)`,
//! `X = the first 52 bits of h, big-endian`,
//! `crash = max(100, floor(99 · 2^52 / (2^52 − X)))` hundredths, integers only.
//! So P(crash ≥ c) = 99/c: a 1% house edge at every cash-out target, and a crash at
//! 1.00× about one flight in 50.5.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::multiplier::Multiplier;
use crate::salt::Salt;
use crate::seed::Seed;

/// 2^52: the range of the 52 bits taken from the HMAC.
const TWO_POW_52: u128 = 1 << 52;

/// The crash point of the flight played with `seed` in the chain published with `salt`.
pub fn crash_point(seed: &Seed, salt: &Salt) -> Multiplier {
    // HMAC pads a key shorter than SHA-256's 64-byte block with zeros, so the padded key
    // is the same key, and key set-up cannot fail.
    let mut key = [0u8; 64];
    key[..32].copy_from_slice(seed.as_bytes());
    let mut mac = Hmac::<Sha256>::new(&key.into());
    mac.update(salt.as_str().as_bytes());
    let h = mac.finalize().into_bytes();
    let mut first_eight = [0u8; 8];
    first_eight.copy_from_slice(&h[..8]);
    let x = u128::from(u64::from_be_bytes(first_eight) >> 12);
    let crash = (99 * TWO_POW_52 / (TWO_POW_52 - x)).max(100);
    // At most 99 · 2^52 (X = 2^52 − 1), far below u64::MAX.
    Multiplier::from_hundredths(u64::try_from(crash).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn salt() -> Salt {
        Salt::new("flight-test-vector-salt-0001").unwrap_or_else(|e| panic!("{e}"))
    }

    fn seed(hex: &str) -> Seed {
        Seed::from_hex(hex).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn flight_one_of_the_published_vectors_crashes_at_3_46() {
        let flight_one = seed("e694f18e80655ff75739a39043782570ab1ace5bb33e98db2ba18472ed1139bd");
        assert_eq!(crash_point(&flight_one, &salt()).to_string(), "3.46");
    }

    /// The key is the seed's raw bytes and the message the salt's UTF-8 bytes: changing
    /// either changes the point. Expected values from Python's standard library:
    /// `h = hmac.new(key, salt, hashlib.sha256).digest(); x = int(h.hex()[:13], 16);
    /// max(100, 99 * 2**52 // (2**52 - x))`.
    #[test]
    fn key_is_the_seed_and_message_is_the_salt() {
        let other_salt = Salt::new("other-salt").unwrap_or_else(|e| panic!("{e}"));
        let zero = Seed::from_bytes([0; 32]);
        assert_eq!(crash_point(&zero, &salt()).hundredths(), 302);
        assert_eq!(crash_point(&zero, &other_salt).hundredths(), 251);
        assert_eq!(crash_point(&Seed::from_bytes([69; 32]), &salt()).hundredths(), 14_898);
    }

    /// With the seed of 32 bytes 7, `X = 0x00db40648f028` and the formula gives 99
    /// hundredths: the floor lifts it to 1.00×.
    #[test]
    fn a_point_below_one_is_lifted_to_one() {
        assert_eq!(crash_point(&Seed::from_bytes([7; 32]), &salt()), Multiplier::ONE);
        assert_eq!(crash_point(&Seed::from_bytes([47; 32]), &salt()), Multiplier::ONE);
    }

    proptest! {
        #[test]
        fn never_below_one_never_above_the_formulas_top(bytes in any::<[u8; 32]>()) {
            let point = crash_point(&Seed::from_bytes(bytes), &salt()).hundredths();
            prop_assert!((100..=99 << 52).contains(&point));
        }
    }
}
