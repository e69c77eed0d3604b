//! The flight product: the `FlightStore` port (`store.rs`) over its rows (`rows.rs`),
//! written in the file of each concern: seed chains and flights (`chains.rs`), tickets
//! (`tickets.rs`) and the places each player holds on a flight (`held_tickets.rs`), the live feed's read (`live_feed.rs`), a step of the game (`change.rs`),
//! the money worker's claims (`money.rs`), enablement, production authorizations and
//! terms; and the lock that elects the one instance that
//! drives flights (`driver_lock.rs`). The operator's reads (`FlightReadStore`) are in `reads/`.

mod chains;
mod change;
pub(crate) mod driver_lock;
mod enablement;
mod held_tickets;
mod live_feed;
mod money;
mod office;
mod production_authorizations;
mod reads;
mod rows;
mod store;
mod terms;
mod tickets;
