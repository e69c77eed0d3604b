//! Wallet: each operator's wallet adapter configuration, its signing secrets sealed at
//! rest.

mod adapters;
