//! `/api/operator/webhooks`: the operator's webhook endpoints and the deliveries to them.

pub mod deliveries;
pub mod endpoints;
