//! The per-market switch and the visibility mode over mocked ports: what is written,
//! which events announce it, and what happens when another change gets there first.

use opinion_core::MarketId;
use opinion_market::{MarketChoice, MarketStatus, VisibilityMode};
use opinion_webhook::EventType;
use serde_json::{Value, json};

use crate::error::{AppError, ProblemCode};
use crate::opinion::ports::VisibilitySettings;
use crate::ports::{ChangedRecord, StoreError};
use crate::test_support::reads::*;
use crate::test_support::{NOW, OPERATOR};

const MARKET: MarketId = MarketId::from_u128(3);

fn settings(mode: VisibilityMode, revision: i64) -> VisibilitySettings {
    VisibilitySettings {
        mode,
        revision,
        updated_at: None,
    }
}

fn with_choice(choice: MarketChoice, mode: VisibilityMode) -> crate::model::OperatorMarket {
    let mut market = market(3, MarketStatus::Open);
    market.choice = choice;
    market.mode = mode;
    market
}

/// Mocks where the operator is in `mode` at revision 7 and the market has `choice`.
fn mocks_with(mode: VisibilityMode, choice: MarketChoice) -> ReadMocks {
    let mut mocks = ReadMocks::default();
    mocks
        .markets
        .expect_visibility_settings()
        .returning(move |_| Ok(settings(mode, 7)));
    mocks
        .markets
        .expect_find_operator_market()
        .returning(move |_, _| Ok(Some(with_choice(choice, mode))));
    mocks
}

#[tokio::test]
async fn hiding_in_blocklist_mode_records_the_choice_and_announces_it() {
    let mut mocks = mocks_with(VisibilityMode::Blocklist, MarketChoice::Unset);
    mocks
        .markets
        .expect_set_market_choice()
        .times(1)
        .returning(|operator, market, choice, write| {
            assert_eq!(operator, OPERATOR);
            assert_eq!(market, MARKET);
            assert_eq!(choice, MarketChoice::Hidden);
            assert_eq!(write.expected_revision, 7, "over the revision read");
            assert_eq!(write.mode, VisibilityMode::Blocklist, "the mode is kept");
            assert_eq!(write.events.len(), 1, "one event announces it");
            let event = &write.events[0];
            assert_eq!(event.event_type, EventType::MarketVisibilityChanged);
            assert_eq!(event.created_at, NOW);
            assert_eq!(
                Value::Object(event.data.clone()),
                json!({"marketId": MARKET.to_string(), "visible": false, "cause": "switch", "changedAt": "2026-11-22T12:00:00Z"})
            );
            Ok(Some(with_choice(choice, write.mode)))
        });
    let market = mocks
        .build()
        .set_market_visibility(OPERATOR, MARKET, false)
        .await
        .expect("hidden");
    assert!(market.hidden());
}

#[tokio::test]
async fn a_choice_in_all_mode_is_recorded_without_an_event() {
    let mut mocks = mocks_with(VisibilityMode::All, MarketChoice::Unset);
    mocks
        .markets
        .expect_set_market_choice()
        .times(1)
        .returning(|_, _, choice, write| {
            assert_eq!(choice, MarketChoice::Hidden);
            assert!(write.events.is_empty(), "nothing is hidden from the players");
            Ok(Some(with_choice(choice, write.mode)))
        });
    let market = mocks
        .build()
        .set_market_visibility(OPERATOR, MARKET, false)
        .await
        .expect("recorded");
    assert_eq!(market.choice, MarketChoice::Hidden);
    assert!(!market.hidden(), "`all` shows every market");
}

#[tokio::test]
async fn showing_in_allowlist_mode_announces_the_market() {
    let mut mocks = mocks_with(VisibilityMode::Allowlist, MarketChoice::Unset);
    mocks
        .markets
        .expect_set_market_choice()
        .times(1)
        .returning(|_, _, choice, write| {
            assert_eq!(choice, MarketChoice::Shown);
            assert_eq!(write.events.len(), 1);
            assert_eq!(write.events[0].data["visible"], true);
            Ok(Some(with_choice(choice, write.mode)))
        });
    let market = mocks
        .build()
        .set_market_visibility(OPERATOR, MARKET, true)
        .await
        .expect("shown");
    assert!(!market.hidden());
}

