//! A reference LMSR in big-integer fixed point with 128 fractional bits, independent of
//! `f64` and of the platform's libm: `exp` by argument halving and a Taylor series,
//! `ln(1+y)` by the `atanh` series. Its error is below 2^-70 minor units for every
//! pool within the crate's bounds, far below anything the properties compare.

use std::ops::{Add, Sub};

use num_bigint::BigInt;

use crate::{Outcome, Pool};

const BITS: u32 = 128;

/// Beyond this `d/b` the term `b·ln(1 + e^(−d/b))` is below `b·e^-200 < 10^-70`.
const NEGLIGIBLE_EXPONENT: i64 = 200;

/// A real number as an integer count of 2^-128.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Exact(BigInt);

impl Exact {
    pub(crate) fn from_int(value: i64) -> Self {
        Self(BigInt::from(value) << BITS)
    }

    /// `value` to within 2^-41 (ample for comparing float errors against 2^-8).
    pub(crate) fn from_f64(value: f64) -> Self {
        let scaled = (value * 2f64.powi(40)).round() as i128;
        Self(BigInt::from(scaled) << (BITS - 40))
    }

    /// `numerator / 2^shift`.
    pub(crate) fn from_dyadic(numerator: i64, shift: u32) -> Self {
        Self(BigInt::from(numerator) << (BITS - shift))
    }

    pub(crate) fn times(&self, factor: i64) -> Self {
        Self(&self.0 * factor)
    }

    pub(crate) fn abs(&self) -> Self {
        if self.0 < BigInt::from(0) {
            Self(-&self.0)
        } else {
            self.clone()
        }
    }
}

impl Sub for Exact {
    type Output = Exact;
    fn sub(self, other: Exact) -> Exact {
        Exact(self.0 - other.0)
    }
}

impl Add for Exact {
    type Output = Exact;
    fn add(self, other: Exact) -> Exact {
        Exact(self.0 + other.0)
    }
}

impl PartialEq<i64> for Exact {
    fn eq(&self, other: &i64) -> bool {
        *self == Exact::from_int(*other)
    }
}

fn one() -> BigInt {
    BigInt::from(1) << BITS
}

fn mul(a: &BigInt, b: &BigInt) -> BigInt {
    (a * b) >> BITS
}

fn div(a: &BigInt, b: &BigInt) -> BigInt {
    (a << BITS) / b
}

/// `e^(−t)` for `0 ≤ t < 256`: halve nine times to below 1/2, sum the Taylor series,
/// square back.
fn exp_neg(t: &BigInt) -> BigInt {
    const HALVINGS: u32 = 9;
    let r = t >> HALVINGS;
    let mut sum = one();
    let mut term = one();
    let mut n = 1u32;
    while term != BigInt::from(0) {
        term = -mul(&term, &r) / n;
        sum += &term;
        n += 1;
    }
    for _ in 0..HALVINGS {
        sum = mul(&sum, &sum);
    }
    sum
}

/// `ln(1 + y)` for `0 ≤ y ≤ 1` as `2·atanh(y / (2 + y))`.
fn ln_1p(y: &BigInt) -> BigInt {
    let z = div(y, &((one() << 1) + y));
    let z_squared = mul(&z, &z);
    let mut sum = BigInt::from(0);
    let mut power = z;
    let mut k = 1u32;
    while power != BigInt::from(0) {
        sum += &power / k;
        power = mul(&power, &z_squared);
        k += 2;
    }
    sum << 1
}

/// `e^(−d/b)` as a fixed-point number, or `None` when it is negligibly small.
fn exp_neg_ratio(d: i64, b: i64) -> Option<BigInt> {
    (d <= NEGLIGIBLE_EXPONENT * b).then(|| exp_neg(&((BigInt::from(d) << BITS) / b)))
}

fn quantities(pool: &Pool) -> (i64, i64) {
    (pool.outstanding(Outcome::Yes), pool.outstanding(Outcome::No))
}

/// `C(q) = max(q) + b·ln(1 + e^(−|q_yes − q_no|/b))`.
pub(crate) fn cost(pool: &Pool) -> Exact {
    let (yes, no) = quantities(pool);
    let b = pool.liquidity().minor_units();
    let tail = exp_neg_ratio(yes.abs_diff(no) as i64, b)
        .map(|y| ln_1p(&y) * b)
        .unwrap_or_default();
    Exact((BigInt::from(yes.max(no)) << BITS) + tail)
}

/// The price of `outcome`: `1 / (1 + e^(−x))` for the leading outcome, its complement
/// for the other.
pub(crate) fn price(pool: &Pool, outcome: Outcome) -> Exact {
    let (yes, no) = quantities(pool);
    let b = pool.liquidity().minor_units();
    let leading = exp_neg_ratio(yes.abs_diff(no) as i64, b)
        .map(|y| div(&one(), &(one() + y)))
        .unwrap_or_else(one);
    let yes_price = if yes >= no { leading } else { one() - leading };
    Exact(match outcome {
        Outcome::Yes => yes_price,
        Outcome::No => one() - yes_price,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Liquidity;

    fn pool(b: i64, yes: i64, no: i64) -> Pool {
        Pool::from_parts(Liquidity::new(b).unwrap(), yes, no).unwrap()
    }

    /// `x` to within 2^-60: known digits of the constants below.
    fn close_to(exact: Exact, digits: &str) -> bool {
        let value: f64 = digits.parse().unwrap();
        (exact - Exact::from_f64(value)).abs() < Exact::from_dyadic(1, 30)
    }

    #[test]
    fn known_values() {
        // b·ln 2 with b = 10^6: 693147.180559945309…
        assert!(close_to(cost(&pool(1_000_000, 0, 0)), "693147.180559945309"));
        // ln(1 + e) with b = 1, q = (1, 0): 1.313261687518222834…
        assert!(close_to(cost(&pool(1, 1, 0)), "1.313261687518222834"));
        // 1/(1 + e^-1) = 0.731058578630004879…
        assert!(close_to(price(&pool(1, 1, 0), Outcome::Yes), "0.731058578630004879"));
        assert!(close_to(price(&pool(1, 1, 0), Outcome::No), "0.268941421369995120"));
        assert_eq!(price(&pool(1, 0, 1_000), Outcome::No), 1);
        assert_eq!(cost(&pool(1, 7, 1_000)), 1_000);
    }

    #[test]
    fn series_agree_at_full_precision() {
        // ln 2 from the atanh series, then e^(−ln 2) from the Taylor series: 1/2.
        let ln_two = ln_1p(&one());
        let half = exp_neg(&ln_two);
        let error = Exact(half) - Exact::from_dyadic(1, 1);
        assert!(error.abs() < Exact::from_dyadic(1, 110));
        // e^(−a)·e^(−b) = e^(−(a+b)) for a = 2.5, b = 7.25.
        let (a, b) = (BigInt::from(5) << (BITS - 1), BigInt::from(29) << (BITS - 2));
        let product = mul(&exp_neg(&a), &exp_neg(&b));
        let error = Exact(product) - Exact(exp_neg(&(a + b)));
        assert!(error.abs() < Exact::from_dyadic(1, 110));
    }
}
