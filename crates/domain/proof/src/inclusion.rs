//! A leaf's inclusion proof (RFC 6962 §2.1.1): its index, the tree's size and the audit
//! path, the roots of the sibling subtrees from the leaf up to the root. Which subtrees
//! those are depends only on the index and the size (`audit_path_ranges`), so the proof can
//! be made from the leaf hashes in memory (`InclusionProof::from_leaf_hashes`) or from any
//! stored pieces that give those subtrees' roots (a `RootBuilder` over stored leaf hashes
//! and block roots), without walking the lines again.
//!
//! Verification is RFC 9162 §2.1.3.2's algorithm: it uses the index and the size to know
//! on which side each sibling goes, and refuses a path of the wrong length.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::root_builder::{root_of, split_point};
use crate::tree_hash::{TreeHash, node_hash};

/// Why a proof does not prove a leaf.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// The index is not below the tree size.
    #[error("leaf {leaf_index} is not in a tree of {tree_size} leaves")]
    IndexOutOfRange {
        /// The proof's leaf index.
        leaf_index: u64,
        /// The proof's tree size.
        tree_size: u64,
    },
    /// The audit path has more or fewer hashes than this index and size need.
    #[error("the audit path has the wrong number of hashes for this index and tree size")]
    PathLength,
    /// The path leads to another root: the line, the index, the size or a hash differs.
    #[error("the proof leads to another root")]
    RootMismatch,
}

/// The leaf ranges `[start, end)` whose roots form the audit path of `leaf_index` in a
/// tree of `tree_size` leaves, from the leaf's sibling up; `None` when the index is not
/// below the size.
pub fn audit_path_ranges(leaf_index: u64, tree_size: u64) -> Option<Vec<Range<u64>>> {
    if leaf_index >= tree_size {
        return None;
    }
    let mut ranges = Vec::new();
    let (mut start, mut end) = (0, tree_size);
    while end - start > 1 {
        let split = start + split_point(end - start);
        if leaf_index < split {
            ranges.push(split..end);
            end = split;
        } else {
            ranges.push(start..split);
            start = split;
        }
    }
    ranges.reverse();
    Some(ranges)
}

/// A leaf's inclusion proof. On the wire: `{"leafIndex": 5, "treeSize": 8, "auditPath":
/// ["<hex>", …]}`, the path from the leaf's sibling up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InclusionProof {
    /// The leaf's place, from 0, in the tree's order.
    pub leaf_index: u64,
    /// How many leaves the tree has (the signed statement's leaf count).
    pub tree_size: u64,
    /// The sibling subtrees' roots, from the leaf up.
    pub audit_path: Vec<TreeHash>,
}

impl InclusionProof {
    /// The proof of leaf `leaf_index` of the tree of `leaves`; `None` when there is no
    /// such leaf.
    pub fn from_leaf_hashes(leaves: &[TreeHash], leaf_index: u64) -> Option<Self> {
        let ranges = audit_path_ranges(leaf_index, leaves.len() as u64)?;
        let audit_path = ranges
            .into_iter()
            .map(|range| root_of(&leaves[range.start as usize..range.end as usize]))
            .collect();
        Some(Self {
            leaf_index,
            tree_size: leaves.len() as u64,
            audit_path,
        })
    }

    /// The root this proof leads to from `leaf` (RFC 9162 §2.1.3.2).
    pub fn root_from(&self, leaf: &TreeHash) -> Result<TreeHash, ProofError> {
        if self.leaf_index >= self.tree_size {
            return Err(ProofError::IndexOutOfRange {
                leaf_index: self.leaf_index,
                tree_size: self.tree_size,
            });
        }
        let (mut index, mut last) = (self.leaf_index, self.tree_size - 1);
        let mut root = *leaf;
        for sibling in &self.audit_path {
            if last == 0 {
                return Err(ProofError::PathLength);
            }
            if index % 2 == 1 || index == last {
                root = node_hash(sibling, &root);
                while index % 2 == 0 && index != 0 {
                    index >>= 1;
                    last >>= 1;
                }
            } else {
                root = node_hash(&root, sibling);
            }
            index >>= 1;
            last >>= 1;
        }
        if last != 0 {
            return Err(ProofError::PathLength);
        }
        Ok(root)
    }

    /// Checks that `leaf` is leaf `leaf_index` of the tree of `tree_size` leaves whose
    /// root is `root`.
    pub fn verify(&self, leaf: &TreeHash, root: &TreeHash) -> Result<(), ProofError> {
        if self.root_from(leaf)? == *root {
            Ok(())
        } else {
            Err(ProofError::RootMismatch)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::tree_hash::leaf_hash;

    fn leaves(n: u64) -> Vec<TreeHash> {
        (0..n).map(|i| leaf_hash(&i.to_be_bytes())).collect()
    }

    #[test]
    fn the_ranges_follow_rfc_6962s_path() {
        assert_eq!(audit_path_ranges(0, 1), Some(vec![]));
        assert_eq!(audit_path_ranges(2, 3), Some(vec![Range { start: 0, end: 2 }]));
        assert_eq!(audit_path_ranges(0, 7), Some(vec![1..2, 2..4, 4..7]));
        assert_eq!(audit_path_ranges(6, 7), Some(vec![4..6, 0..4]));
        assert_eq!(audit_path_ranges(3, 3), None);
    }

    #[test]
    fn a_single_leaf_is_its_own_root() {
        let leaves = leaves(1);
        let proof = InclusionProof::from_leaf_hashes(&leaves, 0).expect("proof");
        assert!(proof.audit_path.is_empty());
        assert_eq!(proof.verify(&leaves[0], &leaves[0]), Ok(()));
    }

    #[test]
    fn a_path_of_the_wrong_length_is_refused() {
        let leaves = leaves(6);
        let root = root_of(&leaves);
        let mut proof = InclusionProof::from_leaf_hashes(&leaves, 4).expect("proof");
        let extra = proof.audit_path[0];
        proof.audit_path.push(extra);
        assert_eq!(proof.verify(&leaves[4], &root), Err(ProofError::PathLength));
        proof.audit_path.truncate(1);
        assert_eq!(proof.verify(&leaves[4], &root), Err(ProofError::PathLength));
    }

    #[test]
    fn an_index_outside_the_tree_is_refused() {
        let proof = InclusionProof {
            leaf_index: 3,
            tree_size: 3,
            audit_path: vec![],
        };
        assert!(matches!(
            proof.verify(&leaf_hash(b""), &leaf_hash(b"")),
            Err(ProofError::IndexOutOfRange { .. })
        ));
        assert!(InclusionProof::from_leaf_hashes(&[], 0).is_none());
    }

    #[test]
    fn the_wire_form_is_camel_case_with_hex_hashes() {
        let leaves = leaves(2);
        let proof = InclusionProof::from_leaf_hashes(&leaves, 1).expect("proof");
        let wire = serde_json::to_value(&proof).expect("json");
        assert_eq!(
            wire,
            json!({"leafIndex": 1, "treeSize": 2, "auditPath": [leaves[0].to_hex()]})
        );
        assert_eq!(serde_json::from_value::<InclusionProof>(wire).expect("read"), proof);
    }
}
