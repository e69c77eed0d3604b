//! Where tests leave what a person looks at afterwards (screenshots): inside the build's
//! target directory, which is never committed.

use std::path::PathBuf;

/// `<target>/test-artefacts/<suite>`, created when missing; `<target>` is
/// `CARGO_TARGET_DIR` when set, else the workspace's `target/`.
pub fn artefact_dir(suite: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../target")));
    let dir = target.join("test-artefacts").join(suite);
    std::fs::create_dir_all(&dir).unwrap_or_else(|error| panic!("cannot create {}: {error}", dir.display()));
    dir
}
