//! Players, their launches and their sessions, and the operators' launch settings and
//! brands.

mod branding;
mod launch_settings;
pub(crate) mod rows;
mod session_end;
mod store;
