//! Standard Webhooks signatures. Each attempt carries three headers:
//!
//! - `webhook-id`: the message id (the event id), the same on every retry, so receivers
//!   deduplicate on it;
//! - `webhook-timestamp`: the attempt's time in unix seconds, fresh on every attempt, so
//!   receivers can refuse replays of old requests;
//! - `webhook-signature`: space-separated `v1,<base64 HMAC-SHA256(secret, "{id}.{timestamp}.{body}")>`,
//!   one entry per active secret: during a rotation overlap the new and the old secret
//!   both sign, so a receiver holding either one accepts.
//!
//! [`verify`] is the receiver's side, used by the tests and as the operators' reference.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::secret::SigningSecret;

type HmacSha256 = Hmac<Sha256>;

/// Name of the header carrying the message id.
pub const WEBHOOK_ID_HEADER: &str = "webhook-id";
/// Name of the header carrying the attempt's unix time in seconds.
pub const WEBHOOK_TIMESTAMP_HEADER: &str = "webhook-timestamp";
/// Name of the header carrying the signatures.
pub const WEBHOOK_SIGNATURE_HEADER: &str = "webhook-signature";
/// How far a timestamp may be from the receiver's clock, either way, by default: five
/// minutes, the Standard Webhooks recommendation (room for clock skew, little for replay).
pub const DEFAULT_TOLERANCE_SECS: i64 = 5 * 60;

/// The three signature headers' values for one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureHeaders {
    /// Value of `webhook-id`.
    pub webhook_id: String,
    /// Value of `webhook-timestamp` (decimal unix seconds).
    pub webhook_timestamp: String,
    /// Value of `webhook-signature`.
    pub webhook_signature: String,
}

/// Why an attempt cannot be signed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignError {
    /// An endpoint always has at least one active secret; signing with none would send an
    /// unverifiable request.
    #[error("no active signing secret")]
    NoSecret,
}

/// Why a receiver refuses a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// `webhook-timestamp` is not a decimal number of seconds.
    #[error("the webhook timestamp is malformed")]
    MalformedTimestamp,
    /// The timestamp is older than the tolerance: possibly a replayed request.
    #[error("the webhook timestamp is too old")]
    TooOld,
    /// The timestamp is further in the future than the tolerance.
    #[error("the webhook timestamp is too far in the future")]
    TooNew,
    /// No `v1` signature in the header matches the body under this secret.
    #[error("no webhook signature matches")]
    NoMatch,
}

/// A MAC keyed with the secret. Secrets are at most 64 bytes, the SHA-256 block size, and
/// HMAC pads a shorter key with zeros to the block size, so padding here is the same key
/// and keeps key set-up infallible.
fn keyed_mac(secret: &SigningSecret) -> HmacSha256 {
    let mut key = [0u8; 64];
    let bytes = secret.as_bytes();
    key[..bytes.len()].copy_from_slice(bytes);
    HmacSha256::new(&key.into())
}

