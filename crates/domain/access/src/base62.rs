//! Letters-and-digits text for secrets: easy to select with a double click, safe in
//! URLs, headers and shells.

/// The 62 characters secrets are written with.
pub(crate) const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// One character per random byte. The modulo bias (the first 8 characters are 1/32
/// likelier) costs under 0.1 bit per character: negligible beside 32 characters.
pub(crate) fn from_random(random: &[u8]) -> String {
    random
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect()
}

/// Writes `value` as exactly `width` digits, most significant first.
pub(crate) fn fixed_width(mut value: u64, width: usize) -> String {
    let mut digits = vec![b'0'; width];
    for digit in digits.iter_mut().rev() {
        *digit = ALPHABET[(value % 62) as usize];
        value /= 62;
    }
    digits.into_iter().map(char::from).collect()
}
