//! The flight product's rules, pure: no I/O, no clock reads, no randomness (times and
//! random bytes are the caller's).
//!
//! | rule | file |
//! |---|---|
//! | a multiplier is hundredths, written with two decimals | `multiplier.rs` |
//! | IDR money is whole rupiah | `rupiah.rs` |

#![warn(missing_docs)]

mod multiplier;
mod rupiah;

pub use multiplier::{Multiplier, MultiplierTextError};
pub use rupiah::{Rupiah, RupiahError, RupiahTextError};
