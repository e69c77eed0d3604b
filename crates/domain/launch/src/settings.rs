//! An operator's launch settings: its launch hosts and its frame origins, each a short
//! list without repeats. The lists are replaced whole, so each is checked whole.

use crate::frame_origin::FrameOrigin;
use crate::launch_host::LaunchHost;

/// Why a list of hosts or origins is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListError {
    /// More entries than allowed.
    #[error("must have at most {max} entries")]
    TooMany {
        /// The most allowed.
        max: usize,
    },
    /// One entry is not valid.
    #[error("entry {index}: {problem}")]
    Entry {
        /// Its position, from 0.
        index: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// The same entry twice.
    #[error("lists `{0}` twice")]
    Repeated(String),
}

/// The host names an operator's players may open the hosted app on: at most
/// [`LaunchHosts::MAX`], no repeats, in the order given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LaunchHosts(Vec<LaunchHost>);

impl LaunchHosts {
    /// The most launch hosts an operator may have: a brand or two per market it serves,
    /// with room to move from one name to another.
    pub const MAX: usize = 10;

    /// Checks a whole list.
    pub fn parse(texts: &[String]) -> Result<Self, ListError> {
        checked_list(texts, Self::MAX, LaunchHost::parse, LaunchHost::as_str).map(Self)
    }

    /// Hosts already checked (as stored).
    pub fn from_checked(hosts: Vec<LaunchHost>) -> Self {
        Self(hosts)
    }

    /// Whether `host` is one of them.
    pub fn contains(&self, host: &LaunchHost) -> bool {
        self.0.contains(host)
    }

    /// The hosts, in order.
    pub fn as_slice(&self) -> &[LaunchHost] {
        &self.0
    }
}

/// The origins allowed to frame the hosted app on an operator's launch hosts: at most
/// [`FrameOrigins::MAX`], no repeats, in the order given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FrameOrigins(Vec<FrameOrigin>);

impl FrameOrigins {
    /// The most frame origins an operator may list: its sites and their staging copies.
    pub const MAX: usize = 10;

    /// Checks a whole list.
    pub fn parse(texts: &[String]) -> Result<Self, ListError> {
        checked_list(texts, Self::MAX, FrameOrigin::parse, FrameOrigin::as_str).map(Self)
    }

    /// Origins already checked (as stored).
    pub fn from_checked(origins: Vec<FrameOrigin>) -> Self {
        Self(origins)
    }

    /// The origins, in order.
    pub fn as_slice(&self) -> &[FrameOrigin] {
        &self.0
    }

    /// The source list of the page's `frame-ancestors` directive: the origins, or
    /// `'none'` when there are none, so an operator that names no site is never framed.
    pub fn frame_ancestors(&self) -> String {
        if self.0.is_empty() {
            "'none'".to_owned()
        } else {
            self.0.iter().map(FrameOrigin::as_str).collect::<Vec<_>>().join(" ")
        }
    }
}

fn checked_list<T, E: std::fmt::Display>(
    texts: &[String],
    max: usize,
    parse: impl Fn(&str) -> Result<T, E>,
    text_of: impl Fn(&T) -> &str,
) -> Result<Vec<T>, ListError> {
    if texts.len() > max {
        return Err(ListError::TooMany { max });
    }
    let mut checked: Vec<T> = Vec::with_capacity(texts.len());
    for (index, text) in texts.iter().enumerate() {
        let entry = parse(text).map_err(|problem| ListError::Entry {
            index,
            problem: problem.to_string(),
        })?;
        if checked.iter().any(|seen| text_of(seen) == text_of(&entry)) {
            return Err(ListError::Repeated(text.clone()));
        }
        checked.push(entry);
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn texts(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn lists_are_bounded_without_repeats_and_name_the_bad_entry() {
        assert_eq!(LaunchHosts::parse(&[]), Ok(LaunchHosts::default()));
        let hosts = LaunchHosts::parse(&texts(&["play.a.example", "play.b.example"])).expect("valid");
        assert!(hosts.contains(&LaunchHost::parse("play.b.example").expect("host")));
        assert!(!hosts.contains(&LaunchHost::parse("play.c.example").expect("host")));
        let eleven: Vec<String> = (0..11).map(|n| format!("p{n}.example")).collect();
        assert_eq!(LaunchHosts::parse(&eleven), Err(ListError::TooMany { max: 10 }));
        assert_eq!(
            LaunchHosts::parse(&texts(&["a.example", "a.example"])),
            Err(ListError::Repeated("a.example".into()))
        );
        let bad = LaunchHosts::parse(&texts(&["a.example", "B.example"])).expect_err("refused");
        assert_eq!(bad.to_string(), "entry 1: `B.example` must be written in lower case");
        let origin = FrameOrigins::parse(&texts(&["https://a.example", "http://b.example"])).expect_err("refused");
        assert!(
            origin.to_string().starts_with("entry 1: `http://b.example`"),
            "{origin}"
        );
    }

    #[test]
    fn no_origin_frames_nothing_and_origins_frame_exactly_themselves() {
        assert_eq!(FrameOrigins::default().frame_ancestors(), "'none'");
        let origins =
            FrameOrigins::parse(&texts(&["https://casino.example", "https://m.casino.example:8443"])).expect("valid");
        assert_eq!(
            origins.frame_ancestors(),
            "https://casino.example https://m.casino.example:8443"
        );
    }

    proptest! {
        #[test]
        fn an_accepted_origin_can_never_break_out_of_the_directive(text in "https://[a-z0-9.:; '*/-]{1,30}") {
            if let Ok(origins) = FrameOrigins::parse(&[text]) {
                let directive = origins.frame_ancestors();
                prop_assert!(!directive.contains([';', ' ', '\'', '*', ',']), "{}", directive);
            }
        }
    }
}
