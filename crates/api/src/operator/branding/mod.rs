//! `/api/operator/branding`: the operator's name, logo, colours and default language in
//! the hosted app.

pub mod dto;
pub mod handlers;
