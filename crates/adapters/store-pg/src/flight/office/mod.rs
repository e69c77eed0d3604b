//! The flight back office: the platform's statement keys (`keys.rs`), finalized
//! reports and the operators' chains of signed documents (`reports.rs`), the periods a
//! report list shows (`periods.rs`).

mod keys;
mod periods;
mod reports;
