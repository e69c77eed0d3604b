//! Property tests of the pricing against a high-precision reference (big-integer fixed
//! point, not `f64`): every debit covers the exact cost, every credit stays under the
//! exact proceeds, buying by amount is maximal, no trading sequence gains from
//! rounding, and a resolved market's payouts stay within the maker's cash plus its
//! `b·ln 2` subsidy, and a voided market pays each player back what they put in less
//! what they took out.

mod bounded_loss;
mod buy_by_amount;
mod exact_lmsr;
mod float_error;
mod round_trips;
mod single_trades;
mod strategies;
mod void_refunds;
