//! The fake wallet driven by the platform's real wallet client: what the platform sees of
//! each answer and each fault, and what the wallet's ledger and balances show.

mod answers;
mod faults;
mod support;
