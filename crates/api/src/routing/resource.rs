//! Resources mounted beside the route table (pages, the player API, the simulated wallet,
//! probes) answer a method they do not serve as the table's routes do: 405
//! `method_not_allowed` with `Allow`, never 404 `route_not_found` for a path that exists.

use std::sync::Arc;

use actix_web::http::Method;
use actix_web::{HttpResponse, Resource, Route, web};

use crate::http::error::ApiError;

/// The resource at `path` serving each `(method, route)`; `route` is made with
/// `web::route()`, and the method is laid on it here, once.
pub fn serving(path: &str, routes: Vec<(Method, Route)>) -> Resource {
    let allowed = allowed(routes.iter().map(|(method, _)| method));
    routes
        .into_iter()
        .fold(web::resource(path), |resource, (method, route)| {
            resource.route(route.method(method))
        })
        .default_service(web::to(move || method_not_allowed(allowed.clone())))
}

/// The `Allow` header's value for `methods`.
pub fn allowed<'a>(methods: impl Iterator<Item = &'a Method>) -> Arc<str> {
    methods.map(Method::as_str).collect::<Vec<_>>().join(", ").into()
}

/// The answer to a method the resource does not serve.
pub async fn method_not_allowed(allowed: Arc<str>) -> Result<HttpResponse, ApiError> {
    Err(ApiError::MethodNotAllowed(allowed))
}
