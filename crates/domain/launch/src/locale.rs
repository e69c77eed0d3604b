//! The locale a launch asks the hosted app to speak: a BCP 47 language tag as browsers
//! and operators write them (`en`, `pt-BR`, `zh-Hant-TW`), bounded in length.

use std::fmt;

/// A language tag: a primary language of 2 or 3 lower-case letters, then subtags of 2 to
/// 8 letters or digits, at most [`Locale::MAX_CHARS`] characters in all.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Locale(String);

/// Why a text is not a locale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("must be a language tag such as `en` or `pt-BR` (at most {max} characters)", max = Locale::MAX_CHARS)]
pub struct LocaleError;

impl Locale {
    /// The longest tag accepted: the length BCP 47 asks every implementation to support.
    pub const MAX_CHARS: usize = 35;

    /// The shape `parse` accepts, as a regular expression for the API document (the
    /// length bound is [`Locale::MAX_CHARS`]).
    pub const PATTERN: &'static str = "^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$";

    /// Checks a tag.
    pub fn parse(text: &str) -> Result<Self, LocaleError> {
        let mut parts = text.split('-');
        let language_ok = parts
            .next()
            .is_some_and(|l| (2..=3).contains(&l.len()) && l.bytes().all(|b| b.is_ascii_lowercase()));
        let rest_ok = parts.all(|p| (2..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()));
        if language_ok && rest_ok && text.len() <= Self::MAX_CHARS {
            Ok(Self(text.to_owned()))
        } else {
            Err(LocaleError)
        }
    }

    /// The tag as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The tag, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for Locale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn tags_are_checked() {
        for good in ["en", "pt-BR", "zh-Hant-TW", "es-419", "id"] {
            assert_eq!(Locale::parse(good).map(Locale::into_string), Ok(good.into()), "{good}");
        }
        let long = format!("en-{}", ["abcdefgh"; 4].join("-"));
        for bad in [
            "",
            "e",
            "EN",
            "en_US",
            "en-",
            "english-x",
            "en-x-a",
            "en US",
            long.as_str(),
        ] {
            assert_eq!(Locale::parse(bad), Err(LocaleError), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn an_accepted_tag_is_short_and_plain(text in "[a-zA-Z0-9-]{0,40}") {
            if let Ok(locale) = Locale::parse(&text) {
                prop_assert!(locale.as_str().len() <= Locale::MAX_CHARS);
                prop_assert!(locale.as_str().bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
            }
        }
    }
}
