//! The LMSR cost function in `f64`, and the directed rounding that turns cost
//! differences into integer debits and credits. The only place floats are used.
//!
//! # The computation
//!
//! With `m = max(q_yes, q_no)` and `d = |q_yes − q_no|`, the log-sum-exp identity gives
//! `C(q) = m + f(d)` where `f(d) = b·ln(1 + e^(−d/b))`, `0 ≤ f ≤ b·ln 2`. The integer part
//! `m` is kept exact in `i64`; only `f` is a float, and `e^(−d/b) ≤ 1` never overflows
//! (it underflows harmlessly to 0 for large `d/b`). A cost difference is
//! `(m' − m) + (f(d') − f(d))`: the integer part exactly, the float part rounded with a
//! margin, so the error never scales with `q`, only with `b`.
//!
//! # Why [`ROUNDING_MARGIN`] is safe
//!
//! Inputs are bounded: `1 ≤ b ≤ 10^12` ([`crate::Liquidity::MAX`]) and
//! `0 ≤ q ≤ 10^13` ([`crate::Pool::MAX_OUTSTANDING`]), so `b` and `d` are exact in
//! `f64`. Let `u = 2^-53` and let the platform's `exp` and `ln_1p` be accurate to `k`
//! ulps (relative error `2k·u`; glibc's known maximum errors for these are a few ulps,
//! and its test suite refuses to list more than 9). Steps for `f(d)`:
//!
//! 1. `x = d/b` is correctly rounded, `|Δx| ≤ u·x`; since `|f'(x)|/b = 1/(1+e^x)`, this
//!    moves `f` by at most `b·u·x·e^(−x) ≤ b·u/e`.
//! 2. `y = e^(−x)` with relative error `2k·u` moves `ln(1+y)` by at most
//!    `2k·u·y/(1+y) ≤ k·u` (where `y` is subnormal, `f < 10^-290` and its error with it).
//! 3. `ln_1p(y) ≤ ln 2` with relative error `2k·u`: at most `2k·u·ln 2`.
//! 4. The product with `b`: relative `u`, at most `u·b·ln 2`.
//!
//! So `|Δf| ≤ b·u·(1/e + k + 2k·ln 2 + ln 2) ≤ 10^12·u·(1.07 + 2.39·k)`. The difference
//! of two such values (each below `2^40`) and the addition of the margin each add at most
//! half an ulp of `2^40`, i.e. `2^-14`. For `k = 16` the total is below
//! `2·4.4·10^-3 + 1.3·10^-4 < 9·10^-3`, under the margin `1/64 ≈ 1.56·10^-2`; for `k = 2`
//! it is below `1.5·10^-3`, ten times under (measured against a 60-digit reference at
//! `b = 10^12`, glibc's worst `|Δf|` was `1.3·b·u`). Hence
//! `ceil(computed + margin) ≥ exact` and `floor(computed − margin) ≤ exact`, while the
//! margin costs a player one extra minor unit on about one trade in 64.
//!
//! The computed `f` is non-increasing in `d` (correctly rounded division and product are
//! monotone, and glibc's `exp` and `ln_1p` are monotone in practice), so a buy's debit
//! never falls as the share count grows, which makes the buy-by-amount search find the
//! largest affordable count.

use crate::{Outcome, Pool, PricePpm};

/// The slack, in minor units, added before rounding a debit up and taken away before
/// rounding a credit down: 1/64.
///
/// Only the bounded part `b·ln(1 + e^(−|q_yes − q_no|/b)) ≤ b·ln 2` of the cost is a
/// float (the rest is an exact integer), so the float error of a cost difference is at
/// most about `2·b·u·(1.07 + 2.39·k)` for `b ≤ 10^12`, `u = 2^-53` and a libm accurate to
/// `k` ulps: below `9·10^-3` even for `k = 16`, and below `1.5·10^-3` for `k = 2`. The
/// margin exceeds it, so rounding up always covers the exact cost and rounding down
/// never exceeds the exact proceeds.
pub const ROUNDING_MARGIN: f64 = 1.0 / 64.0;

/// `C(q)` split into its exact integer part and its float part in `[0, b·ln 2]`.
struct SplitCost {
    whole: i64,
    fraction: f64,
}

fn split_cost(pool: &Pool) -> SplitCost {
    let (yes, no) = quantities(pool);
    let b = pool.liquidity().minor_units() as f64;
    // Below 2^53, so exact.
    let gap = yes.abs_diff(no) as f64;
    SplitCost {
        whole: yes.max(no),
        fraction: b * (-(gap / b)).exp().ln_1p(),
    }
}

