//! The page shell every docs page shares: a header with the search box, the side
//! navigation (a menu behind a button on a phone, without script), the page, and the
//! site's own stylesheet and script, both by address (the policy runs nothing inline).

use maud::{DOCTYPE, PreEscaped, html};

use crate::docs_site::assets::{ICON_URL, PLAYGROUND_URL, SCRIPT_URL, STYLE_URL};
use crate::docs_site::site::{NavSection, url_of};

/// The full HTML document of a page whose body is `body` (trusted HTML from the renderer).
pub fn document(title: &str, current: &str, nav: &[NavSection], body: &str) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · Opinion operator documentation" }
                link rel="icon" type="image/svg+xml" href=(ICON_URL.as_str());
                link rel="stylesheet" href=(STYLE_URL.as_str());
                script src=(SCRIPT_URL.as_str()) defer {}
                @if current == "playground" {
                    script src=(PLAYGROUND_URL.as_str()) defer {}
                }
            }
            body {
                header.top {
                    a.brand href="/docs" { "Opinion " span { "operator docs" } }
                    div.search role="search" {
                        input #search type="search" placeholder="Search the docs" aria-label="Search the docs"
                            autocomplete="off" spellcheck="false";
                        ol #results hidden {}
                    }
                }
                input #menu.menu-toggle type="checkbox" aria-label="Show the navigation";
                label.menu-label for="menu" { "Menu" }
                div.frame {
                    nav.side aria-label="Documentation" {
                        @for section in nav {
                            p.group { (section.title) }
                            ul {
                                @for (slug, page_title) in &section.pages {
                                    li {
                                        @if slug == current {
                                            a href=(url_of(slug)) aria-current="page" { (page_title) }
                                        } @else {
                                            a href=(url_of(slug)) { (page_title) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    main.content { (PreEscaped(body)) }
                }
                footer.bottom {
                    "REST v1 · Times are UTC · The "
                    a href="/api/operator/openapi.json" { "OpenAPI document" }
                    " is the machine-readable reference"
                }
            }
        }
    }
    .into_string()
}
