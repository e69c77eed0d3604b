//! Wallet: each operator's wallet adapter configuration, its signing secrets sealed at
//! rest, and the kept runs of the full-contract wallet test.

mod adapters;
mod test_runs;
