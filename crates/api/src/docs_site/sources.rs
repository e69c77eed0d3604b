//! The repository files the site is built from, compiled into the binary so the site
//! needs no file at run time: the operator pages of `docs/operator/`, the changelog, the
//! limits table of the decisions, and the files operators download (verification scripts
//! and the examples' sources).

/// `docs/operator/webhooks.md`, also the source of the event catalog's examples.
pub const WEBHOOKS: &str = include_str!("../../../../docs/operator/webhooks.md");

/// The written pages: the file name in `docs/operator/`, the page address below `/docs/`
/// (empty for the start page) and the text.
pub const WRITTEN: &[(&str, &str, &str)] = &[
    ("index.md", "", include_str!("../../../../docs/operator/index.md")),
    (
        "checklist.md",
        "checklist",
        include_str!("../../../../docs/operator/checklist.md"),
    ),
    (
        "environments.md",
        "environments",
        include_str!("../../../../docs/operator/environments.md"),
    ),
    (
        "examples.md",
        "examples",
        include_str!("../../../../docs/operator/examples.md"),
    ),
    (
        "integration-flow.md",
        "integration-flow",
        include_str!("../../../../docs/operator/integration-flow.md"),
    ),
    ("api.md", "api", include_str!("../../../../docs/operator/api.md")),
    (
        "wallet-adapter.md",
        "wallet-adapter",
        include_str!("../../../../docs/operator/wallet-adapter.md"),
    ),
    ("webhooks.md", "webhooks", WEBHOOKS),
    (
        "simulator.md",
        "simulator",
        include_str!("../../../../docs/operator/simulator.md"),
    ),
    (
        "cutover.md",
        "cutover",
        include_str!("../../../../docs/operator/cutover.md"),
    ),
    (
        "flight.md",
        "flight",
        include_str!("../../../../docs/operator/flight.md"),
    ),
    (
        "troubleshooting.md",
        "troubleshooting",
        include_str!("../../../../docs/operator/troubleshooting.md"),
    ),
];

/// `CHANGELOG.md`: the dated contract changes, rendered as the changelog page.
pub const CHANGELOG: &str = include_str!("../../../../CHANGELOG.md");

/// `docs/decisions.md`, of which the site shows the "Limits" table.
pub const DECISIONS: &str = include_str!("../../../../docs/decisions.md");

/// The verification scripts of `docs/flight/` and the sources of `examples/`, served for
/// download under `/docs/files/<name>`; a link to one of them, by any path ending in its
/// name, leads there, so names are unique.
pub const FILES: &[(&str, &str)] = &[
    (
        "verify_flight.py",
        include_str!("../../../../docs/flight/verify_flight.py"),
    ),
    (
        "verify_statement.py",
        include_str!("../../../../docs/flight/verify_statement.py"),
    ),
    (
        "verify_inclusion.py",
        include_str!("../../../../docs/flight/verify_inclusion.py"),
    ),
    (
        "receiver.py",
        include_str!("../../../../examples/webhook-receivers/python/receiver.py"),
    ),
    (
        "receiver.mjs",
        include_str!("../../../../examples/webhook-receivers/node/receiver.mjs"),
    ),
    (
        "Receiver.java",
        include_str!("../../../../examples/webhook-receivers/java/Receiver.java"),
    ),
    (
        "lib.rs",
        include_str!("../../../../examples/webhook-receivers/rust/src/lib.rs"),
    ),
    (
        "main.rs",
        include_str!("../../../../examples/webhook-receivers/rust/src/main.rs"),
    ),
    (
        "adapter.py",
        include_str!("../../../../examples/wallet-adapters/python/adapter.py"),
    ),
    (
        "adapter.mjs",
        include_str!("../../../../examples/wallet-adapters/node/adapter.mjs"),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_markdown_file_of_the_folder_is_a_page() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/operator");
        let mut files: Vec<String> = std::fs::read_dir(folder)
            .expect("docs/operator is readable")
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| name.ends_with(".md"))
            .collect();
        files.sort();
        let mut pages: Vec<String> = WRITTEN.iter().map(|(file, _, _)| (*file).to_owned()).collect();
        pages.sort();
        assert_eq!(
            files, pages,
            "a file of docs/operator is not on the site, or a page has no file"
        );
    }

    #[test]
    fn every_download_has_a_name_of_its_own() {
        let mut names: Vec<&str> = FILES.iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FILES.len(), "two downloads share a name");
    }
}
