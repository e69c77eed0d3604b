//! The JSON bodies of the operator wallet's answers to a mutation, as the platform reads
//! them. The staging simulator and the test wallet write them with the same types, so
//! what is written and what is read cannot drift apart.

use serde::{Deserialize, Serialize};

use crate::remote_reference::RemoteReference;

/// The body of a 2xx answer: `{"status":"applied","remoteReference":"…","balance":"…"}`.
/// Other fields are allowed and ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AppliedAnswer {
    /// Always `applied`; any other value makes the answer unreadable.
    pub status: AppliedStatus,
    /// The wallet's reference of the applied mutation (rule 7).
    pub remote_reference: RemoteReference,
    /// The player's balance after the mutation, in minor units, as a decimal string.
    pub balance: String,
}

/// The one status a success body may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AppliedStatus {
    /// `applied`.
    Applied,
}

/// The body of an error answer: `{"error":{"code":"…","message":"…"}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorAnswer {
    /// The error.
    pub error: ErrorDetail,
}

/// The error of an error answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// A machine code, e.g. `insufficient_funds`.
    pub code: String,
    /// A human explanation, for logs only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl AppliedAnswer {
    /// Reads a success body; `None` if it is not one in every part, balance included.
    pub fn read(body: &[u8]) -> Option<(RemoteReference, i64)> {
        let answer: Self = serde_json::from_slice(body).ok()?;
        let balance = answer.balance.parse().ok()?;
        Some((answer.remote_reference, balance))
    }
}

impl ErrorAnswer {
    /// Reads the error code of an error body; `None` if the body is not an error body.
    pub fn read_code(body: &[u8]) -> Option<String> {
        serde_json::from_slice::<Self>(body)
            .ok()
            .map(|answer| answer.error.code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_success_body_with_extra_fields() {
        let body = br#"{"status":"applied","remoteReference":"tx-1","balance":"-250","currency":"IDR"}"#;
        let read = AppliedAnswer::read(body);
        assert_eq!(
            read.map(|(reference, balance)| (reference.to_string(), balance)),
            Some(("tx-1".into(), -250))
        );
    }

    #[test]
    fn a_success_body_must_be_whole() {
        for body in [
            br#"{"status":"pending","remoteReference":"tx-1","balance":"1"}"#.as_slice(),
            br#"{"status":"applied","balance":"1"}"#,
            br#"{"status":"applied","remoteReference":"","balance":"1"}"#,
            br#"{"status":"applied","remote_reference":"tx-1","balance":"1"}"#,
            br#"{"status":"applied","remoteReference":"tx-1","balance":1.5}"#,
            br#"{"status":"applied","remoteReference":"tx-1","balance":"1.5"}"#,
            br#"{"status":"applied","remoteReference":"tx-1"}"#,
            b"",
            b"OK",
        ] {
            assert_eq!(AppliedAnswer::read(body), None, "{}", String::from_utf8_lossy(body));
        }
    }

    #[test]
    fn what_the_simulator_writes_the_platform_reads() {
        let answer = AppliedAnswer {
            status: AppliedStatus::Applied,
            remote_reference: RemoteReference::parse("sim-9").unwrap(),
            balance: "1000".into(),
        };
        let body = serde_json::to_vec(&answer).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&body),
            r#"{"status":"applied","remoteReference":"sim-9","balance":"1000"}"#
        );
        assert!(AppliedAnswer::read(&body).is_some());
        let error = ErrorAnswer {
            error: ErrorDetail {
                code: "user_blocked".into(),
                message: None,
            },
        };
        let body = serde_json::to_vec(&error).unwrap();
        assert_eq!(ErrorAnswer::read_code(&body).as_deref(), Some("user_blocked"));
    }

    #[test]
    fn reads_error_codes() {
        let body = br#"{"error":{"code":"insufficient_funds","message":"balance 10 < 50"}}"#;
        assert_eq!(ErrorAnswer::read_code(body).as_deref(), Some("insufficient_funds"));
        assert_eq!(ErrorAnswer::read_code(br#"{"code":"insufficient_funds"}"#), None);
        assert_eq!(ErrorAnswer::read_code(b"<html>Bad Request</html>"), None);
    }
}
