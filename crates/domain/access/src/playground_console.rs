//! What the documentation's playground console may send on an operator's behalf: in
//! production only reads, unless the operator turned the console on for itself; in
//! development and staging everything the key's scopes allow.

use std::fmt;
use std::str::FromStr;

use crate::HttpMethod;

/// The header the playground console marks its requests with, so the service can tell
/// them from the same key's other calls.
pub const PLAYGROUND_CONSOLE_HEADER: &str = "opinion-playground";

/// An operator's choice for the playground console in production.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum PlaygroundConsole {
    /// `GET` requests only: nothing on live data changes by a click in the docs.
    #[default]
    ReadOnly,
    /// Every method the key's scopes allow, on live data.
    ReadWrite,
}

impl PlaygroundConsole {
    /// Every choice, in the order the docs list them.
    pub const ALL: [Self; 2] = [Self::ReadOnly, Self::ReadWrite];

    /// The choice's name on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ReadOnly => "read_only",
            Self::ReadWrite => "read_write",
        }
    }

    /// Whether a console request of `method` may go on, in production or not.
    pub fn admits(self, method: HttpMethod, production: bool) -> bool {
        !production || method == HttpMethod::Get || self == Self::ReadWrite
    }
}

impl fmt::Display for PlaygroundConsole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no [`PlaygroundConsole`] choice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a console choice: `read_only` or `read_write`")]
pub struct UnknownPlaygroundConsole(pub String);

impl FromStr for PlaygroundConsole {
    type Err = UnknownPlaygroundConsole;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|choice| choice.as_str() == name)
            .ok_or_else(|| UnknownPlaygroundConsole(name.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const METHODS: [HttpMethod; 5] = HttpMethod::ALL;

    #[test]
    fn outside_production_the_console_sends_everything() {
        for choice in PlaygroundConsole::ALL {
            assert!(METHODS.iter().all(|method| choice.admits(*method, false)));
        }
    }

    #[test]
    fn in_production_a_read_only_console_sends_reads_only() {
        let read_only = PlaygroundConsole::ReadOnly;
        assert!(read_only.admits(HttpMethod::Get, true));
        assert!(METHODS[1..].iter().all(|method| !read_only.admits(*method, true)));
        assert!(
            METHODS
                .iter()
                .all(|method| PlaygroundConsole::ReadWrite.admits(*method, true))
        );
    }

    #[test]
    fn names_round_trip_and_the_default_is_read_only() {
        for choice in PlaygroundConsole::ALL {
            assert_eq!(choice.as_str().parse(), Ok(choice));
        }
        assert!("on".parse::<PlaygroundConsole>().is_err());
        assert_eq!(PlaygroundConsole::default(), PlaygroundConsole::ReadOnly);
    }
}
