//! The patterns the document publishes against the parsers they describe: every text a
//! pattern admits is accepted, and (but where a pattern says less, as documented) every
//! text a parser accepts matches.

use opinion_app::flight::{CLIENT_TICKET_ID_MAX_LEN, CLIENT_TICKET_ID_PATTERN, check_client_ticket_id};
use opinion_flight::{Multiplier, Rupiah};
use opinion_launch::{FrameOrigin, LaunchHost, Locale};
use opinion_wallet::Currency;
use opinion_webhook::SigningSecret;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::string::string_regex;
use proptest::test_runner::TestRunner;
use regex::Regex;

use crate::shared::minor_units::{MINOR_UNITS_PATTERN, minor_units};

/// A pattern, the longest text its field takes, and the parser it describes.
struct Described {
    pattern: &'static str,
    max: usize,
    accepts: fn(&str) -> bool,
    /// Whether every accepted text matches (false where the pattern is a documented subset).
    exact: bool,
}

fn described() -> Vec<Described> {
    vec![
        Described {
            pattern: Locale::PATTERN,
            max: Locale::MAX_CHARS,
            accepts: |text| Locale::parse(text).is_ok(),
            exact: true,
        },
        Described {
            pattern: LaunchHost::PATTERN,
            max: LaunchHost::MAX_CHARS,
            accepts: |text| LaunchHost::parse(text).is_ok(),
            exact: false,
        },
        Described {
            pattern: FrameOrigin::PATTERN,
            max: FrameOrigin::MAX_DOCUMENTED_CHARS,
            accepts: |text| FrameOrigin::parse(text).is_ok(),
            exact: false,
        },
        Described {
            pattern: SigningSecret::PATTERN,
            max: usize::MAX,
            accepts: |text| text.parse::<SigningSecret>().is_ok(),
            exact: true,
        },
        Described {
            pattern: Multiplier::PATTERN,
            max: 19,
            accepts: |text| text.parse::<Multiplier>().is_ok(),
            exact: true,
        },
        Described {
            pattern: Rupiah::PATTERN,
            max: 18,
            accepts: |text| text.parse::<Rupiah>().is_ok(),
            exact: true,
        },
        Described {
            pattern: Currency::PATTERN,
            max: 3,
            accepts: |text| text.parse::<Currency>().is_ok(),
            exact: true,
        },
        Described {
            pattern: CLIENT_TICKET_ID_PATTERN,
            max: CLIENT_TICKET_ID_MAX_LEN,
            accepts: |text| check_client_ticket_id(text).is_ok(),
            exact: true,
        },
        Described {
            pattern: MINOR_UNITS_PATTERN,
            max: 18,
            accepts: |text| minor_units("amount", text).is_ok(),
            exact: true,
        },
    ]
}

fn unanchored(pattern: &str) -> String {
    pattern.trim_start_matches('^').trim_end_matches('$').to_owned()
}

#[test]
fn every_text_a_pattern_admits_is_accepted() {
    let mut runner = TestRunner::deterministic();
    for described in described() {
        let strategy = string_regex(&unanchored(described.pattern)).expect("a pattern proptest reads");
        for _ in 0..256 {
            let text = strategy.new_tree(&mut runner).expect("a text").current();
            if text.chars().count() <= described.max {
                assert!((described.accepts)(&text), "{} admits `{text}`", described.pattern);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_text_a_parser_accepts_matches(text in "[a-zA-Z0-9./:+=_-]{0,48}|whsec_[A-Za-z0-9+/=]{30,90}") {
        for described in described() {
            let pattern = Regex::new(described.pattern).expect("a regular expression");
            let admitted = pattern.is_match(&text) && text.chars().count() <= described.max;
            if admitted {
                prop_assert!((described.accepts)(&text), "{} admits `{text}`", described.pattern);
            }
            if described.exact && (described.accepts)(&text) {
                prop_assert!(pattern.is_match(&text), "{} refuses accepted `{text}`", described.pattern);
            }
        }
    }
}

#[test]
fn the_patterns_take_the_usual_texts() {
    let secret = SigningSecret::from_random_bytes(&[7; 32]).expect("a secret").reveal();
    let long = SigningSecret::from_random_bytes(&[255; 64]).expect("a secret").reveal();
    let samples: [(&str, &str); 8] = [
        (Locale::PATTERN, "pt-BR"),
        (LaunchHost::PATTERN, "play.casino.example"),
        (FrameOrigin::PATTERN, "https://casino.example:8443"),
        (SigningSecret::PATTERN, &secret),
        (SigningSecret::PATTERN, &long),
        (Multiplier::PATTERN, "2.50"),
        (Rupiah::PATTERN, "10000"),
        (Currency::PATTERN, "IDR"),
    ];
    for (pattern, text) in samples {
        assert!(
            Regex::new(pattern).expect("a regular expression").is_match(text),
            "{pattern} `{text}`"
        );
    }
}
