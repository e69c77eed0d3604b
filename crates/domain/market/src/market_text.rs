//! The texts staff write for a market: the question players bet on and the rules that
//! say how it will be resolved.

use std::fmt;

use opinion_core::{Label, LabelError};

/// A market's question: trimmed, `1..=`[`MarketQuestion::MAX_CHARS`] characters, one
/// line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MarketQuestion(String);

/// A market's resolution rules: trimmed, at most [`MarketRules::MAX_CHARS`] characters,
/// may be empty and span lines.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MarketRules(String);

/// Why a question or rules text is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MarketTextError {
    /// The question is empty, longer than [`MarketQuestion::MAX_CHARS`], or spans lines.
    #[error("the question {0}")]
    Question(LabelError),
    /// Longer than [`MarketRules::MAX_CHARS`].
    #[error("the rules must be at most {max} characters", max = MarketRules::MAX_CHARS)]
    RulesTooLong,
    /// Control characters other than line breaks and tabs.
    #[error("the rules must not contain control characters other than line breaks and tabs")]
    RulesControlCharacters,
}

impl MarketQuestion {
    /// Longest accepted question, in characters.
    pub const MAX_CHARS: usize = 500;

    /// Trims and validates a question: a one-line label of up to 500 characters.
    pub fn parse(text: &str) -> Result<Self, MarketTextError> {
        Label::parse_at_most(text, Self::MAX_CHARS)
            .map(|label| Self(label.into_string()))
            .map_err(MarketTextError::Question)
    }

    /// The question.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl MarketRules {
    /// Longest accepted rules text, in characters.
    pub const MAX_CHARS: usize = 10_000;

    /// Trims and validates a rules text.
    pub fn parse(text: &str) -> Result<Self, MarketTextError> {
        let trimmed = text.trim();
        if trimmed.chars().count() > Self::MAX_CHARS {
            Err(MarketTextError::RulesTooLong)
        } else if trimmed
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        {
            Err(MarketTextError::RulesControlCharacters)
        } else {
            Ok(Self(trimmed.to_owned()))
        }
    }

    /// The rules text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for MarketQuestion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn question_is_trimmed_and_bounded() {
        let question = MarketQuestion::parse("  Will it rain in Lisbon on 1 May? ").unwrap();
        assert_eq!(question.as_str(), "Will it rain in Lisbon on 1 May?");
        assert_eq!(question.to_string(), question.as_str());
        assert_eq!(
            MarketQuestion::parse(" \t "),
            Err(MarketTextError::Question(LabelError::Empty))
        );
        assert!(MarketQuestion::parse(&"é".repeat(500)).is_ok());
        assert_eq!(
            MarketQuestion::parse(&"é".repeat(501)),
            Err(MarketTextError::Question(LabelError::TooLong {
                max: MarketQuestion::MAX_CHARS
            }))
        );
        assert_eq!(
            MarketQuestion::parse("Rain?\nSnow?"),
            Err(MarketTextError::Question(LabelError::ControlCharacters))
        );
    }

    #[test]
    fn rules_are_trimmed_bounded_and_may_span_lines() {
        assert_eq!(MarketRules::parse("   ").map(|r| r.0), Ok(String::new()));
        let rules = MarketRules::parse(" Source: IPMA.\n\tRain means ≥ 0.1 mm. ").unwrap();
        assert_eq!(rules.as_str(), "Source: IPMA.\n\tRain means ≥ 0.1 mm.");
        assert!(MarketRules::parse(&"x".repeat(10_000)).is_ok());
        assert_eq!(
            MarketRules::parse(&"x".repeat(10_001)),
            Err(MarketTextError::RulesTooLong)
        );
        assert_eq!(
            MarketRules::parse("a\u{0}b"),
            Err(MarketTextError::RulesControlCharacters)
        );
    }
}
