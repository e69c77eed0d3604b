//! The Opinion product: trading YES/NO shares with the operator's wallet
//! (`trading`), what follows trading — market administration, resolution, redemptions,
//! the wallet worker and manual review (`settlement`) — and the operator's reads
//! (`reads`).

pub mod ports;

pub mod reads;
pub mod settlement;
pub mod trading;
