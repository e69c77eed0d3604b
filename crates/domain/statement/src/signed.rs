//! Signing a document and verifying a signed one. The signed form is
//! `{"document": {...}, "signature": {"algorithm": "Ed25519", "keyId": "…", "value": "…"}}`
//! where `value` is the base64 of the 64-byte Ed25519 signature over the document's
//! canonical bytes, and the document names the same `keyId` (so the key is signed too).
//! A retired key verifies what it signed before its retirement, never anything after.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ed25519_dalek::Signature;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::canonical::{CanonicalError, DocumentHash, canonical_bytes, document_hash};
use crate::key::{PublicKey, StatementKey};

/// The one algorithm statements are signed with.
const ALGORITHM: &str = "Ed25519";

/// A document and its signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedDocument {
    /// The signed document (a JSON object naming its `keyId`).
    pub document: Value,
    /// Its signature.
    pub signature: DocumentSignature,
}

/// The signature of a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DocumentSignature {
    /// Always `Ed25519`.
    pub algorithm: String,
    /// The key that signed it.
    pub key_id: String,
    /// The signature's 64 bytes, base64.
    pub value: String,
}

/// Why a document cannot be signed.
#[derive(Debug, thiserror::Error)]
pub enum SignError {
    /// Statements are JSON objects.
    #[error("a signed document is a JSON object")]
    NotAnObject,
    /// The document names another key.
    #[error("the document names key {named}, not the signing key {signing}")]
    OtherKeyNamed {
        /// The key id in the document.
        named: String,
        /// The signing key's id.
        signing: String,
    },
    /// See `CanonicalError`.
    #[error(transparent)]
    Canonical(#[from] CanonicalError),
}

/// Why a signed document does not verify.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The signature names another algorithm.
    #[error("the signature's algorithm is {0}, not Ed25519")]
    Algorithm(String),
    /// The signature and the document name different keys.
    #[error("the signature names key {signature}, the document {document}")]
    KeyIdMismatch {
        /// In the signature.
        signature: String,
        /// In the document (empty when it names none).
        document: String,
    },
    /// No published key has the id.
    #[error("no published key has the id {0}")]
    UnknownKey(String),
    /// The key was retired before the document says it was issued.
    #[error("key {0} was retired before the document was issued")]
    RetiredKey(String),
    /// The signature is not 64 bytes of base64.
    #[error("the signature is not 64 bytes of base64")]
    SignatureEncoding,
    /// The signature does not match the document: it was altered, or signed by another key.
    #[error("the signature does not match the document")]
    BadSignature,
    /// See `CanonicalError`.
    #[error(transparent)]
    Canonical(#[from] CanonicalError),
}

/// A published key as a verifier knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownKey {
    /// The key.
    pub public_key: PublicKey,
    /// When it was retired (RFC 3339 UTC, as published), `None` while current.
    pub retired_at: Option<String>,
}

/// Signs `document` with `key`, writing the key's id into it as `keyId`.
pub fn sign(mut document: Value, key: &StatementKey) -> Result<SignedDocument, SignError> {
    let key_id = key.key_id().to_string();
    let fields = document.as_object_mut().ok_or(SignError::NotAnObject)?;
    match fields.get("keyId") {
        Some(Value::String(named)) if *named == key_id => {}
        Some(named) => {
            return Err(SignError::OtherKeyNamed {
                named: named.to_string(),
                signing: key_id,
            });
        }
        None => {
            fields.insert("keyId".into(), Value::String(key_id.clone()));
        }
    }
    let signature = key.sign(&canonical_bytes(&document)?);
    Ok(SignedDocument {
        document,
        signature: DocumentSignature {
            algorithm: ALGORITHM.into(),
            key_id,
            value: STANDARD.encode(signature.to_bytes()),
        },
    })
}

/// Verifies `signed` against the published keys (`key_for` finds one by id) and answers
/// the document's hash. A document issued (`issuedAt`, RFC 3339 UTC) at or after its
/// key's retirement is refused.
pub fn verify(
    signed: &SignedDocument,
    key_for: impl Fn(&str) -> Option<KnownKey>,
) -> Result<DocumentHash, VerifyError> {
    let signature = &signed.signature;
    if signature.algorithm != ALGORITHM {
        return Err(VerifyError::Algorithm(signature.algorithm.clone()));
    }
    let named = signed.document.get("keyId").and_then(Value::as_str).unwrap_or_default();
    if named != signature.key_id {
        return Err(VerifyError::KeyIdMismatch {
            signature: signature.key_id.clone(),
            document: named.to_owned(),
        });
    }
    let known = key_for(&signature.key_id).ok_or_else(|| VerifyError::UnknownKey(signature.key_id.clone()))?;
    if let Some(retired_at) = &known.retired_at {
        let issued_at = signed
            .document
            .get("issuedAt")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if !issued_before(issued_at, retired_at) {
            return Err(VerifyError::RetiredKey(signature.key_id.clone()));
        }
    }
    let bytes: [u8; 64] = STANDARD
        .decode(&signature.value)
        .ok()
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or(VerifyError::SignatureEncoding)?;
    if !known
        .public_key
        .verifies(&canonical_bytes(&signed.document)?, &Signature::from_bytes(&bytes))
    {
        return Err(VerifyError::BadSignature);
    }
    Ok(document_hash(&signed.document)?)
}

