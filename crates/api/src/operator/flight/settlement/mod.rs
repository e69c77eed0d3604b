//! `/api/operator/flight/settlement-reports…`: the operator's settlement reports (open
//! ones computed from its tickets, finalized ones with their signed statements) and the
//! export of a finalized report, its signed statement with the ticket-lines CSV its
//! `linesSha256` hashes (`export.rs`).

pub mod dto;
pub mod export;
pub mod reports;
