//! The wallet: adapter configurations, the one table of wallet operations both products
//! share, and the kept runs of the wallet test.

mod adapters;
mod operations;
mod test_runs;
