//! The whole site, built once per process from the sources and the code: every page
//! rendered into its full HTML document, the navigation, and the search index.

use std::collections::HashMap;
use std::sync::LazyLock;

use serde_json::{Value, json};

use crate::docs_site::layout;
use crate::docs_site::markdown::render;
use crate::docs_site::reference::playground::{self, Mode};
use crate::docs_site::reference::{api, events, limits, problems, scopes, statuses};
use crate::docs_site::sources::{CHANGELOG, FILES, WRITTEN};
use crate::routing::openapi::document;

/// Longest text of one section the search index keeps.
const INDEXED_TEXT_CHARS: usize = 2000;

/// A group of pages in the side navigation.
#[derive(Debug, Clone)]
pub struct NavSection {
    /// The group's heading.
    pub title: &'static str,
    /// Its pages: address below `/docs/` and title.
    pub pages: Vec<(String, String)>,
}

/// One rendered page.
#[derive(Debug, Clone)]
pub struct Page {
    /// Its address below `/docs/` (empty for the start page).
    pub slug: String,
    /// The full HTML document.
    pub document: String,
}

/// Every page, the navigation, the search index and the not-found page.
#[derive(Debug)]
pub struct Site {
    /// The pages in navigation order.
    pub pages: Vec<Page>,
    by_slug: HashMap<String, usize>,
    /// The search index's JSON.
    pub search_index: String,
    /// The not-found page's document.
    pub not_found: String,
    /// The playground's document where it is read-only (production).
    pub playground_read_only: String,
}

/// The site, built on first use and shared by every worker.
pub static SITE: LazyLock<Result<Site, String>> = LazyLock::new(Site::build);

impl Site {
    /// The page at `slug`.
    pub fn page(&self, slug: &str) -> Option<&Page> {
        self.by_slug.get(slug).map(|index| &self.pages[*index])
    }

    /// Builds every page; fails naming the pages with links that resolve to nothing.
    pub fn build() -> Result<Site, String> {
        let document = serde_json::to_value(document()).map_err(|error| error.to_string())?;
        let sources = sources(&document);
        let mut nav: Vec<NavSection> = Vec::new();
        let mut rendered = Vec::new();
        let mut broken = Vec::new();
        for (group, slug, markdown) in sources {
            match render(&markdown, resolve) {
                Ok(page) => {
                    match nav.last_mut() {
                        Some(section) if section.title == group => {
                            section.pages.push((slug.clone(), page.title.clone()))
                        }
                        _ => nav.push(NavSection {
                            title: group,
                            pages: vec![(slug.clone(), page.title.clone())],
                        }),
                    }
                    rendered.push((slug, page));
                }
                Err(links) => broken.push(format!("/docs/{slug}: {}", links.join(", "))),
            }
        }
        if !broken.is_empty() {
            return Err(format!("links that lead nowhere: {}", broken.join("; ")));
        }
        let mut index = Vec::new();
        let pages: Vec<Page> = rendered
            .into_iter()
            .map(|(slug, page)| {
                for section in &page.sections {
                    let text: String = section.text.split_whitespace().collect::<Vec<_>>().join(" ");
                    index.push(json!({
                        "u": format!("{}#{}", url_of(&slug), section.id),
                        "p": page.title,
                        "h": section.heading,
                        "x": text.chars().take(INDEXED_TEXT_CHARS).collect::<String>(),
                    }));
                }
                Page {
                    document: layout::document(&page.title, &slug, &nav, &page.html),
                    slug,
                }
            })
            .collect();
        let by_slug = pages
            .iter()
            .enumerate()
            .map(|(index, page)| (page.slug.clone(), index))
            .collect();
        let not_found = layout::document(
            "Page not found",
            "",
            &nav,
            "<h1 id=\"page-not-found\">Page not found</h1>\n<p>No page of the documentation has this address. \
             Start from <a href=\"/docs\">the overview</a>, use the navigation or search.</p>\n",
        );
        let read_only = render(&playground::page(&document, Mode::ReadOnly), resolve)
            .map_err(|links| format!("the read-only playground links nowhere: {}", links.join(", ")))?;
        let playground_read_only = layout::document(&read_only.title, "playground", &nav, &read_only.html);
        Ok(Site {
            pages,
            by_slug,
            search_index: Value::Array(index).to_string(),
            not_found,
            playground_read_only,
        })
    }
}

/// The address of the page at `slug`.
pub fn url_of(slug: &str) -> String {
    if slug.is_empty() {
        "/docs".to_owned()
    } else {
        format!("/docs/{slug}")
    }
}

