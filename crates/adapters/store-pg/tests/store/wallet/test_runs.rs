//! Runs of the full-contract wallet test: each kept whole, the latest found per operator.

use opinion_app::ports::StoreError;
use opinion_app::wallet::ports::{WalletTestRun, WalletTestRunStore};
use opinion_core::WalletTestRunId;
use serde_json::json;

use crate::fixtures::*;

fn run(operator: u128, n: u128, seconds: i64, flight_passed: bool) -> WalletTestRun {
    WalletTestRun {
        id: WalletTestRunId::from_u128(n),
        operator_id: operator_id(operator),
        ran_at: at(seconds),
        base_url: format!("https://wallet-{n}.example.com"),
        opinion_passed: true,
        flight_passed,
        report: json!({"id": WalletTestRunId::from_u128(n).to_string(), "flight": {"passed": flight_passed}}),
    }
}

#[tokio::test]
async fn the_latest_run_of_the_operator_is_read_back_whole() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    assert_eq!(
        store.latest_wallet_test_run(operator_id(1)).await.expect("latest"),
        None
    );

    for kept in [run(1, 2, 60, false), run(1, 1, 120, true), run(2, 3, 600, false)] {
        store.record_wallet_test_run(&kept).await.expect("kept");
    }

    let latest = store.latest_wallet_test_run(operator_id(1)).await.expect("latest");
    assert_eq!(latest, Some(run(1, 1, 120, true)), "by start, not by id");
    let other = store.latest_wallet_test_run(operator_id(2)).await.expect("latest");
    assert_eq!(other.map(|run| run.id), Some(WalletTestRunId::from_u128(3)));
}

#[tokio::test]
async fn a_run_started_at_the_same_instant_is_ordered_by_id() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    store.record_wallet_test_run(&run(1, 5, 60, true)).await.expect("kept");
    store.record_wallet_test_run(&run(1, 6, 60, false)).await.expect("kept");
    let latest = store.latest_wallet_test_run(operator_id(1)).await.expect("latest");
    assert_eq!(latest.map(|run| run.id), Some(WalletTestRunId::from_u128(6)));
}

#[tokio::test]
async fn a_report_is_an_object() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    let mut refused = run(1, 1, 60, true);
    refused.report = json!(["not", "an", "object"]);
    let result = store.record_wallet_test_run(&refused).await;
    assert!(matches!(result, Err(StoreError::Unavailable(_))), "{result:?}");
    assert_eq!(
        store.latest_wallet_test_run(operator_id(1)).await.expect("latest"),
        None
    );
}
