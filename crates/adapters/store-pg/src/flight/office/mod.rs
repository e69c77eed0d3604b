//! The flight back office: the platform's statement keys (`keys.rs`), finalized
//! reports and the operators' chains of signed documents (`reports.rs`).

mod keys;
mod reports;
