//! Published RFC 6962 test vectors: the tree heads of the first 0 to 8 leaves below and
//! inclusion proofs in them. Source: the transparency-dev/merkle project's
//! `testonly/reference_test.go` (carried over from the certificate-transparency project's
//! tests), as also used by the `ct-merkle` crate's known-answer tests.

use opinion_proof::{InclusionProof, RootBuilder, TreeHash, leaf_hash, root_of};

const LEAVES: [&str; 8] = [
    "",
    "00",
    "10",
    "2021",
    "3031",
    "40414243",
    "5051525354555657",
    "606162636465666768696a6b6c6d6e6f",
];

/// The root of the first `n` leaves, `n` = 0 to 8.
const ROOTS: [&str; 9] = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];

/// `(tree size, leaf index, audit path)`.
const INCLUSION: [(u64, u64, &[&str]); 6] = [
    (1, 0, &[]),
    (
        2,
        0,
        &["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7"],
    ),
    (
        2,
        1,
        &["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"],
    ),
    (
        3,
        2,
        &["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"],
    ),
    (
        5,
        1,
        &[
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
    (
        8,
        5,
        &[
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
];

fn leaves() -> Vec<TreeHash> {
    LEAVES
        .iter()
        .map(|bytes| leaf_hash(&hex::decode(bytes).expect("hex")))
        .collect()
}

fn hash(text: &str) -> TreeHash {
    TreeHash::from_hex(text).expect("hash")
}

#[test]
fn the_tree_heads_match_both_ways_of_building() {
    let leaves = leaves();
    let mut builder = RootBuilder::new();
    for (n, expected) in ROOTS.iter().enumerate() {
        assert_eq!(root_of(&leaves[..n]).to_hex(), *expected, "recursive, size {n}");
        assert_eq!(builder.root().to_hex(), *expected, "streamed, size {n}");
        if let Some(leaf) = leaves.get(n) {
            builder.push_leaf_hash(*leaf);
        }
    }
}

#[test]
fn the_inclusion_proofs_match_and_verify() {
    let leaves = leaves();
    for (size, index, path) in INCLUSION {
        let tree = &leaves[..size as usize];
        let proof = InclusionProof::from_leaf_hashes(tree, index).expect("proof");
        let expected: Vec<TreeHash> = path.iter().map(|h| hash(h)).collect();
        assert_eq!(proof.audit_path, expected, "size {size}, index {index}");
        assert_eq!(proof.verify(&tree[index as usize], &hash(ROOTS[size as usize])), Ok(()));
    }
}
