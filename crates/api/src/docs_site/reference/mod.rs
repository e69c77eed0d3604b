//! The reference pages made from the code rather than written: the API reference from the
//! OpenAPI document the service serves, the problem codes from `ProblemCode`, the scopes
//! from the route table, the event catalog from `EventType`, status values from the
//! document's closed sets and the limits from the one table that states them. Each is
//! markdown, rendered like the written pages; the tests beside each hold it to its source.

pub mod api;
pub mod events;
pub mod limits;
pub mod playground;
pub mod problems;
pub mod scopes;
pub mod statuses;

/// Text made safe for one cell of a markdown table: no line breaks, `|` escaped, and
/// `<` outside code spans written as an entity so it is never read as HTML.
pub fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            '|' => out.push_str("\\|"),
            '<' if !in_code => out.push_str("&lt;"),
            _ => out.push(c),
        }
    }
    out
}

/// The id a heading reading `text` gets on its page (the first of that text).
pub fn anchor(text: &str) -> String {
    crate::docs_site::slug::Slugger::default().slug(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_stay_one_cell_and_never_html() {
        assert_eq!(cell("a|b\nc <x> `<y>`"), "a\\|b c &lt;x> `<y>`");
    }
}