fn quantities(pool: &Pool) -> (i64, i64) {
    (pool.outstanding(Outcome::Yes), pool.outstanding(Outcome::No))
}

/// `C(to) − C(from)` as an exact integer part plus a float part in `[−b·ln 2, b·ln 2]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CostChange {
    pub(crate) whole: i64,
    pub(crate) fraction: f64,
}

/// The change of the cost function when the pool moves from `from` to `to`.
pub(crate) fn cost_change(from: &Pool, to: &Pool) -> CostChange {
    let (from, to) = (split_cost(from), split_cost(to));
    CostChange {
        whole: to.whole - from.whole,
        fraction: to.fraction - from.fraction,
    }
}

impl CostChange {
    /// An integer at least the exact change: what a player is charged for it.
    pub(crate) fn rounded_up(self) -> i64 {
        // |fraction| ≤ b·ln 2 + 1 < 2^40: exact as an i64.
        self.whole + (self.fraction + ROUNDING_MARGIN).ceil() as i64
    }

    /// An integer at most the exact change: what a player is paid for its reverse.
    pub(crate) fn rounded_down(self) -> i64 {
        // |fraction| ≤ b·ln 2 + 1 < 2^40: exact as an i64.
        self.whole + (self.fraction - ROUNDING_MARGIN).floor() as i64
    }
}

/// The price of YES, `1 / (1 + e^((q_no − q_yes)/b))`, rounded to the nearest ppm.
///
/// The leading outcome's price is computed as `1/(1 + e^(−x))` with `x ≥ 0` and the
/// other as its complement, so prices always add up to one and move monotonically with
/// the quantities.
pub(crate) fn yes_price(pool: &Pool) -> PricePpm {
    let (yes, no) = quantities(pool);
    let b = pool.liquidity().minor_units() as f64;
    let x = yes.abs_diff(no) as f64 / b;
    let leading = (f64::from(PricePpm::ONE.ppm()) / (1.0 + (-x).exp())).round();
    // In [500_000, 1_000_000] by construction.
    let leading = PricePpm::saturating(leading as u32);
    if yes >= no { leading } else { leading.complement() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Liquidity;

    fn pool(b: i64, yes: i64, no: i64) -> Pool {
        Pool::from_parts(Liquidity::new(b).unwrap(), yes, no).unwrap()
    }

    #[test]
    fn first_share_of_a_fresh_pool() {
        // C(1,0) − C(0,0) with b = 100: 100·ln((e^0.01 + 1)/2) ≈ 0.50125.
        let before = pool(100, 0, 0);
        let after = pool(100, 1, 0);
        assert_eq!(cost_change(&before, &after).rounded_up(), 1);
        assert_eq!(cost_change(&before, &after).rounded_down(), 0);
        assert_eq!(cost_change(&after, &before).rounded_up(), 0);
        assert_eq!(cost_change(&after, &before).rounded_down(), -1);
    }

    #[test]
    fn integer_part_is_exact_for_huge_quantities() {
        // With b = 1 the float part vanishes; the cost of pushing YES from 10^13 − 5
        // to 10^13 while NO is at 0 is 5 shares at a price of (almost exactly) one.
        let max = Pool::MAX_OUTSTANDING;
        let before = pool(1, max - 5, 0);
        let after = pool(1, max, 0);
        assert_eq!(cost_change(&before, &after).rounded_up(), 6);
        assert_eq!(cost_change(&before, &after).rounded_down(), 4);
    }

    #[test]
    fn symmetric_moves_round_by_one_each_way() {
        // From (0, 10) to (20, 10) the float parts are identical, so the exact cost is 10.
        let before = pool(7, 0, 10);
        let after = pool(7, 20, 10);
        assert_eq!(cost_change(&before, &after).rounded_up(), 11);
        assert_eq!(cost_change(&before, &after).rounded_down(), 9);
    }

    #[test]
    fn prices_at_extremes() {
        assert_eq!(yes_price(&pool(1, Pool::MAX_OUTSTANDING, 0)), PricePpm::ONE);
        assert_eq!(yes_price(&pool(1, 0, Pool::MAX_OUTSTANDING)).ppm(), 0);
        assert_eq!(yes_price(&pool(Liquidity::MAX, 5, 5)).ppm(), 500_000);
        // 1/(1+e^-1) = 0.7310585…
        assert_eq!(yes_price(&pool(1_000, 1_000, 0)).ppm(), 731_059);
        assert_eq!(yes_price(&pool(1_000, 0, 1_000)).ppm(), 268_941);
    }
}