fn mac_of(secret: &SigningSecret, message_id: &str, timestamp: &str, body: &[u8]) -> HmacSha256 {
    let mut mac = keyed_mac(secret);
    mac.update(message_id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// Signs one attempt of a delivery with every active secret (newest first by convention).
/// `timestamp_secs` is the attempt's time in unix seconds, read by the caller just before
/// sending; `body` is the exact bytes sent.
pub fn sign(
    secrets: &[SigningSecret],
    message_id: &str,
    timestamp_secs: i64,
    body: &[u8],
) -> Result<SignatureHeaders, SignError> {
    if secrets.is_empty() {
        return Err(SignError::NoSecret);
    }
    let timestamp = timestamp_secs.to_string();
    let signatures: Vec<String> = secrets
        .iter()
        .map(|secret| {
            let tag = mac_of(secret, message_id, &timestamp, body).finalize().into_bytes();
            format!("v1,{}", STANDARD.encode(tag))
        })
        .collect();
    Ok(SignatureHeaders {
        webhook_id: message_id.to_owned(),
        webhook_timestamp: timestamp,
        webhook_signature: signatures.join(" "),
    })
}

/// Checks a received request the way an operator should: the timestamp within
/// `tolerance_secs` of `now_secs` (unix seconds) either way, then any `v1` entry of the
/// signature header matching, compared in constant time. Entries of other versions are
/// ignored so a future scheme can be sent alongside.
pub fn verify(
    secret: &SigningSecret,
    message_id: &str,
    timestamp_header: &str,
    signature_header: &str,
    body: &[u8],
    now_secs: i64,
    tolerance_secs: i64,
) -> Result<(), VerifyError> {
    if timestamp_header.is_empty() || !timestamp_header.bytes().all(|b| b.is_ascii_digit()) {
        return Err(VerifyError::MalformedTimestamp);
    }
    let timestamp: i64 = timestamp_header.parse().map_err(|_| VerifyError::MalformedTimestamp)?;
    if timestamp < now_secs.saturating_sub(tolerance_secs) {
        return Err(VerifyError::TooOld);
    }
    if timestamp > now_secs.saturating_add(tolerance_secs) {
        return Err(VerifyError::TooNew);
    }
    let mac = mac_of(secret, message_id, timestamp_header, body);
    let matched = signature_header
        .split(' ')
        .filter_map(|entry| entry.strip_prefix("v1,"))
        .filter_map(|encoded| STANDARD.decode(encoded).ok())
        .any(|tag| mac.clone().verify_slice(&tag).is_ok());
    if matched { Ok(()) } else { Err(VerifyError::NoMatch) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const NOW: i64 = 1_795_000_000;

    fn secret(byte: u8) -> SigningSecret {
        match SigningSecret::from_random_bytes(&[byte; 32]) {
            Ok(secret) => secret,
            Err(error) => panic!("{error}"),
        }
    }

    /// The spec computed directly with the `hmac` and `base64` crates, sharing no code
    /// with the implementation (not even its key padding).
    fn by_hand(key: &[u8], id: &str, timestamp: i64, body: &[u8]) -> String {
        let mut mac = match Hmac::<Sha256>::new_from_slice(key) {
            Ok(mac) => mac,
            Err(error) => panic!("{error}"),
        };
        mac.update(format!("{id}.{timestamp}.").as_bytes());
        mac.update(body);
        format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
    }

    /// The example of the Standard Webhooks specification. Expected value computed
    /// independently with Python's standard library:
    /// `python3 -c 'import hmac,hashlib,base64; k=base64.b64decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    /// m=b"msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{\"test\": 2432232314}";
    /// print(base64.b64encode(hmac.new(k,m,hashlib.sha256).digest()).decode())'`
    #[test]
    fn known_answer_standard_webhooks_example() {
        let secret: Result<SigningSecret, _> = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".parse();
        let Ok(secret) = secret else {
            panic!("spec secret refused")
        };
        let body = br#"{"test": 2432232314}"#;
        let headers = sign(
            std::slice::from_ref(&secret),
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1_614_265_330,
            body,
        );
        assert_eq!(
            headers.map(|h| h.webhook_signature),
            Ok("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=".to_owned())
        );
    }

    /// A 64-byte key (the longest allowed, exactly the block size). Expected value from
    /// Python: `k=bytes([0xAB]*64); m=b"evt_01j9zq3v8k5m2n4p6r8t0w2y4a.1795000000.{\"id\":\"evt_01j9zq3v8k5m2n4p6r8t0w2y4a\",\"data\":{}}";
    /// base64.b64encode(hmac.new(k,m,hashlib.sha256).digest())`.
    #[test]
    fn known_answer_longest_key() {
        let Ok(secret) = SigningSecret::from_random_bytes(&[0xAB; 64]) else {
            panic!("refused")
        };
        let id = "evt_01j9zq3v8k5m2n4p6r8t0w2y4a";
        let body = format!(r#"{{"id":"{id}","data":{{}}}}"#);
        let headers = sign(&[secret], id, NOW, body.as_bytes());
        assert_eq!(
            headers.map(|h| h.webhook_signature),
            Ok("v1,fBwSFYRoasks4siblWV4ofivnUD8gZpq00U7eAyymkg=".to_owned())
        );
    }

    #[test]
    fn matches_hand_computed_hmac_and_sets_headers() {
        let body = br#"{"type":"mini_app.trade.processed"}"#;
        let headers = sign(&[secret(1)], "evt_a", NOW, body);
        assert_eq!(
            headers,
            Ok(SignatureHeaders {
                webhook_id: "evt_a".into(),
                webhook_timestamp: "1795000000".into(),
                webhook_signature: by_hand(&[1; 32], "evt_a", NOW, body),
            })
        );
    }

    #[test]
    fn rotation_signs_with_every_active_secret() {
        let headers = sign(&[secret(2), secret(1)], "evt_a", NOW, b"{}");
        let expected = format!(
            "{} {}",
            by_hand(&[2; 32], "evt_a", NOW, b"{}"),
            by_hand(&[1; 32], "evt_a", NOW, b"{}")
        );
        assert_eq!(headers.as_ref().map(|h| h.webhook_signature.clone()), Ok(expected));
        let Ok(headers) = headers else { panic!("unsigned") };
        for held in [secret(1), secret(2)] {
            let result = verify(
                &held,
                "evt_a",
                &headers.webhook_timestamp,
                &headers.webhook_signature,
                b"{}",
                NOW,
                300,
            );
            assert_eq!(result, Ok(()));
        }
        let other = verify(
            &secret(3),
            "evt_a",
            &headers.webhook_timestamp,
            &headers.webhook_signature,
            b"{}",
            NOW,
            300,
        );
        assert_eq!(other, Err(VerifyError::NoMatch));
    }

    #[test]
    fn refuses_to_sign_without_a_secret() {
        assert_eq!(sign(&[], "evt_a", NOW, b"{}"), Err(SignError::NoSecret));
    }

    #[test]
    fn timestamp_tolerance_is_inclusive_both_ways() {
        let check = |sent: i64| {
            let headers = sign(&[secret(1)], "evt_a", sent, b"{}");
            let Ok(h) = headers else { panic!("unsigned") };
            verify(
                &secret(1),
                "evt_a",
                &h.webhook_timestamp,
                &h.webhook_signature,
                b"{}",
                NOW,
                DEFAULT_TOLERANCE_SECS,
            )
        };
        assert_eq!(check(NOW - 300), Ok(()));
        assert_eq!(check(NOW + 300), Ok(()));
        assert_eq!(check(NOW - 301), Err(VerifyError::TooOld));
        assert_eq!(check(NOW + 301), Err(VerifyError::TooNew));
    }

    #[test]
    fn refuses_malformed_headers() {
        let good = by_hand(&[1; 32], "evt_a", NOW, b"{}");
        for timestamp in [
            "",
            "-1795000000",
            "+1795000000",
            "1795000000.0",
            " 1795000000",
            "99999999999999999999",
        ] {
            let result = verify(&secret(1), "evt_a", timestamp, &good, b"{}", NOW, 300);
            assert_eq!(result, Err(VerifyError::MalformedTimestamp), "{timestamp:?}");
        }
        let stamp = NOW.to_string();
        let tag = good.trim_start_matches("v1,");
        for signature in [
            "",
            "v1,",
            "v1,%%%",
            &format!("v2,{tag}"),
            &format!("v1 {tag}"),
            tag,
            &format!("v1,{tag}="),
        ] {
            let result = verify(&secret(1), "evt_a", &stamp, signature, b"{}", NOW, 300);
            assert_eq!(result, Err(VerifyError::NoMatch), "{signature:?}");
        }
        let mixed = format!("v2,xyz v1,AAAA {good}");
        assert_eq!(verify(&secret(1), "evt_a", &stamp, &mixed, b"{}", NOW, 300), Ok(()));
    }

    fn flip(bytes: &mut [u8], index: usize, delta: u8) {
        let at = index % bytes.len();
        bytes[at] = bytes[at].wrapping_add(delta);
    }

    proptest! {
        #[test]
        fn sign_then_verify_round_trips(
            key in proptest::collection::vec(any::<u8>(), 24..=64),
            id in "[a-z0-9_]{1,40}",
            timestamp in 0i64..4_000_000_000,
            skew in -300i64..=300,
            body in proptest::collection::vec(any::<u8>(), 0..512),
        ) {
            let secret = SigningSecret::from_random_bytes(&key).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let headers = sign(std::slice::from_ref(&secret), &id, timestamp, &body)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&headers.webhook_signature, &by_hand(&key, &id, timestamp, &body));
            let result = verify(&secret, &headers.webhook_id, &headers.webhook_timestamp, &headers.webhook_signature,
                &body, timestamp + skew, DEFAULT_TOLERANCE_SECS);
            prop_assert_eq!(result, Ok(()));
        }

        #[test]
        fn any_single_byte_change_fails(
            id in "[a-z0-9_]{1,40}",
            timestamp in 1_000_000_000i64..4_000_000_000,
            body in proptest::collection::vec(any::<u8>(), 1..256),
            index in any::<usize>(),
            delta in 1u8..=255,
            target in 0u8..3,
        ) {
            let secret = secret(9);
            let headers = sign(std::slice::from_ref(&secret), &id, timestamp, &body)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let mut id_bytes = id.into_bytes();
            let mut stamp_bytes = headers.webhook_timestamp.into_bytes();
            let mut body = body;
            match target {
                0 => flip(&mut body, index, delta),
                1 => {
                    let at = index % id_bytes.len();
                    id_bytes[at] = (id_bytes[at] + 1 + delta % 127) % 128;
                }
                _ => {
                    let at = index % stamp_bytes.len();
                    stamp_bytes[at] = b'0' + (stamp_bytes[at] - b'0' + 1 + delta % 9) % 10;
                }
            }
            let id = String::from_utf8(id_bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let stamp = String::from_utf8(stamp_bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let result = verify(&secret, &id, &stamp, &headers.webhook_signature, &body, timestamp, i64::MAX);
            prop_assert_eq!(result, Err(VerifyError::NoMatch));
        }
    }
}
