//! Players, their launches and their sessions.

mod store;
