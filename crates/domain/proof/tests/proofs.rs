//! Inclusion proofs over real ticket lines, for random tree sizes and leaves: every leaf's
//! proof verifies, and a changed line, swapped leaves, a wrong index or a wrong size do
//! not. The `ct-merkle` crate, an independent RFC 6962 implementation, is the oracle for
//! roots, audit paths and verification.

use ct_merkle::mem_backed_tree::MemoryBackedTree;
use opinion_core::{FlightId, TicketId};
use opinion_flight::{ReportLine, Rupiah, ShareBps};
use opinion_proof::{
    InclusionProof, LineOutcome, PlayerKey, ProofError, ProofLine, RootBuilder, TreeHash, audit_path_ranges, leaf_hash,
    root_of,
};
use proptest::prelude::*;
use sha2_oracle::Sha256;
use time::macros::datetime;

/// The canonical bytes of `n` distinct ticket lines.
fn lines(n: usize) -> Vec<Vec<u8>> {
    let key = PlayerKey::from_bytes([42; 32]);
    (0..n)
        .map(|i| {
            let line = ProofLine {
                ticket_id: TicketId::from_u128(1_000 + i as u128),
                flight_id: FlightId::from_u128(7 + (i / 10) as u128),
                player_tag: key.tag(&format!("player-{}", i % 17)),
                purchased_at: datetime!(2026-11-02 10:00 UTC) + time::Duration::milliseconds(i as i64 * 250),
                outcome: [LineOutcome::CashedOut, LineOutcome::Lost, LineOutcome::Refunded][i % 3],
                money: ReportLine {
                    stake: Rupiah::new(1_000 + i as i64).expect("rupiah"),
                    payout: Rupiah::new(if i % 3 == 0 { 2_500 } else { 0 }).expect("rupiah"),
                    refund: Rupiah::new(if i % 3 == 2 { 1_000 + i as i64 } else { 0 }).expect("rupiah"),
                    share_bps: ShareBps::new(1_500).expect("bps"),
                },
            };
            line.canonical_bytes().expect("canonical")
        })
        .collect()
}

fn tree(n: usize) -> (Vec<Vec<u8>>, Vec<TreeHash>, TreeHash) {
    let lines = lines(n);
    let leaves: Vec<TreeHash> = lines.iter().map(|line| leaf_hash(line)).collect();
    let root = root_of(&leaves);
    (lines, leaves, root)
}

/// On which side of the path each sibling sits (true: left of the leaf).
fn sides(index: u64, size: u64) -> Option<Vec<bool>> {
    audit_path_ranges(index, size).map(|ranges| ranges.iter().map(|range| range.end <= index).collect())
}

