//! The site's stylesheet and script, served from the service (no CDN) at addresses that
//! carry a hash of their content, so they can be cached for a year and a new build is
//! fetched at once.

use std::sync::LazyLock;

use sha2::{Digest, Sha256};

/// The stylesheet.
pub const STYLE: &str = include_str!("assets/docs.css");
/// The search box's script.
pub const SCRIPT: &str = include_str!("assets/search.js");
/// The playground's console.
pub const PLAYGROUND: &str = include_str!("assets/playground.js");
/// The site's icon (without one, browsers ask for `/favicon.ico` and log its 404).
pub const ICON: &str = include_str!("assets/favicon.svg");

/// The stylesheet's address.
pub static STYLE_URL: LazyLock<String> = LazyLock::new(|| format!("/docs/assets/docs.css?v={}", short_hash(STYLE)));
/// The playground script's address.
pub static PLAYGROUND_URL: LazyLock<String> =
    LazyLock::new(|| format!("/docs/assets/playground.js?v={}", short_hash(PLAYGROUND)));
/// The icon's address.
pub static ICON_URL: LazyLock<String> = LazyLock::new(|| format!("/docs/assets/favicon.svg?v={}", short_hash(ICON)));
/// The script's address.
pub static SCRIPT_URL: LazyLock<String> = LazyLock::new(|| format!("/docs/assets/search.js?v={}", short_hash(SCRIPT)));

fn short_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .take(6)
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

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
