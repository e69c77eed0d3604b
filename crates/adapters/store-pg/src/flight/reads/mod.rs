//! The flight product's reads (`FlightReadStore`), one file per resource. Flights and
//! seed chains are platform-wide and read with no operator filter; every other query names
//! the operator. Lists are keyset pages by id, newest first, like Opinion's reads; one
//! flight, one ticket, enablement and terms are the flight store's own finds.

mod chains;
mod flights;
mod store;
mod tickets;
mod totals;
mod wallet_operations;
