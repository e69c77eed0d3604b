//! Settlement: a market's resolution, the wallet worker's claims and the reads of manual
//! review.

mod claims;
mod fixtures;
mod resolution;
