//! The seed chain: a secret terminal seed `seed[N]`, each seed below it the SHA-256 of
//! the one above, down to `seed[0]`, the chain's public commitment. Flight k uses
//! `seed[k]` and reveals it once crashed; anyone checks it hashes to `seed[k-1]`, so the
//! crash points were fixed before the first flight boarded.
//!
//! Deriving `seed[k]` from the terminal seed costs `N − k` hashes: about a second per
//! million in an optimised build.

use crate::seed::Seed;

/// The number of flights of a chain, 1 to 10 000 000 (at one flight every ten seconds,
/// more than three years).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChainLength(u32);

/// Why a chain, a flight number or a run of revealed seeds is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    /// A chain length outside 1 to 10 000 000.
    #[error("a chain has 1 to {max} flights, got {length}", max = ChainLength::MAX)]
    LengthOutOfRange {
        /// The refused length.
        length: u32,
    },
    /// A flight number outside 1 to the chain's length.
    #[error("flight {number} is not in a chain of {length} flights")]
    FlightOutOfRange {
        /// The refused number.
        number: u32,
        /// The chain's length.
        length: u32,
    },
    /// Revealed seeds that are not flights 1, 2, 3, … in order.
    #[error("expected the seed of flight {expected}, got flight {found}")]
    OutOfSequence {
        /// The number that should come next.
        expected: u32,
        /// The number found instead.
        found: u32,
    },
    /// A revealed seed whose SHA-256 is not the seed before it (or the commitment).
    #[error("the seed of flight {number} does not hash to the seed before it")]
    BrokenLink {
        /// The flight whose seed does not verify.
        number: u32,
    },
}

impl ChainLength {
    /// The longest chain.
    pub const MAX: u32 = 10_000_000;

    /// A chain of `length` flights, refused outside 1 to 10 000 000.
    pub const fn new(length: u32) -> Result<Self, ChainError> {
        if length >= 1 && length <= Self::MAX {
            Ok(Self(length))
        } else {
            Err(ChainError::LengthOutOfRange { length })
        }
    }

    /// The number of flights.
    pub const fn get(self) -> u32 {
        self.0
    }
}

/// `seed` hashed `times` times: the seed that many steps down the chain.
fn down(seed: &Seed, times: u32) -> Seed {
    (0..times).fold(seed.clone(), |seed, _| seed.previous())
}

/// `seed[number]` of the chain whose terminal seed is `seed[length]`: the seed flight
/// `number` plays with, for 1 ≤ number ≤ length.
pub fn seed_of_flight(terminal: &Seed, length: ChainLength, number: u32) -> Result<Seed, ChainError> {
    if number == 0 || number > length.get() {
        return Err(ChainError::FlightOutOfRange {
            number,
            length: length.get(),
        });
    }
    Ok(down(terminal, length.get() - number))
}

/// `seed[0]`, the chain's commitment, published before any of its flights boards.
pub fn commitment(terminal: &Seed, length: ChainLength) -> Seed {
    down(terminal, length.get())
}

/// Whether `revealed` is the seed after `previous` in a chain: `SHA-256(revealed) ==
/// previous`.
pub fn verifies(revealed: &Seed, previous: &Seed) -> bool {
    revealed.previous() == *previous
}

