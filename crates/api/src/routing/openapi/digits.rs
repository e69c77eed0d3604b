//! Ranges of numbers written as decimal text (amounts as integer strings, multipliers
//! with two decimals) as regular expressions, so the document states the range the
//! service enforces on such a text, and nothing but that range.

/// Texts of plain digits, leading zeros allowed, whose value is from `min` to `max`.
pub fn integer_range(min: u64, max: u64) -> String {
    format!("^0*({})$", alternatives(min, max).join("|"))
}

/// Multipliers written with exactly two decimals (`1.01`), no leading zero but `0.xx`,
/// from `min` to `max` hundredths.
pub fn hundredths_range(min: u64, max: u64) -> String {
    let (min_whole, min_cents) = (min / 100, min % 100);
    let (max_whole, max_cents) = (max / 100, max % 100);
    let cents = |low: u64, high: u64| same_length(&format!("{low:02}"), &format!("{high:02}")).join("|");
    let mut pieces = Vec::new();
    if min_whole == max_whole {
        pieces.push(format!("{min_whole}\\.({})", cents(min_cents, max_cents)));
    } else {
        pieces.push(format!("{min_whole}\\.({})", cents(min_cents, 99)));
        if min_whole + 1 < max_whole {
            let wholes = alternatives(min_whole + 1, max_whole - 1).join("|");
            pieces.push(format!("({wholes})\\.[0-9]{{2}}"));
        }
        pieces.push(format!("{max_whole}\\.({})", cents(0, max_cents)));
    }
    format!("^({})$", pieces.join("|"))
}

/// Alternatives matching the canonical spelling (no leading zero) of `min..=max`.
fn alternatives(min: u64, max: u64) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut low = min;
    while low <= max {
        let digits = low.to_string().len();
        let widest = 10u64.saturating_pow(u32::try_from(digits).unwrap_or(u32::MAX)) - 1;
        let high = widest.min(max);
        pieces.extend(same_length(&low.to_string(), &high.to_string()));
        if high == u64::MAX {
            break;
        }
        low = high + 1;
    }
    pieces
}

/// Alternatives matching every text of `low.len()` digits from `low` to `high`.
fn same_length(low: &str, high: &str) -> Vec<String> {
    if low == high {
        return vec![low.to_owned()];
    }
    let (low_first, low_rest) = low.split_at(1);
    let (high_first, high_rest) = high.split_at(1);
    let rest = low_rest.len();
    if rest == 0 {
        return vec![format!("[{low_first}-{high_first}]")];
    }
    if low_first == high_first {
        return same_length(low_rest, high_rest)
            .into_iter()
            .map(|piece| format!("{low_first}({piece})"))
            .collect();
    }
    let zeros = "0".repeat(rest);
    let nines = "9".repeat(rest);
    if low_rest == zeros && high_rest == nines {
        return vec![format!("[{low_first}-{high_first}][0-9]{{{rest}}}")];
    }
    let low_digit = low_first.as_bytes()[0];
    let high_digit = high_first.as_bytes()[0];
    let mut pieces: Vec<String> = same_length(low_rest, &nines)
        .into_iter()
        .map(|piece| format!("{low_first}({piece})"))
        .collect();
    if low_digit + 1 < high_digit {
        let (from, to) = (char::from(low_digit + 1), char::from(high_digit - 1));
        pieces.push(format!("[{from}-{to}][0-9]{{{rest}}}"));
    }
    pieces.extend(
        same_length(&zeros, high_rest)
            .into_iter()
            .map(|piece| format!("{high_first}({piece})")),
    );
    pieces
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use regex::Regex;

    use super::*;

    fn in_integer_range(text: &str, min: u64, max: u64) -> bool {
        !text.is_empty()
            && text.bytes().all(|b| b.is_ascii_digit())
            && text.parse().is_ok_and(|v: u64| (min..=max).contains(&v))
    }

    #[test]
    fn small_integer_ranges_match_exactly_their_numbers() {
        for (min, max) in [(0, 0), (1, 9), (0, 10), (1, 1000), (7, 1234), (19, 21), (100, 10_000)] {
            let pattern = Regex::new(&integer_range(min, max)).expect("a regular expression");
            for value in 0..=12_000u64 {
                for text in [value.to_string(), format!("00{value}")] {
                    assert_eq!(
                        pattern.is_match(&text),
                        in_integer_range(&text, min, max),
                        "{text} in {min}..={max}"
                    );
                }
            }
        }
    }

    proptest! {
        #[test]
        fn large_integer_ranges_match_exactly_their_numbers(
            min in 0u64..2_000_000_000_000,
            span in 0u64..2_000_000_000_000,
            value in 0u64..5_000_000_000_000,
        ) {
            let max = min + span;
            let pattern = Regex::new(&integer_range(min, max)).expect("a regular expression");
            let text = value.to_string();
            prop_assert_eq!(pattern.is_match(&text), (min..=max).contains(&value));
        }
    }

    #[test]
    fn hundredths_ranges_match_exactly_their_multipliers() {
        for (min, max) in [(101, 10_000), (100, 199), (150, 1_234), (5, 7)] {
            let pattern = Regex::new(&hundredths_range(min, max)).expect("a regular expression");
            for value in 0..=20_000u64 {
                let text = format!("{}.{:02}", value / 100, value % 100);
                assert_eq!(
                    pattern.is_match(&text),
                    (min..=max).contains(&value),
                    "{text} in {min}..={max}"
                );
            }
            for odd in ["1.1", "01.50", "1.010", "2", ".50", "1,50"] {
                assert!(!pattern.is_match(odd), "{odd}");
            }
        }
    }
}
