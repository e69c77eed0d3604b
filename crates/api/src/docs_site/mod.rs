//! The operator documentation site at `/docs`: no login, nothing secret, the same in
//! every environment. Written pages are the markdown of `docs/operator/` (and the
//! changelog), compiled into the binary; reference pages are made from the code (the
//! OpenAPI document, `ProblemCode`, the route table, the event catalog, the domain's
//! status sets and the limits table). Everything is rendered once per process, on the
//! first request, with a search index; pages load only the site's own stylesheet and
//! script.

pub(crate) mod assets;
pub mod handlers;
mod layout;
mod markdown;
mod reference;
mod site;
mod slug;
mod sources;

use actix_web::http::Method;
use actix_web::web;

use crate::routing::resource::serving;

/// Where the site starts; `cargo run` prints it.
pub const DOCS_PATH: &str = "/docs";

/// Mounts the site's routes (`GET` only; other methods are 405).
pub fn mount(config: &mut web::ServiceConfig) {
    let get = |path: &str, route: actix_web::Route| serving(path, vec![(Method::GET, route)]);
    config
        .service(get("/docs/search-index.json", web::route().to(handlers::search_index)))
        .service(get("/docs/assets/{name}", web::route().to(handlers::assets)))
        .service(get("/docs/files/{name}", web::route().to(handlers::files)))
        .service(get(DOCS_PATH, web::route().to(handlers::page)))
        .service(get("/docs/{page:.*}", web::route().to(handlers::page)));
}
