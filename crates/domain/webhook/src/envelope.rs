//! The envelope every webhook body is: `{ "id", "type", "createdAt", "operatorId",
//! "data" }`. `id` is the event's id, the same for every endpoint and every retry, and is
//! also the `webhook-id` header, so receivers deduplicate on it. `data` is always a JSON
//! object (its fields per type are listed in `event_type.rs`); `createdAt` is an RFC 3339
//! UTC time the caller formats (this crate reads no clock and holds no time library).

use std::fmt;
use std::str::FromStr;

use opinion_core::{EventId, OperatorId};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use serde_with::{DeserializeFromStr, SerializeDisplay};

use crate::event_type::EventType;

/// One webhook event as sent on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Envelope {
    /// The event's id; stable across endpoints and retries.
    pub id: EventId,
    /// What happened.
    #[serde(rename = "type")]
    pub event_type: EventType,
    /// When it happened, RFC 3339 UTC.
    pub created_at: CreatedAt,
    /// The tenant the event belongs to; an endpoint only ever sees its own operator's events.
    pub operator_id: OperatorId,
    /// The type's fields, camelCase. A map, so a non-object `data` cannot be built or parsed.
    pub data: Map<String, Value>,
}

/// Why an envelope cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnvelopeError {
    /// `data` was an array, string, number, boolean or null.
    #[error("webhook event data must be a JSON object")]
    DataNotObject,
}

impl Envelope {
    /// Builds an envelope, refusing a `data` that is not a JSON object (receivers read
    /// fields by name; a bare value would leave no room to add fields later).
    pub fn new(
        id: EventId,
        event_type: EventType,
        created_at: CreatedAt,
        operator_id: OperatorId,
        data: Value,
    ) -> Result<Self, EnvelopeError> {
        match data {
            Value::Object(data) => Ok(Self {
                id,
                event_type,
                created_at,
                operator_id,
                data,
            }),
            _ => Err(EnvelopeError::DataNotObject),
        }
    }
}

/// An RFC 3339 UTC time of the form `YYYY-MM-DDTHH:MM:SS[.fraction]Z`. Only the shape
/// and field ranges are checked: the caller formats it from its clock, and `Z` is
/// required so every event reads in one zone.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, SerializeDisplay, DeserializeFromStr)]
pub struct CreatedAt(String);

/// A `createdAt` that is not an RFC 3339 UTC time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an RFC 3339 UTC time (YYYY-MM-DDTHH:MM:SS[.fraction]Z)")]
pub struct CreatedAtError(pub String);

impl CreatedAt {
    /// The time as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn two_digits(bytes: &[u8], at: usize, max: u8) -> bool {
    match (bytes.get(at), bytes.get(at + 1)) {
        (Some(a), Some(b)) if a.is_ascii_digit() && b.is_ascii_digit() => (a - b'0') * 10 + (b - b'0') <= max,
        _ => false,
    }
}

fn is_rfc3339_utc(text: &str) -> bool {
    let bytes = text.as_bytes();
    let Some(rest) = bytes.get(19..) else {
        return false;
    };
    let date_ok = bytes[..4].iter().all(u8::is_ascii_digit)
        && bytes[4] == b'-'
        && two_digits(bytes, 5, 12)
        && bytes[5..7] != *b"00"
        && bytes[7] == b'-'
        && two_digits(bytes, 8, 31)
        && bytes[8..10] != *b"00";
    let time_ok = bytes[10] == b'T'
        && two_digits(bytes, 11, 23)
        && bytes[13] == b':'
        && two_digits(bytes, 14, 59)
        && bytes[16] == b':'
        && two_digits(bytes, 17, 60);
    let tail_ok = match rest {
        [b'Z'] => true,
        [b'.', fraction @ .., b'Z'] => !fraction.is_empty() && fraction.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    date_ok && time_ok && tail_ok
}

impl FromStr for CreatedAt {
    type Err = CreatedAtError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if is_rfc3339_utc(text) {
            Ok(Self(text.to_owned()))
        } else {
            Err(CreatedAtError(text.to_owned()))
        }
    }
}

