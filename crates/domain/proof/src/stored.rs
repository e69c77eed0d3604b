//! What a store keeps of a statement's tree so that any ticket's proof can be made later
//! without the lines: every leaf hash, and the root of every complete aligned block of
//! [`BLOCK_LEAVES`] leaves. A proof's path is the roots of the subtrees
//! `audit_path_ranges` names; a subtree of at least a block is rebuilt from its blocks and
//! the leaves after its last complete block, a smaller one from its leaves, so a proof
//! reads at most about two blocks' worth of leaf hashes and `n / BLOCK_LEAVES` block roots.

use std::ops::Range;

use crate::root_builder::{MisalignedSubtree, RootBuilder};
use crate::tree_hash::TreeHash;

/// Leaves per stored block (a power of two).
pub const BLOCK_LEAVES: u64 = 1_024;

/// Collects the roots of complete blocks while finalization adds leaf hashes in order.
#[derive(Debug, Clone, Default)]
pub struct BlockRoots {
    block: RootBuilder,
    next_block: u64,
}

impl BlockRoots {
    /// No leaves yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the next leaf hash; answers `(block index, root)` when it completes a block.
    pub fn push(&mut self, leaf: TreeHash) -> Option<(u64, TreeHash)> {
        self.block.push_leaf_hash(leaf);
        if self.block.leaf_count() < BLOCK_LEAVES {
            return None;
        }
        let done = (self.next_block, self.block.root());
        self.block = RootBuilder::new();
        self.next_block += 1;
        Some(done)
    }
}

/// The stored pieces that rebuild the subtree of leaves `range`: block roots `blocks`
/// (block indexes) then leaf hashes `leaves` (leaf indexes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubtreePieces {
    /// The complete blocks at the start of the range, by block index.
    pub blocks: Range<u64>,
    /// The leaves after them, by leaf index.
    pub leaves: Range<u64>,
}

impl SubtreePieces {
    /// What rebuilds the subtree of `range` (a subtree of an RFC 6962 tree starts at a
    /// multiple of the smallest power of two not below its size, so a subtree of at least a
    /// block starts on a block boundary).
    pub fn of(range: Range<u64>) -> Self {
        if range.end - range.start < BLOCK_LEAVES || !range.start.is_multiple_of(BLOCK_LEAVES) {
            return Self {
                blocks: 0..0,
                leaves: range,
            };
        }
        let first = range.start / BLOCK_LEAVES;
        let last = range.end / BLOCK_LEAVES;
        Self {
            blocks: first..last,
            leaves: last * BLOCK_LEAVES..range.end,
        }
    }

    /// The subtree's root from the block roots and leaf hashes these pieces name, in order.
    pub fn root(&self, blocks: &[TreeHash], leaves: &[TreeHash]) -> Result<TreeHash, MisalignedSubtree> {
        let mut builder = RootBuilder::new();
        for block in blocks {
            builder.push_subtree(BLOCK_LEAVES, *block)?;
        }
        for leaf in leaves {
            builder.push_leaf_hash(*leaf);
        }
        Ok(builder.root())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::inclusion::{InclusionProof, audit_path_ranges};
    use crate::root_builder::root_of;
    use crate::tree_hash::leaf_hash;

    fn leaves(n: u64) -> Vec<TreeHash> {
        (0..n).map(|i| leaf_hash(&i.to_be_bytes())).collect()
    }

    fn stored_blocks(leaves: &[TreeHash]) -> Vec<TreeHash> {
        let mut roots = BlockRoots::new();
        let mut blocks = Vec::new();
        for (n, leaf) in leaves.iter().enumerate() {
            if let Some((index, root)) = roots.push(*leaf) {
                assert_eq!(index as usize, blocks.len());
                assert_eq!(root, root_of(&leaves[n + 1 - BLOCK_LEAVES as usize..=n]));
                blocks.push(root);
            }
        }
        assert_eq!(blocks.len() as u64, leaves.len() as u64 / BLOCK_LEAVES);
        blocks
    }

    fn proof_from_pieces(leaves: &[TreeHash], blocks: &[TreeHash], index: u64) -> (InclusionProof, u64) {
        let mut read = 0;
        let audit_path = audit_path_ranges(index, leaves.len() as u64)
            .expect("in range")
            .into_iter()
            .map(|range| {
                let pieces = SubtreePieces::of(range);
                read += pieces.leaves.end - pieces.leaves.start;
                let b = &blocks[pieces.blocks.start as usize..pieces.blocks.end as usize];
                let l = &leaves[pieces.leaves.start as usize..pieces.leaves.end as usize];
                pieces.root(b, l).expect("aligned")
            })
            .collect();
        let proof = InclusionProof {
            leaf_index: index,
            tree_size: leaves.len() as u64,
            audit_path,
        };
        (proof, read)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn a_proof_from_stored_pieces_is_the_proof(n in 1u64..5_000, pick in any::<u64>()) {
            let leaves = leaves(n);
            let blocks = stored_blocks(&leaves);
            let index = pick % n;
            let (proof, read) = proof_from_pieces(&leaves, &blocks, index);
            prop_assert_eq!(Some(proof), InclusionProof::from_leaf_hashes(&leaves, index));
            prop_assert!(read < 2 * BLOCK_LEAVES, "{} leaf hashes read", read);
        }
    }
}
