//! `/api/operator/staff/sessions`: staff log in and out.

pub mod dto;
pub mod handlers;