#[tokio::test]
async fn the_same_choice_again_writes_nothing() {
    let mut mocks = mocks_with(VisibilityMode::Blocklist, MarketChoice::Hidden);
    mocks.markets.expect_set_market_choice().never();
    let market = mocks
        .build()
        .set_market_visibility(OPERATOR, MARKET, false)
        .await
        .expect("unchanged");
    assert!(market.hidden());
}

#[tokio::test]
async fn an_unknown_market_is_not_found() {
    let mut mocks = ReadMocks::default();
    mocks
        .markets
        .expect_visibility_settings()
        .returning(|_| Ok(VisibilitySettings::default()));
    mocks.markets.expect_find_operator_market().returning(|_, _| Ok(None));
    mocks.markets.expect_set_market_choice().never();
    let error = mocks
        .build()
        .set_market_visibility(OPERATOR, MarketId::from_u128(9), true)
        .await
        .expect_err("missing");
    assert!(matches!(error, AppError::NotFound("market")));
}

#[tokio::test]
async fn a_change_that_lost_a_race_is_computed_again_then_given_up() {
    let mut mocks = mocks_with(VisibilityMode::Blocklist, MarketChoice::Unset);
    mocks
        .markets
        .expect_set_market_choice()
        .times(3)
        .returning(|_, _, _, _| Err(StoreError::Conflict(ChangedRecord::Visibility)));
    let error = mocks
        .build()
        .set_market_visibility(OPERATOR, MARKET, false)
        .await
        .expect_err("kept losing");
    assert!(
        matches!(
            error,
            AppError::Conflict {
                code: ProblemCode::ConcurrentChange,
                ..
            }
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn allowlist_mode_announces_every_market_it_hides_and_none_it_keeps() {
    let mut mocks = ReadMocks::default();
    mocks
        .markets
        .expect_visibility_settings()
        .returning(|_| Ok(settings(VisibilityMode::Blocklist, 2)));
    mocks.markets.expect_market_choices().returning(|_| {
        Ok(vec![
            (MarketId::from_u128(1), MarketChoice::Unset),
            (MarketId::from_u128(2), MarketChoice::Shown),
            (MarketId::from_u128(3), MarketChoice::Hidden),
            (MarketId::from_u128(4), MarketChoice::Unset),
        ])
    });
    mocks
        .markets
        .expect_set_visibility_mode()
        .times(1)
        .returning(|operator, write| {
            assert_eq!(operator, OPERATOR);
            assert_eq!(write.mode, VisibilityMode::Allowlist);
            assert_eq!(write.expected_revision, 2);
            let hidden: Vec<(String, Value, Value)> = write
                .events
                .iter()
                .map(|event| {
                    (
                        event.data["marketId"].to_string(),
                        event.data["visible"].clone(),
                        event.data["cause"].clone(),
                    )
                })
                .collect();
            assert_eq!(
                hidden,
                [
                    (format!("\"{}\"", MarketId::from_u128(1)), json!(false), json!("mode")),
                    (format!("\"{}\"", MarketId::from_u128(4)), json!(false), json!("mode")),
                ],
                "the untouched markets are hidden; the shown one stays, the hidden one was hidden already"
            );
            Ok(())
        });
    let change = mocks
        .build()
        .set_visibility_mode(OPERATOR, VisibilityMode::Allowlist)
        .await
        .expect("changed");
    assert_eq!(change.changed_markets, 2);
    assert_eq!(change.settings.mode, VisibilityMode::Allowlist);
    assert_eq!(change.settings.revision, 3);
    assert_eq!(change.settings.updated_at, Some(NOW));
}

#[tokio::test]
async fn the_mode_the_operator_has_writes_nothing() {
    let mut mocks = ReadMocks::default();
    mocks
        .markets
        .expect_visibility_settings()
        .returning(|_| Ok(settings(VisibilityMode::All, 4)));
    mocks.markets.expect_market_choices().never();
    mocks.markets.expect_set_visibility_mode().never();
    let change = mocks
        .build()
        .set_visibility_mode(OPERATOR, VisibilityMode::All)
        .await
        .expect("unchanged");
    assert_eq!(change.changed_markets, 0);
    assert_eq!(change.settings.revision, 4);
}
