//! `/api/operator/staff`: dashboard staff and their sessions (staff sessions only).

pub mod dto;
pub mod handlers;
pub mod sessions;
