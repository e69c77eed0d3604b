//! The user agent recorded with an API key's last use. It is whatever the client sent,
//! so it is bounded before it is stored: the key listing must stay small however long a
//! header a client invents.

use std::fmt;

/// The most characters of a user agent that are kept. Real browsers and HTTP libraries
/// send well under this; anything longer is cut, not refused, because the request
/// itself is fine.
pub const USER_AGENT_MAX_CHARS: usize = 256;

/// A client's `User-Agent` as recorded: control characters replaced by spaces,
/// surrounding white space trimmed, at most [`USER_AGENT_MAX_CHARS`] characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedUserAgent(String);

impl RecordedUserAgent {
    /// The recorded form of a header value; `None` when nothing printable is left.
    pub fn from_header(raw: &str) -> Option<Self> {
        let printable: String = raw.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        let kept: String = printable.trim().chars().take(USER_AGENT_MAX_CHARS).collect();
        let kept = kept.trim_end();
        (!kept.is_empty()).then(|| Self(kept.to_owned()))
    }

    /// The recorded text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The recorded text, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for RecordedUserAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn an_ordinary_agent_is_kept_as_sent() {
        let agent = "Mozilla/5.0 (X11; Linux x86_64) curl/8.5.0";
        assert_eq!(
            RecordedUserAgent::from_header(agent).map(|a| a.into_string()),
            Some(agent.into())
        );
    }

    #[test]
    fn control_characters_become_spaces_and_blank_agents_are_none() {
        assert_eq!(
            RecordedUserAgent::from_header(" a\tb\r\nc\u{7f} ").map(|a| a.into_string()),
            Some("a b  c".into())
        );
        for blank in ["", "   ", "\n\t"] {
            assert_eq!(RecordedUserAgent::from_header(blank), None, "{blank:?}");
        }
    }

    #[test]
    fn a_long_agent_is_cut_at_a_character_boundary() {
        let long = "é".repeat(USER_AGENT_MAX_CHARS + 10);
        let kept = RecordedUserAgent::from_header(&long).expect("kept");
        assert_eq!(kept.as_str().chars().count(), USER_AGENT_MAX_CHARS);
        assert!(long.starts_with(kept.as_str()));
    }

    proptest! {
        #[test]
        fn whatever_is_sent_is_kept_bounded_and_printable(raw in any::<String>()) {
            if let Some(kept) = RecordedUserAgent::from_header(&raw) {
                prop_assert!(kept.as_str().chars().count() <= USER_AGENT_MAX_CHARS);
                prop_assert!(!kept.as_str().chars().any(char::is_control));
                prop_assert_eq!(kept.as_str().trim(), kept.as_str());
                prop_assert!(!kept.as_str().is_empty());
            }
        }
    }
}
