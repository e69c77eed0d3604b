//! Amounts sent as integer strings of minor units, the way every amount travels on the wire.

use opinion_app::error::AppError;

use crate::http::error::ApiError;

/// The texts `minor_units` accepts, as a regular expression for the API document.
pub const MINOR_UNITS_PATTERN: &str = "^[0-9]{1,18}$";

/// An integer string field of minor units.
pub fn minor_units(field: &'static str, text: &str) -> Result<i64, ApiError> {
    let valid = !text.is_empty() && text.len() <= 18 && text.bytes().all(|b| b.is_ascii_digit());
    valid
        .then(|| text.parse().ok())
        .flatten()
        .ok_or_else(|| AppError::invalid(field, "must be an integer string of minor units").into())
}
