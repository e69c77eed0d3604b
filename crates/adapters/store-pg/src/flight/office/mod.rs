//! The flight back office: the platform's statement keys (`keys.rs`), finalized
//! reports and the operators' chains of signed documents (`reports.rs`), the periods a
//! report list shows (`periods.rs`), statement corrections and report balances
//! (`corrections.rs`), settlement payments (`payments.rs`), the statements' trees kept
//! for ticket proofs (`proofs.rs`).

mod corrections;
mod keys;
mod payments;
mod periods;
mod proofs;
mod reports;
