//! The dashboard's stylesheet and script, served from the service at addresses carrying
//! their hash (the documentation site's approach, `shared::web_page`).

use std::sync::LazyLock;

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};

use crate::dashboard::page::POLICY;
use crate::http::error::ApiError;
use crate::shared::web_page::{ASSET_CACHE, answer, hashed_address};

const BASE: &str = "/dashboard/assets";
/// The stylesheet.
const STYLE: &str = include_str!("assets/dashboard.css");
/// Local times, copy buttons, the phone menu.
const SCRIPT: &str = include_str!("assets/dashboard.js");
/// The icon (without one, browsers ask for `/favicon.ico` and log its 404).
const ICON: &str = include_str!("assets/icon.svg");

/// The stylesheet's address.
pub static STYLE_URL: LazyLock<String> = LazyLock::new(|| hashed_address(BASE, "dashboard.css", STYLE));
/// The script's address.
pub static SCRIPT_URL: LazyLock<String> = LazyLock::new(|| hashed_address(BASE, "dashboard.js", SCRIPT));
/// The icon's address.
pub static ICON_URL: LazyLock<String> = LazyLock::new(|| hashed_address(BASE, "icon.svg", ICON));

/// `GET /dashboard/assets/{name}`: no session needed, nothing in them is secret.
pub async fn serve(name: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let (body, media) = match name.as_str() {
        "dashboard.css" => (STYLE, "text/css; charset=utf-8"),
        "dashboard.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        "icon.svg" => (ICON, "image/svg+xml"),
        _ => return Err(ApiError::RouteNotFound),
    };
    Ok(answer(StatusCode::OK, media, ASSET_CACHE, POLICY, body.to_owned()))
}