fn sized_index() -> impl Strategy<Value = (usize, u64)> {
    (1usize..=300).prop_flat_map(|n| (Just(n), 0..n as u64))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn every_leafs_proof_verifies_and_the_streamed_root_agrees(n in 1usize..=300) {
        let (_, leaves, root) = tree(n);
        let mut builder = RootBuilder::new();
        for leaf in &leaves {
            builder.push_leaf_hash(*leaf);
        }
        prop_assert_eq!(builder.root(), root);
        for index in 0..n as u64 {
            let proof = InclusionProof::from_leaf_hashes(&leaves, index).expect("proof");
            prop_assert_eq!(proof.verify(&leaves[index as usize], &root), Ok(()));
        }
    }

    #[test]
    fn a_changed_byte_of_the_line_fails((n, index) in sized_index(), at in any::<prop::sample::Index>(), flip in 1u8..=255) {
        let (lines, leaves, root) = tree(n);
        let proof = InclusionProof::from_leaf_hashes(&leaves, index).expect("proof");
        let mut changed = lines[index as usize].clone();
        let at = at.index(changed.len());
        changed[at] ^= flip;
        prop_assert_eq!(proof.verify(&leaf_hash(&changed), &root), Err(ProofError::RootMismatch));
    }

    #[test]
    fn swapped_leaves_fail((n, index) in sized_index(), other in any::<prop::sample::Index>()) {
        prop_assume!(n >= 2);
        let (_, leaves, root) = tree(n);
        let other = other.index(n) as u64;
        prop_assume!(other != index);
        let mut swapped = leaves.clone();
        swapped.swap(index as usize, other as usize);
        prop_assert_ne!(root_of(&swapped), root);
        let proof = InclusionProof::from_leaf_hashes(&swapped, index).expect("proof");
        prop_assert!(proof.verify(&swapped[index as usize], &root).is_err());
        let honest = InclusionProof::from_leaf_hashes(&leaves, index).expect("proof");
        prop_assert!(honest.verify(&leaves[other as usize], &root).is_err());
    }

    #[test]
    fn a_wrong_index_fails((n, index) in sized_index(), wrong in 0u64..310) {
        prop_assume!(wrong != index);
        let (_, leaves, root) = tree(n);
        let mut proof = InclusionProof::from_leaf_hashes(&leaves, index).expect("proof");
        proof.leaf_index = wrong;
        prop_assert!(proof.verify(&leaves[index as usize], &root).is_err());
    }

    /// The size is signed in the statement: a verifier takes it from there. A wrong size
    /// fails unless it puts every sibling on the same side (then the path is the same
    /// path, and says the same thing about the leaf's place).
    #[test]
    fn a_wrong_tree_size_fails_unless_the_path_is_the_same((n, index) in sized_index(), wrong in 1u64..=310) {
        prop_assume!(wrong != n as u64);
        let (_, leaves, root) = tree(n);
        let mut proof = InclusionProof::from_leaf_hashes(&leaves, index).expect("proof");
        proof.tree_size = wrong;
        let same_path = sides(index, wrong).is_some() && sides(index, wrong) == sides(index, n as u64);
        prop_assert_eq!(proof.verify(&leaves[index as usize], &root).is_ok(), same_path);
    }

    /// The storage finalization is to use: a proof made on read from stored leaf hashes
    /// and the roots of complete aligned blocks is the proof made from every leaf.
    #[test]
    fn a_proof_from_stored_block_roots_and_leaf_hashes_is_the_same_proof(
        (n, index) in sized_index(),
        block_bits in 1u32..=5,
    ) {
        let (_, leaves, root) = tree(n);
        let block = 1usize << block_bits;
        let block_roots: Vec<TreeHash> = leaves.chunks_exact(block).map(root_of).collect();
        let range_root = |range: std::ops::Range<u64>| {
            let mut builder = RootBuilder::new();
            let mut at = range.start as usize;
            while at < range.end as usize {
                if at.is_multiple_of(block) && at + block <= range.end as usize {
                    builder.push_subtree(block as u64, block_roots[at / block]).expect("aligned");
                    at += block;
                } else {
                    builder.push_leaf_hash(leaves[at]);
                    at += 1;
                }
            }
            builder.root()
        };
        let audit_path = audit_path_ranges(index, n as u64).expect("ranges").into_iter().map(range_root).collect();
        let stored = InclusionProof { leaf_index: index, tree_size: n as u64, audit_path };
        prop_assert_eq!(&stored, &InclusionProof::from_leaf_hashes(&leaves, index).expect("proof"));
        prop_assert_eq!(stored.verify(&leaves[index as usize], &root), Ok(()));
    }

    #[test]
    fn ct_merkle_agrees((n, index) in sized_index()) {
        let (lines, leaves, root) = tree(n);
        let mut oracle = MemoryBackedTree::<Sha256, Vec<u8>>::new();
        for line in &lines {
            oracle.push(line.clone());
        }
        let oracle_root = oracle.root();
        prop_assert_eq!(oracle_root.as_bytes().as_slice(), root.as_bytes().as_slice());
        let proof = InclusionProof::from_leaf_hashes(&leaves, index).expect("proof");
        let path: Vec<u8> = proof.audit_path.iter().flat_map(|hash| hash.as_bytes().to_vec()).collect();
        let expected = oracle.prove_inclusion(index as usize);
        prop_assert_eq!(expected.as_bytes(), path.as_slice());
        let theirs = ct_merkle::InclusionProof::<Sha256>::from_bytes(path);
        prop_assert!(oracle_root.verify_inclusion(&lines[index as usize], index, &theirs).is_ok());
    }
}
