//! How requests reach handlers and how the routes are described: the router mounting
//! the access domain's route table, and the OpenAPI document.

pub mod openapi;
pub mod resource;
pub mod router;
