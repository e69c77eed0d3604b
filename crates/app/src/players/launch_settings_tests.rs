//! Launch settings over mocked ports: replaced whole after every entry is checked, the
//! service's own host and another operator's host refused, and unset settings read as
//! empty lists.

use opinion_access::Grant;
use opinion_launch::LaunchHost;

use crate::error::{AppError, ProblemCode};
use crate::players::launch_settings::LaunchSettingsChange;
use crate::players::ports::LaunchSettingsWrite;
use crate::ports::{StoreError, UniqueKey};
use crate::test_support::trading::*;
use crate::test_support::{NOW, OPERATOR, api_key_caller};

fn change(hosts: &[&str], origins: &[&str]) -> LaunchSettingsChange {
    LaunchSettingsChange {
        hosts: hosts.iter().map(|h| (*h).to_owned()).collect(),
        frame_origins: origins.iter().map(|o| (*o).to_owned()).collect(),
    }
}

#[tokio::test]
async fn valid_settings_replace_the_old_ones() {
    let mut mocks = TradingMocks::new();
    mocks
        .launch_settings
        .expect_replace_launch_settings()
        .times(1)
        .returning(|settings, at| {
            assert_eq!(at, NOW, "replaced at the request's time");
            assert_eq!(settings.operator_id, OPERATOR, "the caller's operator's");
            assert_eq!(settings.updated_at, Some(NOW));
            assert_eq!(settings.hosts.as_slice().len(), 2, "both hosts, in order");
            assert_eq!(settings.frame_origins.frame_ancestors(), "https://casino.example");
            Ok(LaunchSettingsWrite::Saved)
        });
    let saved = mocks
        .build_players()
        .set_launch_settings(
            &api_key_caller(Grant::All),
            change(
                &["play.casino.example", "jogar.casino.example"],
                &["https://casino.example"],
            ),
        )
        .await
        .expect("saved");
    assert_eq!(saved.hosts.as_slice()[1].as_str(), "jogar.casino.example");
}

#[tokio::test]
async fn bad_lists_and_the_services_own_host_are_refused_by_field_without_a_write() {
    let eleven: Vec<String> = (0..11).map(|n| format!("p{n}.casino.example")).collect();
    let cases = [
        (change(&["Play.casino.example"], &[]), "hosts"),
        (change(&["play.casino.example:8443"], &[]), "hosts"),
        (change(&["a.example", "a.example"], &[]), "hosts"),
        (change(&["opinion.example"], &[]), "hosts"),
        (
            LaunchSettingsChange {
                hosts: eleven,
                frame_origins: Vec::new(),
            },
            "hosts",
        ),
        (change(&[], &["http://casino.example"]), "frameOrigins"),
        (change(&[], &["https://casino.example/lobby"]), "frameOrigins"),
    ];
    for (bad, field) in cases {
        let mut mocks = TradingMocks::new();
        mocks.launch_settings.expect_replace_launch_settings().never();
        let error = mocks
            .build_players()
            .set_launch_settings(&api_key_caller(Grant::All), bad.clone())
            .await
            .expect_err("refused");
        assert!(
            matches!(error, AppError::Invalid { field: f, .. } if f == field),
            "{bad:?}: {error:?}"
        );
    }
}

#[tokio::test]
async fn another_operators_host_is_a_conflict_even_when_claimed_at_the_same_moment() {
    let mut mocks = TradingMocks::new();
    mocks
        .launch_settings
        .expect_replace_launch_settings()
        .returning(|_, _| {
            Ok(LaunchSettingsWrite::HostTaken(
                LaunchHost::parse("play.casino.example").expect("host"),
            ))
        });
    let error = mocks
        .build_players()
        .set_launch_settings(&api_key_caller(Grant::All), change(&["play.casino.example"], &[]))
        .await
        .expect_err("refused");
    assert!(
        matches!(&error, AppError::Conflict { code: ProblemCode::LaunchHostTaken, detail } if detail.contains("play.casino.example")),
        "{error:?}"
    );
    let mut racing = TradingMocks::new();
    racing
        .launch_settings
        .expect_replace_launch_settings()
        .returning(|_, _| Err(StoreError::Duplicate(UniqueKey::LaunchHost)));
    let error = racing
        .build_players()
        .set_launch_settings(&api_key_caller(Grant::All), change(&["play.casino.example"], &[]))
        .await
        .expect_err("refused");
    assert!(
        matches!(
            error,
            AppError::Conflict {
                code: ProblemCode::LaunchHostTaken,
                ..
            }
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn settings_never_set_are_empty() {
    let mut mocks = TradingMocks::new();
    mocks
        .launch_settings
        .expect_find_launch_settings()
        .returning(|_| Ok(None));
    let settings = mocks
        .build_players()
        .launch_settings(&api_key_caller(Grant::All))
        .await
        .expect("read");
    assert!(settings.hosts.as_slice().is_empty() && settings.frame_origins.as_slice().is_empty());
    assert_eq!(settings.updated_at, None);
    assert_eq!(settings.frame_origins.frame_ancestors(), "'none'");
}
