//! The flight back office: the platform's statement keys (`keys.rs`), finalized
//! reports and the operators' chains of signed documents (`reports.rs`), the periods a
//! report list shows (`periods.rs`), the statements' trees kept for ticket proofs
//! (`proofs.rs`).

mod keys;
mod periods;
mod proofs;
mod reports;
