//! The served OpenAPI document against its committed snapshot, `crates/api/openapi.json`,
//! so that every change to the contract's description shows in review.

use std::path::Path;

/// The snapshot, beside the crate's manifest.
const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json");

/// Set to rewrite the snapshot from the generated document instead of comparing.
const UPDATE: &str = "UPDATE_OPENAPI_SNAPSHOT";

#[test]
fn the_document_matches_its_snapshot() {
    let generated = serde_json::to_string_pretty(&opinion_api::openapi_document()).expect("serialisable") + "\n";
    if std::env::var_os(UPDATE).is_some() {
        std::fs::write(SNAPSHOT, &generated).expect("the snapshot is writable");
        return;
    }
    let committed = std::fs::read_to_string(Path::new(SNAPSHOT)).unwrap_or_default();
    if committed == generated {
        return;
    }
    let (line, (want, got)) = committed
        .lines()
        .chain(std::iter::repeat(""))
        .zip(generated.lines().chain(std::iter::repeat("")))
        .enumerate()
        .find(|(_, (want, got))| want != got)
        .unwrap_or((0, ("", "")));
    panic!(
        "the generated OpenAPI document differs from {SNAPSHOT}, first at line {}:\n  snapshot:  {want}\n  generated: \
         {got}\nIf the change is intended, regenerate the snapshot with `just openapi` (or `{UPDATE}=1 cargo test -p \
         opinion-api --test openapi`) and commit it.",
        line + 1
    );
}
