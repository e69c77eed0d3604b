//! Players, their launches and their sessions.

pub(crate) mod rows;
mod session_end;
mod store;
