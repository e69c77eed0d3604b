//! Heading ids as GitHub makes them, so a `page.md#section` link that works when the
//! markdown is read in the repository works on the site too.

use std::collections::HashMap;

/// Makes the ids of one page's headings, numbering repeats (`retries`, `retries-1`).
#[derive(Debug, Default)]
pub struct Slugger {
    seen: HashMap<String, usize>,
}

impl Slugger {
    /// The id of a heading reading `text`: lower case, letters, digits, `-` and `_`
    /// kept, spaces made `-`, everything else dropped.
    pub fn slug(&mut self, text: &str) -> String {
        let base: String = text
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let count = self.seen.entry(base.clone()).or_insert(0);
        let slug = if *count == 0 {
            base.clone()
        } else {
            format!("{base}-{count}")
        };
        *count += 1;
        slug
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_match_the_ones_the_repository_pages_link_to() {
        let mut slugger = Slugger::default();
        assert_eq!(
            slugger.slug("The flight product's native-IDR reasons (rule 10)"),
            "the-flight-products-native-idr-reasons-rule-10"
        );
        assert_eq!(
            slugger.slug("What the platform does with each answer"),
            "what-the-platform-does-with-each-answer"
        );
        assert_eq!(slugger.slug("`GET /balance`"), "get-balance");
    }

    #[test]
    fn a_repeated_heading_gets_a_number() {
        let mut slugger = Slugger::default();
        assert_eq!(slugger.slug("Retries"), "retries");
        assert_eq!(slugger.slug("Retries"), "retries-1");
        assert_eq!(slugger.slug("Retries"), "retries-2");
    }
}
