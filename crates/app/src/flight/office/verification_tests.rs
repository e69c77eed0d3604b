//! Verifying a stored statement: a genuine one passes every check, the second of a chain
//! is checked against the first, one changed after signing is not verified and says
//! why, and another operator's report is not found.

use std::sync::Arc;

use opinion_core::OperatorId;
use serde_json::json;

use crate::error::AppError;
use crate::flight::office::finalize_tests::{OCTOBER, finalized, store_with_tickets};
use crate::test_support::flight::ManualClock;
use crate::test_support::office::{MemoryKeys, office_over};
use crate::test_support::{NOW, OPERATOR};

#[tokio::test]
async fn a_stored_statement_verifies_until_it_is_changed() {
    let store = store_with_tickets(31);
    let office = office_over(1, Arc::new(MemoryKeys::default()), store.clone(), ManualClock::at(NOW));
    office.register_signing_key().await.expect("key");
    let report = finalized(office.finalize_report(OPERATOR, OCTOBER).await.expect("finalized"));

    let verification = office.verify_statement(OPERATOR, report.id).await.expect("verified");
    assert!(verification.verified(), "{verification:?}");
    let chain = verification.checks.iter().find(|check| check.name == "chain");
    assert_eq!(
        chain.map(|check| check.outcome.clone()),
        Some(Ok("first of the chain".to_owned()))
    );

    {
        let mut reports = store.reports.lock().expect("reports");
        let stored = reports.iter_mut().find(|r| r.id == report.id).expect("the report");
        stored.statement.signed.document["amountDue"] = json!({"amount": "1", "currency": "IDR"});
    }
    let changed = office.verify_statement(OPERATOR, report.id).await.expect("read");
    assert!(!changed.verified());
    let failed: Vec<_> = changed.failures().map(|check| check.name).collect();
    assert_eq!(failed, ["signature", "totals"]);

    let elsewhere = office
        .verify_statement(OperatorId::from_u128(99), report.id)
        .await
        .expect_err("another operator's");
    assert!(matches!(elsewhere, AppError::NotFound(_)), "{elsewhere:?}");
}
