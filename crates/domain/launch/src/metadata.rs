//! Launch metadata: an opaque JSON object the operator attaches to a launch (its own
//! session or campaign ids) and gets back in that player's webhook events. The service
//! never reads inside it; it only bounds it, so every event that echoes it stays small.

use serde_json::{Map, Value};

/// A JSON object of at most [`LaunchMetadata::MAX_BYTES`] bytes, written compactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchMetadata(Map<String, Value>);

/// Why a value is not launch metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MetadataError {
    /// An array, a string, a number, a boolean or `null`.
    #[error("must be a JSON object")]
    NotAnObject,
    /// Larger than the bound.
    #[error("must be at most {max} bytes as compact JSON", max = LaunchMetadata::MAX_BYTES)]
    TooLarge,
}

impl LaunchMetadata {
    /// The largest object accepted, as compact JSON: room for a handful of the operator's
    /// ids and tags, small beside an event's 256 KiB bound however many events echo it.
    pub const MAX_BYTES: usize = 4096;

    /// Checks a value.
    pub fn parse(value: Value) -> Result<Self, MetadataError> {
        let Value::Object(map) = value else {
            return Err(MetadataError::NotAnObject);
        };
        let size = serde_json::to_vec(&map).map_or(usize::MAX, |bytes| bytes.len());
        if size > Self::MAX_BYTES {
            return Err(MetadataError::TooLarge);
        }
        Ok(Self(map))
    }

    /// The object.
    pub fn as_map(&self) -> &Map<String, Value> {
        &self.0
    }

    /// The object as a JSON value.
    pub fn to_value(&self) -> Value {
        Value::Object(self.0.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_up_to_the_bound_are_kept_and_anything_else_is_refused() {
        let metadata = json!({"campaign": "spring", "ids": [1, 2], "nested": {"a": null}});
        assert_eq!(
            LaunchMetadata::parse(metadata.clone()).map(|m| m.to_value()),
            Ok(metadata)
        );
        assert!(LaunchMetadata::parse(json!({})).is_ok());
        for other in [json!([]), json!("x"), json!(1), json!(true), Value::Null] {
            assert_eq!(LaunchMetadata::parse(other), Err(MetadataError::NotAnObject));
        }
        let overhead = r#"{"k":""}"#.len();
        let fits = json!({"k": "x".repeat(LaunchMetadata::MAX_BYTES - overhead)});
        assert!(LaunchMetadata::parse(fits).is_ok());
        let over = json!({"k": "x".repeat(LaunchMetadata::MAX_BYTES - overhead + 1)});
        assert_eq!(LaunchMetadata::parse(over), Err(MetadataError::TooLarge));
    }
}
