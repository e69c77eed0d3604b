//! Markdown to the site's HTML: CommonMark with tables, every heading given its GitHub id
//! and a link to itself, every link resolved to a site address (a link that resolves to
//! nothing is an error, so a page cannot ship a broken link), wide tables made to scroll
//! on a phone, and the plain text of each section kept for the search index.

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};

use crate::docs_site::slug::Slugger;

/// One page, rendered.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The text of the first heading, the page's title.
    pub title: String,
    /// The body's HTML.
    pub html: String,
    /// Each heading's id and text with the plain text that follows it.
    pub sections: Vec<Section>,
}

/// A heading and the text under it, up to the next heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The heading's id (`#id` links to it).
    pub id: String,
    /// The heading's text.
    pub heading: String,
    /// The plain text below it.
    pub text: String,
}

/// Renders `source`; `resolve` maps each link's target to a site address, or says it
/// cannot. Fails listing every link that does not resolve.
pub fn render(source: &str, resolve: impl Fn(&str) -> Option<String>) -> Result<Rendered, Vec<String>> {
    let mut unresolved = Vec::new();
    let mut slugger = Slugger::default();
    let mut events = Vec::new();
    let mut sections: Vec<Section> = Vec::new();
    let mut heading: Option<(HeadingLevel, Vec<Event>, String)> = None;

    for event in Parser::new_ext(source, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        let event = match event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let target = resolve(&dest_url).unwrap_or_else(|| {
                    unresolved.push(dest_url.to_string());
                    dest_url.to_string()
                });
                Event::Start(Tag::Link {
                    link_type,
                    dest_url: CowStr::from(target),
                    title,
                    id,
                })
            }
            other => other,
        };
        if let Some((level, inner, text)) = heading.as_mut() {
            match event {
                Event::End(TagEnd::Heading(_)) => {
                    let id = slugger.slug(text);
                    let mut inner_html = String::new();
                    html::push_html(&mut inner_html, inner.drain(..));
                    let n = *level as usize;
                    events.push(Event::Html(CowStr::from(format!(
                        "<h{n} id=\"{id}\">{inner_html}<a class=\"anchor\" href=\"#{id}\" \
                         aria-label=\"Link to this section\">#</a></h{n}>\n"
                    ))));
                    sections.push(Section {
                        id,
                        heading: text.clone(),
                        text: String::new(),
                    });
                    heading = None;
                }
                Event::Text(ref t) | Event::Code(ref t) => {
                    text.push_str(t);
                    inner.push(event);
                }
                other => inner.push(other),
            }
            continue;
        }
        match event {
            Event::Start(Tag::Heading { level, .. }) => heading = Some((level, Vec::new(), String::new())),
            Event::Start(Tag::Table(_)) => {
                events.push(Event::Html(CowStr::Borrowed("<div class=\"table\">")));
                events.push(event);
            }
            Event::End(TagEnd::Table) => {
                events.push(event);
                events.push(Event::Html(CowStr::Borrowed("</div>\n")));
            }
            Event::Text(ref t) | Event::Code(ref t) => {
                if let Some(section) = sections.last_mut() {
                    section.text.push_str(t);
                }
                events.push(event);
            }
            Event::SoftBreak | Event::HardBreak | Event::End(_) => {
                if let Some(section) = sections.last_mut()
                    && !section.text.ends_with(' ')
                {
                    section.text.push(' ');
                }
                events.push(event);
            }
            other => events.push(other),
        }
    }
    if !unresolved.is_empty() {
        return Err(unresolved);
    }
    let mut body = String::new();
    html::push_html(&mut body, events.into_iter());
    let title = sections.first().map(|s| s.heading.clone()).unwrap_or_default();
    Ok(Rendered {
        title,
        html: body,
        sections,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(target: &str) -> Option<String> {
        Some(target.to_owned())
    }

    #[test]
    fn headings_get_ids_and_a_link_to_themselves() {
        let page = render("# Title\n\n## Signing `secrets`\n\ntext", same).expect("renders");
        assert_eq!(page.title, "Title");
        assert!(
            page.html.contains(
                "<h2 id=\"signing-secrets\">Signing <code>secrets</code><a class=\"anchor\" href=\"#signing-secrets\""
            ),
            "{}",
            page.html
        );
        assert_eq!(page.sections[1].text.trim(), "text");
    }

    #[test]
    fn links_are_resolved_and_a_link_to_nowhere_is_an_error() {
        let resolve = |target: &str| (target == "webhooks.md#retries").then(|| "/docs/webhooks#retries".to_owned());
        let page = render("# T\n\n[retries](webhooks.md#retries)", resolve).expect("renders");
        assert!(page.html.contains("href=\"/docs/webhooks#retries\""));
        let broken = render("# T\n\n[a](nowhere.md) [b](webhooks.md#retries)", resolve).expect_err("refused");
        assert_eq!(broken, vec!["nowhere.md".to_owned()]);
    }

    #[test]
    fn text_and_code_are_escaped() {
        let page = render("# T\n\na < b & `<i>`", same).expect("renders");
        assert!(
            page.html.contains("a &lt; b &amp; <code>&lt;i&gt;</code>"),
            "{}",
            page.html
        );
    }

    #[test]
    fn tables_scroll_inside_their_own_box() {
        let page = render("# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", same).expect("renders");
        assert!(page.html.contains("<div class=\"table\"><table>"));
    }
}
