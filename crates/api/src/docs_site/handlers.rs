//! The site's answers: pages (and the not-found page) as HTML under a policy that loads
//! only the site's own files and runs nothing inline, the assets, the search index and
//! the downloads.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use opinion_app::error::AppError;

use crate::docs_site::assets::asset;
use crate::docs_site::site::{SITE, Site};
use crate::docs_site::sources::FILES;
use crate::http::error::ApiError;
use crate::shared::web_page::{ASSET_CACHE, answer as page_answer};
use crate::state::ApiState;
use crate::views::HTML_UTF8;

/// Nothing but the site's own files; no inline script or style, no plugins, no framing,
/// no form posts.
pub const POLICY: &str = "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; \
                          frame-ancestors 'none'";
/// Pages and the index may change with a deployment: kept for five minutes.
const PAGE_CACHE: &str = "public, max-age=300";

fn site() -> Result<&'static Site, ApiError> {
    SITE.as_ref().map_err(|error| {
        ApiError::App(AppError::Internal(format!(
            "the documentation site does not build: {error}"
        )))
    })
}

fn answer(status: StatusCode, media: &'static str, cache: &'static str, body: String) -> HttpResponse {
    page_answer(status, media, cache, POLICY, body)
}

/// `GET /docs` and `GET /docs/{page}`: the page, or the not-found page with 404. The
/// playground is read-only where no simulator runs (production).
pub async fn page(state: web::Data<ApiState>, path: Option<web::Path<String>>) -> Result<HttpResponse, ApiError> {
    let site = site()?;
    let slug = path.map(web::Path::into_inner).unwrap_or_default();
    let slug = slug.trim_end_matches('/');
    Ok(match site.page(slug) {
        Some(_) if slug == "playground" && state.simulator.is_none() => {
            answer(StatusCode::OK, HTML_UTF8, PAGE_CACHE, site.playground_read_only.clone())
        }
        Some(page) => answer(StatusCode::OK, HTML_UTF8, PAGE_CACHE, page.document.clone()),
        None => answer(StatusCode::NOT_FOUND, HTML_UTF8, "no-store", site.not_found.clone()),
    })
}

/// `GET /docs/search-index.json`: every section's address, page, heading and text.
pub async fn search_index() -> Result<HttpResponse, ApiError> {
    let site = site()?;
    Ok(answer(
        StatusCode::OK,
        "application/json",
        PAGE_CACHE,
        site.search_index.clone(),
    ))
}

/// `GET /docs/assets/{name}`: the stylesheet or the script.
pub async fn assets(name: web::Path<String>) -> Result<HttpResponse, ApiError> {
    match asset(&name) {
        Some((body, media)) => Ok(answer(StatusCode::OK, media, ASSET_CACHE, body.to_owned())),
        None => Err(ApiError::RouteNotFound),
    }
}

/// `GET /docs/files/{name}`: a download (a verification script or an example source), as text.
pub async fn files(name: web::Path<String>) -> Result<HttpResponse, ApiError> {
    match FILES.iter().find(|(file, _)| *file == name.as_str()) {
        Some((_, body)) => Ok(answer(
            StatusCode::OK,
            "text/plain; charset=utf-8",
            PAGE_CACHE,
            (*body).to_owned(),
        )),
        None => Err(ApiError::RouteNotFound),
    }
}