impl fmt::Display for CreatedAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const EVENT: &str = "evt_01j9zq3v8k5m2n4p6r8t0w2y4a";
    const OPERATOR: &str = "op_01j9zq3v8k5m2n4p6r8t0w2y4b";

    fn sample(data: Value) -> Result<Envelope, EnvelopeError> {
        let id = EVENT.parse().map_err(|_| EnvelopeError::DataNotObject)?;
        let operator = OPERATOR.parse().map_err(|_| EnvelopeError::DataNotObject)?;
        let created = "2026-11-22T05:18:43.123Z"
            .parse()
            .map_err(|_| EnvelopeError::DataNotObject)?;
        Envelope::new(id, EventType::TradeProcessed, created, operator, data)
    }

    #[test]
    fn serialises_with_camel_case_keys() {
        let envelope = sample(json!({"tradeId": "trd_x", "shares": 3}));
        let value = envelope.ok().and_then(|e| serde_json::to_value(e).ok());
        assert_eq!(
            value,
            Some(json!({
                "id": EVENT,
                "type": "mini_app.trade.processed",
                "createdAt": "2026-11-22T05:18:43.123Z",
                "operatorId": OPERATOR,
                "data": {"tradeId": "trd_x", "shares": 3},
            }))
        );
    }

    #[test]
    fn round_trips_through_json() {
        let envelope = sample(json!({"marketId": "mkt_x"})).ok();
        let text = envelope.as_ref().and_then(|e| serde_json::to_string(e).ok());
        let back = text.and_then(|t| serde_json::from_str::<Envelope>(&t).ok());
        assert_eq!(back, envelope);
    }

    #[test]
    fn refuses_non_object_data() {
        for data in [json!([1]), json!("x"), json!(1), json!(true), Value::Null] {
            assert_eq!(sample(data.clone()), Err(EnvelopeError::DataNotObject), "{data}");
            let text = format!(
                r#"{{"id":"{EVENT}","type":"mini_app.trade.failed","createdAt":"2026-01-01T00:00:00Z","operatorId":"{OPERATOR}","data":{data}}}"#
            );
            assert!(serde_json::from_str::<Envelope>(&text).is_err(), "{text}");
        }
    }

    #[test]
    fn refuses_unknown_type_and_bad_ids_when_parsing() {
        let good = format!(
            r#"{{"id":"{EVENT}","type":"mini_app.trade.failed","createdAt":"2026-01-01T00:00:00Z","operatorId":"{OPERATOR}","data":{{}}}}"#
        );
        assert!(serde_json::from_str::<Envelope>(&good).is_ok());
        for bad in [
            good.replace("mini_app.trade.failed", "mini_app.trade.lost"),
            good.replace("mini_app.trade.failed", "trade.failed"),
            good.replace("evt_", "trd_"),
            good.replace("op_", "key_"),
            good.replace("00:00:00Z", "00:00:00+07:00"),
        ] {
            assert!(serde_json::from_str::<Envelope>(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn created_at_accepts_rfc3339_utc_only() {
        for good in [
            "2026-11-22T05:18:43Z",
            "2026-01-01T00:00:00.1Z",
            "2026-12-31T23:59:60.123456Z",
        ] {
            assert!(good.parse::<CreatedAt>().is_ok(), "{good}");
        }
        for bad in [
            "",
            "2026-11-22",
            "2026-11-22 05:18:43Z",
            "2026-11-22T05:18:43",
            "2026-11-22T05:18:43+00:00",
            "2026-11-22T05:18:43.Z",
            "2026-13-22T05:18:43Z",
            "2026-00-22T05:18:43Z",
            "2026-11-32T05:18:43Z",
            "2026-11-22T24:18:43Z",
            "2026-11-22T05:60:43Z",
            "2026-11-22t05:18:43z",
            "１２３４-11-22T05:18:43Z",
        ] {
            assert_eq!(bad.parse::<CreatedAt>(), Err(CreatedAtError(bad.into())), "{bad}");
        }
    }
}