/// Checks a run of revealed seeds against the chain's commitment: flights 1, 2, 3, … in
/// order, each seed hashing to the one before it and flight 1's to the commitment.
pub fn verify_chain(commitment: &Seed, revealed: &[(u32, Seed)]) -> Result<(), ChainError> {
    let mut previous = commitment;
    for (expected, (number, seed)) in (1u32..).zip(revealed) {
        if *number != expected {
            return Err(ChainError::OutOfSequence {
                expected,
                found: *number,
            });
        }
        if !verifies(seed, previous) {
            return Err(ChainError::BrokenLink { number: *number });
        }
        previous = seed;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn length(n: u32) -> ChainLength {
        match ChainLength::new(n) {
            Ok(length) => length,
            Err(error) => panic!("{error}"),
        }
    }

    fn revealed(terminal: &Seed, n: u32, up_to: u32) -> Vec<(u32, Seed)> {
        (1..=up_to)
            .map(|k| {
                (
                    k,
                    seed_of_flight(terminal, length(n), k).unwrap_or_else(|e| panic!("{e}")),
                )
            })
            .collect()
    }

    #[test]
    fn length_is_bounded() {
        assert_eq!(ChainLength::new(0), Err(ChainError::LengthOutOfRange { length: 0 }));
        assert_eq!(ChainLength::new(1).map(ChainLength::get), Ok(1));
        assert_eq!(ChainLength::new(10_000_000).map(ChainLength::get), Ok(10_000_000));
        assert_eq!(
            ChainLength::new(10_000_001),
            Err(ChainError::LengthOutOfRange { length: 10_000_001 })
        );
    }

    #[test]
    fn the_terminal_seed_is_the_last_flights() {
        let terminal = Seed::from_bytes([7; 32]);
        assert_eq!(seed_of_flight(&terminal, length(5), 5), Ok(terminal.clone()));
        assert_eq!(seed_of_flight(&terminal, length(5), 4), Ok(terminal.previous()));
        assert_eq!(commitment(&terminal, length(1)), terminal.previous());
    }

    #[test]
    fn flight_numbers_are_one_to_length() {
        let terminal = Seed::from_bytes([7; 32]);
        assert_eq!(
            seed_of_flight(&terminal, length(5), 0),
            Err(ChainError::FlightOutOfRange { number: 0, length: 5 })
        );
        assert_eq!(
            seed_of_flight(&terminal, length(5), 6),
            Err(ChainError::FlightOutOfRange { number: 6, length: 5 })
        );
    }

    #[test]
    fn a_revealed_run_verifies_against_the_commitment() {
        let terminal = Seed::from_bytes([9; 32]);
        let committed = commitment(&terminal, length(6));
        let run = revealed(&terminal, 6, 6);
        assert_eq!(verify_chain(&committed, &run), Ok(()));
        assert_eq!(verify_chain(&committed, &run[..2]), Ok(()));
        assert_eq!(verify_chain(&committed, &[]), Ok(()));
        assert!(verifies(&run[0].1, &committed));
        assert!(!verifies(&committed, &run[0].1));
    }

    #[test]
    fn a_gap_a_reordering_or_a_wrong_seed_is_refused() {
        let terminal = Seed::from_bytes([9; 32]);
        let committed = commitment(&terminal, length(6));
        let run = revealed(&terminal, 6, 4);

        let gap = [run[0].clone(), run[2].clone()];
        assert_eq!(
            verify_chain(&committed, &gap),
            Err(ChainError::OutOfSequence { expected: 2, found: 3 })
        );
        let swapped = [run[1].clone(), run[0].clone()];
        assert_eq!(
            verify_chain(&committed, &swapped),
            Err(ChainError::OutOfSequence { expected: 1, found: 2 })
        );
        let mut forged = run.clone();
        forged[2].1 = Seed::from_bytes([1; 32]);
        assert_eq!(
            verify_chain(&committed, &forged),
            Err(ChainError::BrokenLink { number: 3 })
        );
        let other = commitment(&Seed::from_bytes([8; 32]), length(6));
        assert_eq!(verify_chain(&other, &run), Err(ChainError::BrokenLink { number: 1 }));
    }

    proptest! {
        #[test]
        fn every_flights_seed_hashes_to_the_one_before(bytes in any::<[u8; 32]>(), n in 1u32..40, k in 1u32..40) {
            let terminal = Seed::from_bytes(bytes);
            let k = k.min(n);
            let seed = seed_of_flight(&terminal, length(n), k);
            let before = if k == 1 {
                Ok(commitment(&terminal, length(n)))
            } else {
                seed_of_flight(&terminal, length(n), k - 1)
            };
            prop_assert!(matches!((&seed, &before), (Ok(seed), Ok(before)) if verifies(seed, before)));
        }
    }
}
