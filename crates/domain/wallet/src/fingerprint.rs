//! The request fingerprint: SHA-256 over a canonical encoding of everything a mutation
//! asks for. Stored with the operation when it is prepared, it lets the platform (and the
//! staging simulator, playing the operator) refuse "same key, different payload", which
//! would break contract rule 2 (same key, same outcome).
//!
//! Encoding, version 1: the tag `opinion.wallet.request.v1`, then the flow, the
//! operator's user id, the amount (8 bytes, big-endian), the currency, the reason key and
//! the number of metadata entries followed by each key and value in key order. Every text
//! is preceded by its byte length (8 bytes, big-endian), so no two different requests
//! share an encoding.

use std::collections::BTreeMap;
use std::fmt;

use sha2::{Digest, Sha256};

use crate::flow::WalletFlow;
use crate::money::{Amount, Currency};
use crate::reason::ReasonKey;

const TAG: &[u8] = b"opinion.wallet.request.v1";
const HEX_LEN: usize = 64;

/// Everything a fingerprint covers, borrowed from the request.
#[derive(Debug, Clone, Copy)]
pub struct FingerprintInput<'a> {
    /// The flow.
    pub flow: WalletFlow,
    /// The operator's own identifier of the player.
    pub external_user_id: &'a str,
    /// The amount.
    pub amount: Amount,
    /// The currency of the amount.
    pub currency: Currency,
    /// The reason key sent.
    pub reason: ReasonKey,
    /// The metadata sent.
    pub metadata: &'a BTreeMap<String, String>,
}

/// Lower-case hex SHA-256 of a request's canonical encoding.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RequestFingerprint(String);

/// A stored text that is not a fingerprint.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a request fingerprint is 64 lower-case hex digits")]
pub struct FingerprintFormatError;

impl RequestFingerprint {
    /// Fingerprints a request.
    pub fn of(input: &FingerprintInput<'_>) -> Self {
        let mut hasher = Sha256::new();
        hasher.update(TAG);
        write_text(&mut hasher, input.flow.as_str());
        write_text(&mut hasher, input.external_user_id);
        hasher.update(input.amount.minor_units().to_be_bytes());
        write_text(&mut hasher, input.currency.as_str());
        write_text(&mut hasher, input.reason.as_str());
        hasher.update(length(input.metadata.len()));
        for (key, value) in input.metadata {
            write_text(&mut hasher, key);
            write_text(&mut hasher, value);
        }
        Self(hasher.finalize().iter().map(|byte| format!("{byte:02x}")).collect())
    }

    /// Reads a stored fingerprint back.
    pub fn parse(text: &str) -> Result<Self, FingerprintFormatError> {
        let well_formed = text.len() == HEX_LEN && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        well_formed.then(|| Self(text.to_owned())).ok_or(FingerprintFormatError)
    }

    /// The hex text, as stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn write_text(hasher: &mut Sha256, text: &str) {
    hasher.update(length(text.len()));
    hasher.update(text.as_bytes());
}

fn length(len: usize) -> [u8; 8] {
    u64::try_from(len).unwrap_or(u64::MAX).to_be_bytes()
}

impl fmt::Display for RequestFingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[derive(Debug, Clone)]
    struct Request {
        flow: WalletFlow,
        user: String,
        amount: i64,
        currency: String,
        reason: ReasonKey,
        metadata: BTreeMap<String, String>,
    }

    impl Request {
        fn fingerprint(&self) -> RequestFingerprint {
            RequestFingerprint::of(&FingerprintInput {
                flow: self.flow,
                external_user_id: &self.user,
                amount: Amount::new(self.amount).unwrap(),
                currency: self.currency.parse().unwrap(),
                reason: self.reason,
                metadata: &self.metadata,
            })
        }
    }

    fn requests() -> impl Strategy<Value = Request> {
        (
            proptest::sample::select(WalletFlow::ALL.to_vec()),
            ".{0,12}",
            1..=i64::MAX,
            "[A-Z]{3}",
            proptest::sample::select(ReasonKey::ALL.to_vec()),
            proptest::collection::btree_map("[a-zA-Z]{1,6}", ".{0,8}", 0..5),
        )
            .prop_map(|(flow, user, amount, currency, reason, metadata)| Request {
                flow,
                user,
                amount,
                currency,
                reason,
                metadata,
            })
    }

    #[test]
    fn is_lower_case_hex_and_reads_back() {
        let request = Request {
            flow: WalletFlow::Buy,
            user: "player-1".into(),
            amount: 100,
            currency: "IDR".into(),
            reason: ReasonKey::OpinionBuy,
            metadata: BTreeMap::new(),
        };
        let fingerprint = request.fingerprint();
        assert_eq!(fingerprint.as_str().len(), 64);
        assert_eq!(RequestFingerprint::parse(fingerprint.as_str()), Ok(fingerprint.clone()));
        assert_eq!(
            RequestFingerprint::parse(&fingerprint.as_str().to_uppercase()),
            Err(FingerprintFormatError)
        );
        assert_eq!(RequestFingerprint::parse("abc"), Err(FingerprintFormatError));
    }

    #[test]
    fn moving_text_between_fields_changes_the_fingerprint() {
        let one = Request {
            flow: WalletFlow::Sell,
            user: "ab".into(),
            amount: 5,
            currency: "EUR".into(),
            reason: ReasonKey::OpinionSell,
            metadata: [("a".to_owned(), "bc".to_owned())].into(),
        };
        let mut other = one.clone();
        other.metadata = [("ab".to_owned(), "c".to_owned())].into();
        assert_ne!(one.fingerprint(), other.fingerprint());
        let mut split = one.clone();
        split.metadata = [("a".to_owned(), "b".to_owned()), ("c".to_owned(), String::new())].into();
        assert_ne!(one.fingerprint(), split.fingerprint());
    }

    proptest! {
        #[test]
        fn the_same_request_has_the_same_fingerprint(request in requests()) {
            prop_assert_eq!(request.fingerprint(), request.clone().fingerprint());
        }

        #[test]
        fn changing_any_field_changes_the_fingerprint(
            request in requests(),
            other in requests(),
            field in 0..6usize,
        ) {
            let mut changed = request.clone();
            match field {
                0 => changed.flow = other.flow,
                1 => changed.user = other.user,
                2 => changed.amount = other.amount,
                3 => changed.currency = other.currency,
                4 => changed.reason = other.reason,
                _ => changed.metadata = other.metadata,
            }
            let same = changed.flow == request.flow
                && changed.user == request.user
                && changed.amount == request.amount
                && changed.currency == request.currency
                && changed.reason == request.reason
                && changed.metadata == request.metadata;
            prop_assert_eq!(changed.fingerprint() == request.fingerprint(), same);
        }

        #[test]
        fn changing_one_metadata_value_changes_the_fingerprint(request in requests(), value in ".{0,8}") {
            let mut changed = request.clone();
            let Some(first) = changed.metadata.values_mut().next() else { return Ok(()) };
            prop_assume!(*first != value);
            *first = value;
            prop_assert_ne!(changed.fingerprint(), request.fingerprint());
        }
    }
}
