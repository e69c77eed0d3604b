//! `/api/operator/flight/…`: the flight product's read routes. Money is an integer
//! string of whole rupiah (IDR), multipliers two-decimal strings (`"3.46"`), shares
//! integer basis points; every list is the platform's keyset page, and the exports stream
//! CSV (`csv.rs`) chunk by chunk with the same columns as the list's JSON.

pub mod csv;
pub mod dto;
pub mod handlers;
pub mod proof;
pub mod settlement;
pub mod statement_keys;
pub mod terms;
