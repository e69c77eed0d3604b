//! One operator's statements form a chain: each document names its `sequence` (1, 2, …)
//! and the `previousHash` of the document before it (null for the first), so a dropped,
//! reordered or replaced statement breaks the next link.

use serde_json::{Map, Value};

use crate::canonical::{CanonicalError, DocumentHash, document_hash};

/// Where a document stands in its chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainLink {
    /// 1 for the first document.
    pub sequence: u64,
    /// The hash of the document before it; `None` for the first.
    pub previous_hash: Option<DocumentHash>,
}

/// A broken chain.
#[derive(Debug, thiserror::Error)]
pub enum ChainError {
    /// The document has no valid `sequence` or `previousHash`.
    #[error("the document names no valid sequence and previous hash")]
    MissingLink,
    /// The document does not follow the one given as its predecessor.
    #[error(
        "expected sequence {expected_sequence} after {expected_previous}, found sequence {sequence} after {previous}"
    )]
    Broken {
        /// The sequence that should follow.
        expected_sequence: u64,
        /// The predecessor's hash (`none` for the first).
        expected_previous: String,
        /// The document's sequence.
        sequence: u64,
        /// The hash it names (`none` when null).
        previous: String,
    },
    /// See `CanonicalError`.
    #[error(transparent)]
    Canonical(#[from] CanonicalError),
}

impl ChainLink {
    /// The link of a chain's first document.
    pub fn first() -> Self {
        Self {
            sequence: 1,
            previous_hash: None,
        }
    }

    /// The link of the document that follows `previous`.
    pub fn after(previous: &Value) -> Result<Self, ChainError> {
        let link = Self::of(previous)?;
        Ok(Self {
            sequence: link.sequence + 1,
            previous_hash: Some(document_hash(previous)?),
        })
    }

    /// The link `document` names.
    pub fn of(document: &Value) -> Result<Self, ChainError> {
        let sequence = document
            .get("sequence")
            .and_then(Value::as_u64)
            .filter(|sequence| *sequence >= 1)
            .ok_or(ChainError::MissingLink)?;
        let previous_hash = match document.get("previousHash") {
            Some(Value::Null) => None,
            Some(Value::String(text)) => Some(DocumentHash::parse(text).ok_or(ChainError::MissingLink)?),
            _ => return Err(ChainError::MissingLink),
        };
        Ok(Self {
            sequence,
            previous_hash,
        })
    }

    /// Writes the link into a document's fields.
    pub fn write_into(&self, fields: &mut Map<String, Value>) {
        fields.insert("sequence".into(), Value::from(self.sequence));
        let previous = self.previous_hash.as_ref().map(|hash| hash.to_string());
        fields.insert("previousHash".into(), previous.map_or(Value::Null, Value::String));
    }
}

/// Checks that `document` follows `previous` (the first document follows `None`).
pub fn verify_link(document: &Value, previous: Option<&Value>) -> Result<(), ChainError> {
    let expected = match previous {
        Some(previous) => ChainLink::after(previous)?,
        None => ChainLink::first(),
    };
    let found = ChainLink::of(document)?;
    if found == expected {
        return Ok(());
    }
    let text = |hash: &Option<DocumentHash>| hash.as_ref().map_or_else(|| "none".to_owned(), ToString::to_string);
    Err(ChainError::Broken {
        expected_sequence: expected.sequence,
        expected_previous: text(&expected.previous_hash),
        sequence: found.sequence,
        previous: text(&found.previous_hash),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A chain of `n` documents.
    fn chain(n: u64) -> Vec<Value> {
        let mut documents: Vec<Value> = Vec::new();
        for amount in 0..n {
            let link = match documents.last() {
                Some(previous) => ChainLink::after(previous).expect("link"),
                None => ChainLink::first(),
            };
            let mut fields = Map::new();
            fields.insert("amountDue".into(), json!(amount.to_string()));
            link.write_into(&mut fields);
            documents.push(Value::Object(fields));
        }
        documents
    }

    fn verifies(documents: &[Value]) -> bool {
        documents
            .iter()
            .enumerate()
            .all(|(i, document)| verify_link(document, i.checked_sub(1).map(|p| &documents[p])).is_ok())
    }

    #[test]
    fn a_whole_chain_verifies() {
        let documents = chain(4);
        assert_eq!(documents[0]["previousHash"], Value::Null);
        assert_eq!(documents[3]["sequence"], 4);
        assert!(verifies(&documents));
    }

    #[test]
    fn a_dropped_a_reordered_or_a_changed_document_breaks_the_chain() {
        let mut dropped = chain(4);
        dropped.remove(1);
        assert!(!verifies(&dropped));
        let mut reordered = chain(4);
        reordered.swap(1, 2);
        assert!(!verifies(&reordered));
        let mut changed = chain(4);
        changed[1]["amountDue"] = json!("99");
        assert!(!verifies(&changed));
        let mut first_dropped = chain(3);
        first_dropped.remove(0);
        assert!(!verifies(&first_dropped));
    }

    #[test]
    fn a_document_without_a_link_is_refused() {
        for document in [
            json!({}),
            json!({"sequence": 0, "previousHash": null}),
            json!({"sequence": 1, "previousHash": "abc"}),
            json!({"sequence": 1}),
        ] {
            assert!(
                matches!(verify_link(&document, None), Err(ChainError::MissingLink)),
                "{document}"
            );
        }
    }
}
