//! How an amount of minor units reads on a page: major units with thousands separators,
//! for the server-rendered pages (the dashboard and the operator's view pages).

/// `minor` as a decimal of major units with `digits` decimals and thousands separators:
/// `-1,234.50`.
pub fn major_units(minor: i64, digits: u32) -> String {
    let scale = 10u64.pow(digits);
    let magnitude = minor.unsigned_abs();
    let whole = (magnitude / scale).to_string();
    let mut grouped = String::with_capacity(whole.len() + whole.len() / 3);
    for (index, digit) in whole.chars().enumerate() {
        if index > 0 && (whole.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    let sign = if minor < 0 { "-" } else { "" };
    if digits == 0 {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{:0width$}", magnitude % scale, width = digits as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped_and_decimals_padded() {
        assert_eq!(major_units(123_450, 2), "1,234.50");
        assert_eq!(major_units(-5, 2), "-0.05");
        assert_eq!(major_units(1_500_000, 0), "1,500,000");
        assert_eq!(major_units(1_234, 3), "1.234");
        assert_eq!(major_units(i64::MIN, 2), "-92,233,720,368,547,758.08");
    }
}
