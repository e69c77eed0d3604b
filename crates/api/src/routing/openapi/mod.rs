//! The OpenAPI 3.1 document of the operator API, generated: the operations the handlers
//! document in their own attributes, with the route table's requirement of each laid on
//! top (a test holds every route of the table documented).

mod bounds;
mod digits;
mod operations;
#[cfg(test)]
mod pattern_tests;
mod requirements;
#[cfg(test)]
mod tests;

use std::sync::LazyLock;

use actix_web::web::Bytes;
use opinion_access::{HttpMethod, ROUTES};
use utoipa::OpenApi as _;
use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::{Info, InfoBuilder, OpenApi};

use crate::routing::openapi::operations::HandlerOperations;

/// The document's JSON as `GET /api/operator/openapi.json` serves it: made once per
/// process, on its first request, and shared by every worker. Each worker builds its own
/// `App`, and a document per worker showed in the service's resident memory.
pub fn served_json() -> Result<Bytes, String> {
    static SERVED: LazyLock<Result<Bytes, String>> = LazyLock::new(|| {
        serde_json::to_vec(&document())
            .map(Bytes::from)
            .map_err(|e| e.to_string())
    });
    SERVED.clone()
}

/// The whole document, as `GET /api/operator/openapi.json` serves it.
pub fn document() -> OpenApi {
    let mut document = HandlerOperations::openapi();
    document.info = info();
    for spec in ROUTES {
        let item = document.paths.paths.entry(spec.path.to_owned()).or_default();
        if let Some(operation) = operation_of(item, spec.method) {
            requirements::lay(operation, spec);
        }
    }
    requirements::declare_schemes(&mut document);
    bounds::lay(&mut document);
    group_by_path(&mut document);
    document
}

fn info() -> Info {
    InfoBuilder::new()
        .title("Opinion operator API")
        .version("v1")
        .description(Some(
            "REST v1 of the Opinion platform. Authenticate with `Authorization: Bearer <API key or staff session \
             token>`. Errors are `application/problem+json` with a stable `code`.",
        ))
        .build()
}

/// Where a path item keeps the operation of `method`.
fn operation_of(item: &mut PathItem, method: HttpMethod) -> &mut Option<Operation> {
    match method {
        HttpMethod::Get => &mut item.get,
        HttpMethod::Post => &mut item.post,
        HttpMethod::Put => &mut item.put,
        HttpMethod::Patch => &mut item.patch,
        HttpMethod::Delete => &mut item.delete,
    }
}

/// Tags every operation with the first segment of its path below `/api/operator` (or below
/// the root, for the pages beside the operator API); the unauthenticated routes under
/// `/api/public` are tagged `public`.
fn group_by_path(document: &mut OpenApi) {
    for (path, item) in &mut document.paths.paths {
        let tag = if path.starts_with("/api/public/") {
            "public".to_owned()
        } else {
            path.trim_start_matches("/api/operator")
                .trim_start_matches('/')
                .split('/')
                .next()
                .unwrap_or_default()
                .to_owned()
        };
        let operations = [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.patch,
            &mut item.delete,
        ];
        for operation in operations.into_iter().flatten() {
            operation.tags = Some(vec![tag.clone()]);
        }
    }
}
