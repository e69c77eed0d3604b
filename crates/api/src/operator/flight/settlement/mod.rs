//! `/api/operator/flight/settlement-reports…`: the operator's settlement reports (open
//! ones computed from its tickets, finalized ones with their signed statements) and the
//! export of a finalized report, its signed statement with the ticket-lines CSV its
//! `linesSha256` hashes (`export.rs`); the signed corrections of finalized statements
//! (`corrections.rs`); the payment history, globally and per report with what remains
//! due (`payments.rs`); the overview's settlement part (`standing.rs`).

pub mod corrections;
pub mod dto;
pub mod export;
pub mod payments;
pub mod reports;
pub mod standing;
