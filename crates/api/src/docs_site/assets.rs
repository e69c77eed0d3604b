//! The site's stylesheet and script, served from the service (no CDN) at addresses that
//! carry a hash of their content, so they can be cached for a year and a new build is
//! fetched at once.

use std::sync::LazyLock;

use crate::shared::web_page::hashed_address;

/// The stylesheet.
pub const STYLE: &str = include_str!("assets/docs.css");
/// The search box's script.
pub const SCRIPT: &str = include_str!("assets/search.js");
/// The playground's console.
pub const PLAYGROUND: &str = include_str!("assets/playground.js");
/// The site's icon (without one, browsers ask for `/favicon.ico` and log its 404).
pub const ICON: &str = include_str!("assets/favicon.svg");

/// The stylesheet's address.
pub static STYLE_URL: LazyLock<String> = LazyLock::new(|| hashed_address("/docs/assets", "docs.css", STYLE));
/// The playground script's address.
pub static PLAYGROUND_URL: LazyLock<String> =
    LazyLock::new(|| hashed_address("/docs/assets", "playground.js", PLAYGROUND));
/// The icon's address.
pub static ICON_URL: LazyLock<String> = LazyLock::new(|| hashed_address("/docs/assets", "favicon.svg", ICON));
/// The script's address.
pub static SCRIPT_URL: LazyLock<String> = LazyLock::new(|| hashed_address("/docs/assets", "search.js", SCRIPT));

/// The asset named `name` and its media type.
pub fn asset(name: &str) -> Option<(&'static str, &'static str)> {
    match name {
        "docs.css" => Some((STYLE, "text/css; charset=utf-8")),
        "search.js" => Some((SCRIPT, "text/javascript; charset=utf-8")),
        "playground.js" => Some((PLAYGROUND, "text/javascript; charset=utf-8")),
        "favicon.svg" => Some((ICON, "image/svg+xml")),
        _ => None,
    }
}
