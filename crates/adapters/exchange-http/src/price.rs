//! The price out of a ticker's answer. A string is taken exactly as written; a JSON number
//! as its shortest decimal form (`16250.5`; an exponent, as in `1e21`, is no rate), since
//! the raw answer's hash, not this text, is what pins the exact bytes.

use opinion_proof::{ExchangeRate, UnavailableReason};
use serde_json::Value;

/// Why an answer gives no rate: the evidence's reason and its words.
pub(crate) type NoRate = (UnavailableReason, String);

/// The rate at `pointer` in `raw`.
pub(crate) fn read_price(raw: &[u8], pointer: &str) -> Result<ExchangeRate, NoRate> {
    let answer: Value =
        serde_json::from_slice(raw).map_err(|_| (UnavailableReason::NotJson, "the answer is not JSON".to_owned()))?;
    let text = match answer.pointer(pointer) {
        None | Some(Value::Null) => {
            return Err((
                UnavailableReason::PriceMissing,
                format!("the answer has no value at {pointer}"),
            ));
        }
        Some(Value::String(text)) => text.clone(),
        Some(Value::Number(number)) => number.to_string(),
        Some(_) => {
            return Err((
                UnavailableReason::PriceInvalid,
                format!("the value at {pointer} is neither a string nor a number"),
            ));
        }
    };
    text.parse().map_err(|_| {
        (
            UnavailableReason::PriceInvalid,
            format!("the value at {pointer} is not a positive decimal"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(raw: &str, pointer: &str) -> Option<UnavailableReason> {
        read_price(raw.as_bytes(), pointer).err().map(|(reason, _)| reason)
    }

    #[test]
    fn a_string_or_a_number_is_a_rate() {
        let rate = |raw: &str| read_price(raw.as_bytes(), "/p").map(|r| r.to_string());
        assert_eq!(rate(r#"{"p":"16250.50"}"#).as_deref(), Ok("16250.50"));
        assert_eq!(rate(r#"{"p":16250.5}"#).as_deref(), Ok("16250.5"));
        assert_eq!(rate(r#"{"p":16250}"#).as_deref(), Ok("16250"));
    }

    #[test]
    fn anything_else_says_why() {
        assert_eq!(reason("<html>", "/p"), Some(UnavailableReason::NotJson));
        assert_eq!(reason(r#"{"q":"1"}"#, "/p"), Some(UnavailableReason::PriceMissing));
        assert_eq!(reason(r#"{"p":null}"#, "/p"), Some(UnavailableReason::PriceMissing));
        assert_eq!(reason(r#"{"p":"abc"}"#, "/p"), Some(UnavailableReason::PriceInvalid));
        assert_eq!(reason(r#"{"p":-5}"#, "/p"), Some(UnavailableReason::PriceInvalid));
        assert_eq!(reason(r#"{"p":1e21}"#, "/p"), Some(UnavailableReason::PriceInvalid));
        assert_eq!(reason(r#"{"p":["1"]}"#, "/p"), Some(UnavailableReason::PriceInvalid));
        assert_eq!(reason(r#"{"p":"0"}"#, "/p"), Some(UnavailableReason::PriceInvalid));
    }
}
