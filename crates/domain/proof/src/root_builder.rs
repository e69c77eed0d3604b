//! The root of a tree built from its leaves in order, in memory `O(log n)`: finalization
//! walks a period's lines in chunks and never holds them all. The builder keeps a stack of
//! the roots of complete subtrees (sizes strictly decreasing powers of two, like the bits
//! of the leaf count); the root folds the stack from the right, which is RFC 6962's split
//! at the largest power of two below the size, applied recursively.
//!
//! `root_of` is the recursive definition itself (`MTH` of RFC 6962 §2.1), for leaf hashes
//! already in memory; the two agree on every size (a property test holds them to it).

use crate::tree_hash::{TreeHash, empty_root, leaf_hash, node_hash};

/// A subtree whose root a builder can take as one piece.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a subtree of {leaves} leaves cannot follow {count} leaves: it must be a power of two dividing the count")]
pub struct MisalignedSubtree {
    /// The subtree's leaf count.
    pub leaves: u64,
    /// The builder's leaf count.
    pub count: u64,
}

/// Builds a tree's root from its leaves, pushed in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RootBuilder {
    /// `(leaf count, root)` of complete subtrees, oldest first, counts decreasing.
    stack: Vec<(u64, TreeHash)>,
    count: u64,
}

impl RootBuilder {
    /// A builder of no leaves.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the next leaf from its bytes.
    pub fn push_leaf(&mut self, bytes: &[u8]) {
        self.push_leaf_hash(leaf_hash(bytes));
    }

    /// Adds the next leaf from its hash.
    pub fn push_leaf_hash(&mut self, hash: TreeHash) {
        self.push(1, hash);
    }

    /// Adds the root of a complete subtree of `leaves` leaves (a power of two) as the next
    /// `leaves` leaves, e.g. a stored block root. It must start at a multiple of its size,
    /// which is where RFC 6962 puts a complete subtree of that size.
    pub fn push_subtree(&mut self, leaves: u64, root: TreeHash) -> Result<(), MisalignedSubtree> {
        if !leaves.is_power_of_two() || !self.count.is_multiple_of(leaves) {
            return Err(MisalignedSubtree {
                leaves,
                count: self.count,
            });
        }
        self.push(leaves, root);
        Ok(())
    }

    fn push(&mut self, leaves: u64, hash: TreeHash) {
        self.count += leaves;
        let mut top = (leaves, hash);
        while let Some(&(size, left)) = self.stack.last() {
            if size != top.0 {
                break;
            }
            self.stack.pop();
            top = (size * 2, node_hash(&left, &top.1));
        }
        self.stack.push(top);
    }

    /// How many leaves were pushed.
    pub fn leaf_count(&self) -> u64 {
        self.count
    }

    /// The root of the leaves pushed so far (the empty root before any).
    pub fn root(&self) -> TreeHash {
        let mut subtrees = self.stack.iter().rev().map(|(_, hash)| *hash);
        let Some(last) = subtrees.next() else {
            return empty_root();
        };
        subtrees.fold(last, |right, left| node_hash(&left, &right))
    }
}

/// The largest power of two strictly below `n` (for `n ≥ 2`): RFC 6962's split point.
pub(crate) fn split_point(n: u64) -> u64 {
    debug_assert!(n >= 2);
    1 << (63 - (n - 1).leading_zeros())
}

/// `MTH(D[n])` of RFC 6962 §2.1, over leaf hashes.
pub fn root_of(leaves: &[TreeHash]) -> TreeHash {
    match leaves {
        [] => empty_root(),
        [leaf] => *leaf,
        _ => {
            let k = split_point(leaves.len() as u64) as usize;
            node_hash(&root_of(&leaves[..k]), &root_of(&leaves[k..]))
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn leaves(n: usize) -> Vec<TreeHash> {
        (0..n).map(|i| leaf_hash(&i.to_be_bytes())).collect()
    }

    #[test]
    fn the_split_is_the_largest_power_of_two_below_n() {
        let cases = [(2, 1), (3, 2), (4, 2), (5, 4), (8, 4), (9, 8), (1_000_000, 524_288)];
        for (n, k) in cases {
            assert_eq!(split_point(n), k, "{n}");
        }
    }

    #[test]
    fn a_builder_of_nothing_has_the_empty_root() {
        assert_eq!(RootBuilder::new().root(), empty_root());
        assert_eq!(RootBuilder::new().leaf_count(), 0);
    }

    #[test]
    fn a_builder_holds_one_root_per_set_bit_of_its_count() {
        let mut builder = RootBuilder::new();
        for leaf in leaves(1_000) {
            builder.push_leaf_hash(leaf);
        }
        assert_eq!(builder.stack.len(), 1_000u64.count_ones() as usize);
    }

    #[test]
    fn a_subtree_goes_only_where_a_complete_subtree_of_its_size_starts() {
        let mut builder = RootBuilder::new();
        builder.push_leaf_hash(leaf_hash(b"0"));
        assert!(builder.push_subtree(2, leaf_hash(b"x")).is_err());
        assert!(builder.push_subtree(3, leaf_hash(b"x")).is_err());
        builder.push_leaf_hash(leaf_hash(b"1"));
        assert!(builder.push_subtree(2, leaf_hash(b"x")).is_ok());
        assert!(builder.push_subtree(0, leaf_hash(b"x")).is_err());
    }

    /// Every size from 0 to 300 is one prefix of the same 300 leaves.
    #[test]
    fn the_streamed_root_is_the_recursive_root_for_every_size_to_300() {
        let leaves = leaves(300);
        let mut builder = RootBuilder::new();
        for (pushed, leaf) in leaves.iter().enumerate() {
            assert_eq!(builder.root(), root_of(&leaves[..pushed]), "size {pushed}");
            assert_eq!(builder.leaf_count(), pushed as u64);
            builder.push_leaf_hash(*leaf);
        }
        assert_eq!(builder.root(), root_of(&leaves));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn block_roots_stand_for_their_leaves(n in 0usize..=300, block_bits in 0u32..=5) {
            let leaves = leaves(n);
            let block = 1usize << block_bits;
            let mut builder = RootBuilder::new();
            let full_blocks = n / block;
            for chunk in leaves.chunks(block).take(full_blocks) {
                builder.push_subtree(block as u64, root_of(chunk)).expect("aligned");
            }
            for leaf in &leaves[full_blocks * block..] {
                builder.push_leaf_hash(*leaf);
            }
            prop_assert_eq!(builder.root(), root_of(&leaves));
        }
    }
}