/// Every page's navigation group, address and markdown, in navigation order.
fn sources(document: &Value) -> Vec<(&'static str, String, String)> {
    let written = |slug: &str| {
        WRITTEN
            .iter()
            .find(|(_, page, _)| *page == slug)
            .map(|(_, _, text)| (*text).to_owned())
            .unwrap_or_default()
    };
    let families = api::pages(document);
    let mut sources = vec![
        ("Getting started", String::new(), written("")),
        ("Getting started", "checklist".to_owned(), written("checklist")),
        ("Getting started", "environments".to_owned(), written("environments")),
        ("Getting started", "examples".to_owned(), written("examples")),
        (
            "Integration flow",
            "integration-flow".to_owned(),
            written("integration-flow"),
        ),
        (
            "Operator API",
            "api".to_owned(),
            format!("{}{}", written("api"), api::family_list(&families)),
        ),
        (
            "Operator API",
            "playground".to_owned(),
            playground::page(document, Mode::Full),
        ),
    ];
    sources.extend(
        families
            .into_iter()
            .map(|family| ("Operator API", family.slug, family.markdown)),
    );
    sources.extend([
        ("Wallet adapter", "wallet-adapter".to_owned(), written("wallet-adapter")),
        ("Webhooks", "webhooks".to_owned(), written("webhooks")),
        ("Webhooks", "reference/events".to_owned(), events::page()),
        ("Staging and go-live", "simulator".to_owned(), written("simulator")),
        ("Staging and go-live", "cutover".to_owned(), written("cutover")),
        ("Flight", "flight".to_owned(), written("flight")),
        ("Reference", "reference/statuses".to_owned(), statuses::page()),
        ("Reference", "reference/scopes".to_owned(), scopes::page(document)),
        ("Reference", "reference/errors".to_owned(), problems::page()),
        ("Reference", "reference/limits".to_owned(), limits::page()),
        ("Help", "troubleshooting".to_owned(), written("troubleshooting")),
        ("Help", "changelog".to_owned(), CHANGELOG.to_owned()),
    ]);
    sources
}

/// Where a link of a source leads on the site: addresses and fragments as written, a
/// markdown file of `docs/operator/` (or the changelog) to its page, a download (a
/// verification script, an example source) to it; anything else (a file the site does
/// not serve) to nothing.
fn resolve(target: &str) -> Option<String> {
    if ["http://", "https://", "mailto:", "#", "/docs", "/api/", "/.well-known/"]
        .iter()
        .any(|prefix| target.starts_with(prefix))
    {
        return Some(target.to_owned());
    }
    let (path, fragment) = match target.split_once('#') {
        Some((path, fragment)) => (path, format!("#{fragment}")),
        None => (target, String::new()),
    };
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == "CHANGELOG.md" {
        return Some(format!("/docs/changelog{fragment}"));
    }
    if let Some((_, slug, _)) = WRITTEN.iter().find(|(file, _, _)| *file == name) {
        return Some(format!("{}{fragment}", url_of(slug)));
    }
    FILES
        .iter()
        .find(|(file, _)| *file == name)
        .map(|(file, _)| format!("/docs/files/{file}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> &'static Site {
        SITE.as_ref().unwrap_or_else(|error| panic!("the site builds: {error}"))
    }

    /// Every `href="/docs…"` of a document.
    fn docs_links(document: &str) -> Vec<String> {
        document
            .split("href=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .filter(|href| href.starts_with("/docs"))
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn every_link_between_pages_leads_to_a_page_and_a_heading_on_it() {
        let site = site();
        for page in &site.pages {
            for link in docs_links(&page.document) {
                if link.starts_with("/docs/assets/") || link.starts_with("/docs/files/") {
                    continue;
                }
                let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
                let slug = path.trim_start_matches("/docs").trim_start_matches('/');
                let target = site
                    .page(slug)
                    .unwrap_or_else(|| panic!("/docs/{} links to {link}, which is no page", page.slug));
                assert!(
                    fragment.is_empty() || target.document.contains(&format!(" id=\"{fragment}\"")),
                    "/docs/{} links to {link}, whose page has no such heading",
                    page.slug
                );
            }
        }
    }

    #[test]
    fn links_to_the_repository_resolve_to_pages_and_files_and_others_to_nothing() {
        assert_eq!(
            resolve("simulator.md#the-wallet-test").as_deref(),
            Some("/docs/simulator#the-wallet-test")
        );
        assert_eq!(resolve("index.md").as_deref(), Some("/docs"));
        assert_eq!(resolve("../../CHANGELOG.md").as_deref(), Some("/docs/changelog"));
        assert_eq!(
            resolve("../flight/verify_flight.py").as_deref(),
            Some("/docs/files/verify_flight.py")
        );
        assert_eq!(resolve("decisions.md"), None);
    }

    #[test]
    fn the_index_has_every_section_of_every_page() {
        let site = site();
        let index: Vec<Value> = serde_json::from_str(&site.search_index).expect("the index is JSON");
        let headings: usize = site
            .pages
            .iter()
            .map(|page| page.document.matches("class=\"anchor\"").count())
            .sum();
        assert_eq!(index.len(), headings);
        assert!(index.iter().any(|entry| entry["u"] == "/docs/webhooks#retries"));
    }
}