/// Whether RFC 3339 instant `issued_at` is strictly before `retired_at`; an instant that
/// does not parse is never before.
fn issued_before(issued_at: &str, retired_at: &str) -> bool {
    let parse = |text: &str| OffsetDateTime::parse(text, &Rfc3339).ok();
    matches!((parse(issued_at), parse(retired_at)), (Some(issued), Some(retired)) if issued < retired)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn key() -> StatementKey {
        StatementKey::from_seed([1; 32])
    }

    fn known(key: &StatementKey, retired_at: Option<&str>) -> impl Fn(&str) -> Option<KnownKey> {
        let public_key = key.public_key();
        let id = key.key_id().to_string();
        let retired_at = retired_at.map(str::to_owned);
        move |asked: &str| {
            (asked == id).then(|| KnownKey {
                public_key,
                retired_at: retired_at.clone(),
            })
        }
    }

    fn statement() -> Value {
        json!({"reportId": "fsr_1", "amountDue": "1300", "issuedAt": "2026-12-01T00:05:00Z"})
    }

    #[test]
    fn a_signed_document_verifies_and_answers_its_hash() {
        let signed = sign(statement(), &key()).expect("signed");
        assert_eq!(signed.document["keyId"], key().key_id().to_string());
        let hash = verify(&signed, known(&key(), None)).expect("verified");
        assert_eq!(hash, document_hash(&signed.document).expect("hash"));
    }

    #[test]
    fn every_changed_field_breaks_the_signature() {
        let signed = sign(statement(), &key()).expect("signed");
        let mut changed = signed.clone();
        changed.document["amountDue"] = json!("1301");
        assert!(matches!(
            verify(&changed, known(&key(), None)),
            Err(VerifyError::BadSignature)
        ));
        let mut added = signed.clone();
        added.document["note"] = json!("");
        assert!(matches!(
            verify(&added, known(&key(), None)),
            Err(VerifyError::BadSignature)
        ));
        let mut resigned = signed;
        resigned.signature.value = STANDARD.encode([0u8; 64]);
        assert!(matches!(
            verify(&resigned, known(&key(), None)),
            Err(VerifyError::BadSignature)
        ));
    }

    #[test]
    fn another_key_an_unknown_key_and_a_wrong_algorithm_are_refused() {
        let other = StatementKey::from_seed([2; 32]);
        let signed = sign(statement(), &other).expect("signed");
        assert!(matches!(
            verify(&signed, known(&key(), None)),
            Err(VerifyError::UnknownKey(_))
        ));
        let mut swapped = signed.clone();
        swapped.signature.key_id = key().key_id().to_string();
        assert!(matches!(
            verify(&swapped, known(&key(), None)),
            Err(VerifyError::KeyIdMismatch { .. })
        ));
        let mut algorithm = signed;
        algorithm.signature.algorithm = "RS256".into();
        assert!(matches!(
            verify(&algorithm, known(&other, None)),
            Err(VerifyError::Algorithm(_))
        ));
    }

    #[test]
    fn a_retired_key_verifies_only_what_it_signed_before_retirement() {
        let signed = sign(statement(), &key()).expect("signed");
        assert!(verify(&signed, known(&key(), Some("2026-12-01T00:05:01Z"))).is_ok());
        assert!(verify(&signed, known(&key(), Some("2026-12-01T00:05:00.001Z"))).is_ok());
        for retired in ["2026-12-01T00:05:00Z", "2026-12-01T00:04:59.999Z", "not a time"] {
            assert!(
                matches!(
                    verify(&signed, known(&key(), Some(retired))),
                    Err(VerifyError::RetiredKey(_))
                ),
                "{retired}"
            );
        }
    }

    #[test]
    fn a_document_naming_another_key_or_not_an_object_is_not_signed() {
        let mut named = statement();
        named["keyId"] = json!("ed25519:0000000000000000");
        assert!(matches!(sign(named, &key()), Err(SignError::OtherKeyNamed { .. })));
        assert!(matches!(sign(json!([1]), &key()), Err(SignError::NotAnObject)));
    }

    #[test]
    fn the_signed_form_round_trips_through_json() {
        let signed = sign(statement(), &key()).expect("signed");
        let text = serde_json::to_string(&signed).expect("json");
        let read: SignedDocument = serde_json::from_str(&text).expect("read");
        assert!(verify(&read, known(&key(), None)).is_ok());
    }

    proptest::proptest! {
        // Ed25519 in a debug build is slow: 64 documents are plenty.
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn any_document_verifies_and_any_changed_value_does_not(
            fields in proptest::collection::btree_map("[a-zA-Z]{1,8}", "[ -~]{0,16}", 1..8),
            changed in "[ -~]{0,16}",
        ) {
            let document = Value::Object(fields.iter().map(|(k, v)| (k.clone(), json!(v))).collect());
            let signed = sign(document, &key()).expect("signed");
            proptest::prop_assert!(verify(&signed, known(&key(), None)).is_ok());
            let (name, value) = fields.iter().next().expect("a field");
            proptest::prop_assume!(*value != changed);
            let mut altered = signed;
            altered.document[name.as_str()] = json!(changed);
            proptest::prop_assert!(verify(&altered, known(&key(), None)).is_err());
        }
    }
}
