//! The published test vectors of the fairness formula (`docs/operator/flight.md`), byte for byte.
//! If one fails, the implementation is wrong: the vectors never change.

use opinion_flight::{
    ChainLength, Multiplier, Salt, Seed, commitment, crash_instant_ms, crash_point, multiplier_at, seed_of_flight,
    verifies, verify_chain,
};
use sha2::{Digest, Sha256};

const LENGTH: u32 = 10;
const SALT: &str = "flight-test-vector-salt-0001";
const COMMITMENT: &str = "22c234efc896eda3072ad7ef234c8a9e6d79209317d8602b456bbabfd0bdf7d7";
const FLIGHT_ONE_SEED: &str = "e694f18e80655ff75739a39043782570ab1ace5bb33e98db2ba18472ed1139bd";
/// Flights 1 to 10: crash point, and the crash instant where published.
const CRASHES: [(u32, &str, Option<u64>); 10] = [
    (1, "3.46", Some(20688)),
    (2, "1.52", Some(6979)),
    (3, "1.80", None),
    (4, "6.13", None),
    (5, "3.60", None),
    (6, "5.56", None),
    (7, "1.45", None),
    (8, "418.12", None),
    (9, "1.17", None),
    (10, "1.01", Some(166)),
];
const CURVE: [(u64, u64); 4] = [(1000, 106), (11552, 199), (30000, 604), (60000, 3659)];

/// `seed[10] = SHA-256(UTF-8 "flight test vector terminal seed")`.
fn terminal() -> Seed {
    Seed::from_bytes(Sha256::digest("flight test vector terminal seed".as_bytes()).into())
}

fn length() -> ChainLength {
    ChainLength::new(LENGTH).unwrap_or_else(|e| panic!("{e}"))
}

fn salt() -> Salt {
    Salt::new(SALT).unwrap_or_else(|e| panic!("{e}"))
}

fn seed(number: u32) -> Seed {
    seed_of_flight(&terminal(), length(), number).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_commitment() {
    assert_eq!(commitment(&terminal(), length()).to_hex(), COMMITMENT);
}

#[test]
fn flight_ones_seed() {
    assert_eq!(seed(1).to_hex(), FLIGHT_ONE_SEED);
    assert!(verifies(
        &seed(1),
        &Seed::from_hex(COMMITMENT).unwrap_or_else(|e| panic!("{e}"))
    ));
}

#[test]
fn the_terminal_seed_is_flight_tens() {
    assert_eq!(seed(LENGTH), terminal());
}

#[test]
fn every_crash_point() {
    for (number, crash, _) in CRASHES {
        assert_eq!(
            crash_point(&seed(number), &salt()).to_string(),
            crash,
            "flight {number}"
        );
    }
}

#[test]
fn the_published_crash_instants() {
    for (number, crash, instant) in CRASHES {
        let parsed: Multiplier = crash.parse().unwrap_or_else(|e| panic!("{e}"));
        if let Some(instant) = instant {
            assert_eq!(crash_instant_ms(parsed), instant, "flight {number}");
        }
        let at = crash_instant_ms(parsed);
        assert!(multiplier_at(at) >= parsed && (at == 0 || multiplier_at(at - 1) < parsed));
    }
}

#[test]
fn the_curve() {
    for (ms, hundredths) in CURVE {
        assert_eq!(multiplier_at(ms), Multiplier::from_hundredths(hundredths), "m({ms})");
    }
}

#[test]
fn the_revealed_run_verifies_against_the_commitment() {
    let revealed: Vec<_> = (1..=LENGTH).map(|number| (number, seed(number))).collect();
    let published = Seed::from_hex(COMMITMENT).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(verify_chain(&published, &revealed), Ok(()));
}
