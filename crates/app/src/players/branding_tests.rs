//! Branding over mocked ports: a valid brand is stored whole at the request's time, a bad
//! value is refused naming its field without a write, and an unset brand reads as the
//! platform's own.

use opinion_access::Grant;
use opinion_launch::{Branding, Language};

use crate::error::AppError;
use crate::players::BrandingChange;
use crate::test_support::trading::*;
use crate::test_support::{NOW, OPERATOR, api_key_caller};

fn change() -> BrandingChange {
    BrandingChange {
        name: "Casino Merah".into(),
        logo_url: Some("https://cdn.casino.example/logo.svg".into()),
        primary_color: "#B91C1C".into(),
        accent_color: "#111827".into(),
        default_language: "id".into(),
    }
}

#[tokio::test]
async fn a_valid_brand_is_stored_whole() {
    let mut mocks = TradingMocks::new();
    mocks
        .launch_settings
        .expect_replace_branding()
        .times(1)
        .returning(|operator, branding, at| {
            assert_eq!(operator, OPERATOR);
            assert_eq!(at, NOW);
            assert_eq!(branding.primary_color.to_string(), "#b91c1c");
            Ok(())
        });
    let saved = mocks
        .build_players()
        .set_branding(&api_key_caller(Grant::All), change())
        .await
        .expect("saved");
    assert_eq!(saved.branding.default_language, Language::Id);
    assert_eq!(
        saved.branding.logo_url.as_ref().map(|l| l.origin().as_str()),
        Some("https://cdn.casino.example")
    );
}

#[tokio::test]
async fn a_bad_value_names_its_field_and_nothing_is_written() {
    let cases = [
        (
            BrandingChange {
                name: String::new(),
                ..change()
            },
            "name",
        ),
        (
            BrandingChange {
                logo_url: Some("http://cdn.casino.example/l.png".into()),
                ..change()
            },
            "logoUrl",
        ),
        (
            BrandingChange {
                primary_color: "red".into(),
                ..change()
            },
            "primaryColor",
        ),
        (
            BrandingChange {
                accent_color: "#12345".into(),
                ..change()
            },
            "accentColor",
        ),
        (
            BrandingChange {
                default_language: "fr".into(),
                ..change()
            },
            "defaultLanguage",
        ),
    ];
    for (bad, field) in cases {
        let mut mocks = TradingMocks::new();
        mocks.launch_settings.expect_replace_branding().never();
        let refused = mocks
            .build_players()
            .set_branding(&api_key_caller(Grant::All), bad)
            .await
            .expect_err("refused");
        assert!(
            matches!(&refused, AppError::Invalid { field: named, .. } if *named == field),
            "{field}: {refused:?}"
        );
    }
}

#[tokio::test]
async fn an_unset_brand_is_the_platforms_own() {
    let mut mocks = TradingMocks::new();
    mocks.launch_settings.expect_find_branding().returning(|_| Ok(None));
    let brand = mocks
        .build_players()
        .branding(&api_key_caller(Grant::All))
        .await
        .expect("read");
    assert_eq!(brand.branding, Branding::default());
    assert_eq!(brand.updated_at, None);
}
