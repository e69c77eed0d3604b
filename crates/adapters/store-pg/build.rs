//! Rebuilds the crate when a migration is added or changed: `embed_migrations!` reads
//! the workspace's `migrations/` directory at compile time.

fn main() {
    println!("cargo:rerun-if-changed=../../../migrations");
}
