//! Settlement payments end to end: `opinion admin flight payment record` pays part of a
//! finalized report, then the rest; the payment history answers globally and per report
//! with what remains due; more than is due, the wrong direction, a reference recorded
//! twice, a future day and an open report are refused with nothing stored; two payments
//! recorded at once never overpay together; each recorded payment is announced with
//! exactly the documented data.

use serde_json::{Value, json};

use crate::admin_settlement::{admin, admin_fails, admin_result};
use crate::flight_office_corrections::{correct, events_data};
use crate::flight_office_reports::{finalize_october, given_two_periods};
use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};

const PAYMENTS: &str = "/api/operator/flight/payments";
const OVERVIEW: &str = "/api/operator/flight/overview";

/// The overview's `settlement` for a caller holding `flight_settlements:read`: the
/// running period as its open report reads, and `report` outstanding by `remaining`;
/// a caller without the scope gets none.
async fn overview_shows_what_remains(app: &TestApp, report: &str, remaining: &str) {
    let both = app.key_with(&["flight:read", "flight_settlements:read"]).await;
    let overview = json_with_status(app.get(OVERVIEW, &both).await, 200).await;
    let settlement = &overview["settlement"];
    let now = time::OffsetDateTime::now_utc();
    let current = format!("{:04}-{:02}", now.year(), u8::from(now.month()));
    assert_eq!(settlement["currentPeriod"], current.as_str());
    let open = json_with_status(
        app.get(&format!("/api/operator/flight/settlement-reports/{current}"), &both)
            .await,
        200,
    )
    .await;
    for figure in ["ticketCount", "stakes", "payouts", "refunds", "ggr", "share"] {
        assert_eq!(settlement[figure], open[figure], "{figure}");
    }
    let october = json_with_status(
        app.get(&format!("/api/operator/flight/settlement-reports/{report}"), &both)
            .await,
        200,
    )
    .await;
    assert_eq!(
        settlement["outstanding"],
        json!([{"reportId": report, "period": "2026-10", "dueDate": october["dueDate"],
                "remainingDue": remaining, "remainingDirection": "operator_to_platform"}])
    );
    let narrow = app.key_with(&["flight:read"]).await;
    let without = json_with_status(app.get(OVERVIEW, &narrow).await, 200).await;
    assert_eq!(without["settlement"], Value::Null, "the settlement scope is needed");
}

/// `opinion admin flight payment record` arguments for the first operator.
fn record_args(
    app: &TestApp,
    report: &str,
    amount: &str,
    direction: &str,
    reference: &str,
    paid_on: &str,
) -> Vec<String> {
    let operator = app.operator.id.to_string();
    [
        "flight",
        "payment",
        "record",
        "--operator",
        &operator,
        "--report",
        report,
        "--amount",
        amount,
        "--direction",
        direction,
        "--paid-on",
        paid_on,
        "--reference",
        reference,
        "--by",
        "Ana",
    ]
    .iter()
    .map(|arg| (*arg).to_owned())
    .collect()
}

/// Records a payment the operator makes to the platform, which must succeed.
async fn pay(app: &TestApp, report: &str, amount: &str, reference: &str) -> Value {
    let args = record_args(app, report, amount, "operator_to_platform", reference, "2026-11-14");
    admin(app, &args.iter().map(String::as_str).collect::<Vec<_>>()).await
}

/// Records a payment that must be refused; its stderr.
async fn refused(app: &TestApp, report: &str, amount: &str, direction: &str, reference: &str, paid_on: &str) -> String {
    let args = record_args(app, report, amount, direction, reference, paid_on);
    admin_fails(app, &args.iter().map(String::as_str).collect::<Vec<_>>()).await
}

#[tokio::test]
async fn partial_payments_settle_a_report_and_the_history_shows_what_remains_due() {
    let app = spawn_app().await;
    given_two_periods(&app).await;
    let report = finalize_october(&app).await;
    let key = app.key_with(&["flight_settlements:read"]).await;

    let first = pay(&app, "2026-10", "1000", "BCA-TRX-0001").await;
    assert_eq!(first["reportId"], report.as_str());
    assert_eq!(first["amount"], "1000");
    assert_eq!(first["remainingDue"], "3500");
    assert_eq!(first["remainingDirection"], "operator_to_platform");
    assert_eq!(first["recordedBy"], "Ana");

    let read = json_with_status(
        app.get(
            &format!("/api/operator/flight/settlement-reports/{report}/payments"),
            &key,
        )
        .await,
        200,
    )
    .await;
    assert_eq!(read["reportId"], report.as_str());
    overview_shows_what_remains(&app, &report, "3500").await;
    assert_eq!(read["balance"]["paidToPlatform"], "1000");
    assert_eq!(read["balance"]["remainingDue"], "3500");
    assert_eq!(read["data"].as_array().map(Vec::len), Some(1));

    let last = pay(&app, &report, "3500", "BCA-TRX-0002").await;
    let both = app.key_with(&["flight:read", "flight_settlements:read"]).await;
    let overview = json_with_status(app.get(OVERVIEW, &both).await, 200).await;
    assert_eq!(overview["settlement"]["outstanding"], json!([]), "settled");
    assert_eq!(last["remainingDue"], "0");
    assert_eq!(last["remainingDirection"], "none");

    let history = json_with_status(app.get(PAYMENTS, &key).await, 200).await;
    let ids: Vec<&Value> = history["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|p| &p["id"])
        .collect();
    assert_eq!(ids, [&last["paymentId"], &first["paymentId"]], "newest first");
    let item = &history["data"][0];
    assert_eq!(
        *item,
        json!({
            "id": last["paymentId"],
            "reportId": report,
            "amount": "3500",
            "currency": "IDR",
            "direction": "operator_to_platform",
            "paidOn": "2026-11-14",
            "reference": "BCA-TRX-0002",
            "remainingDue": "0",
            "remainingDirection": "none",
            "recordedAt": last["recordedAt"],
        })
    );
    let by_period = json_with_status(
        app.get("/api/operator/flight/settlement-reports/2026-10/payments?limit=1", &key)
            .await,
        200,
    )
    .await;
    assert_eq!(by_period["data"][0]["id"], last["paymentId"]);
    assert_eq!(by_period["hasMore"], true);
    assert_eq!(by_period["balance"]["remainingDirection"], "none");
    let report_read = json_with_status(
        app.get(&format!("/api/operator/flight/settlement-reports/{report}"), &key)
            .await,
        200,
    )
    .await;
    assert_eq!(report_read["balance"]["remainingDue"], "0");
    assert_eq!(
        report_read["amountDue"], "4500",
        "the statement's own figures never change"
    );

    let events = events_data(&app, "mini_app.flight.payment.recorded").await;
    assert_eq!(events.len(), 2);
    assert_eq!(
        events[1],
        json!({
            "paymentId": last["paymentId"],
            "reportId": report,
            "amount": "3500",
            "currency": "IDR",
            "direction": "operator_to_platform",
            "paidOn": "2026-11-14",
            "reference": "BCA-TRX-0002",
            "remainingDue": "0",
            "recordedAt": last["recordedAt"],
        })
    );

    let other = app.new_operator("Other").await;
    let theirs = app.key_of(&other, &["flight_settlements:read"]).await;
    let none = json_with_status(app.get(PAYMENTS, &theirs).await, 200).await;
    assert_eq!(none["data"], json!([]));
    assert_problem(
        app.get(
            &format!("/api/operator/flight/settlement-reports/{report}/payments"),
            &theirs,
        )
        .await,
        404,
        "not_found",
    )
    .await;
    let narrow = app.key_with(&["flight:read"]).await;
    assert_problem(app.get(PAYMENTS, &narrow).await, 403, "insufficient_scope").await;
}

#[tokio::test]
async fn a_payment_that_does_not_fit_is_refused_with_nothing_stored() {
    let app = spawn_app().await;
    given_two_periods(&app).await;
    let report = finalize_october(&app).await;
    let key = app.key_with(&["flight_settlements:read"]).await;
    pay(&app, &report, "1000", "BCA-TRX-0001").await;

    let too_much = refused(&app, &report, "3501", "operator_to_platform", "R-1", "2026-11-14").await;
    assert!(too_much.contains("payment_exceeds_due"), "{too_much}");
    let wrong_way = refused(&app, &report, "10", "platform_to_operator", "R-2", "2026-11-14").await;
    assert!(wrong_way.contains("payment_exceeds_due"), "{wrong_way}");
    let taken = refused(
        &app,
        &report,
        "10",
        "operator_to_platform",
        "bca-trx-0001",
        "2026-11-14",
    )
    .await;
    assert!(taken.contains("payment_reference_taken"), "{taken}");
    let future = refused(&app, &report, "10", "operator_to_platform", "R-3", "2999-01-01").await;
    assert!(future.contains("paidOn"), "{future}");
    let zero = refused(&app, &report, "0", "operator_to_platform", "R-4", "2026-11-14").await;
    assert!(zero.contains("amount"), "{zero}");
    let sideways = refused(&app, &report, "10", "sideways", "R-5", "2026-11-14").await;
    assert!(sideways.contains("direction"), "{sideways}");
    let open = refused(&app, "2026-11", "10", "operator_to_platform", "R-6", "2026-11-14").await;
    assert!(open.contains("report_not_finalized"), "{open}");

    let history = json_with_status(app.get(PAYMENTS, &key).await, 200).await;
    assert_eq!(history["data"].as_array().map(Vec::len), Some(1), "only the first");
    assert_eq!(events_data(&app, "mini_app.flight.payment.recorded").await.len(), 1);
    assert_problem(
        app.get("/api/operator/flight/settlement-reports/2026-11/payments", &key)
            .await,
        409,
        "report_not_finalized",
    )
    .await;
    assert_problem(
        app.get(&format!("{PAYMENTS}?limit=0"), &key).await,
        400,
        "invalid_limit",
    )
    .await;
    assert_problem(
        app.get(&format!("{PAYMENTS}?reportId=x"), &key).await,
        400,
        "invalid_query",
    )
    .await;
}

#[tokio::test]
async fn a_correction_that_turns_the_balance_lets_the_platform_pay_back_and_two_payments_at_once_never_overpay() {
    let spawned = spawn_app().await;
    let app = &spawned;
    given_two_periods(app).await;
    let report = finalize_october(app).await;
    let key = app.key_with(&["flight_settlements:read"]).await;

    let race = |reference: &'static str| {
        let args = record_args(app, &report, "3000", "operator_to_platform", reference, "2026-11-14");
        async move { admin_result(app, &args.iter().map(String::as_str).collect::<Vec<_>>()).await }
    };
    let (one, two) = tokio::join!(race("RACE-1"), race("RACE-2"));
    let (recorded, refused): (Vec<_>, Vec<_>) = [one, two].into_iter().partition(Result::is_ok);
    assert_eq!(
        (recorded.len(), refused.len()),
        (1, 1),
        "one fits, the other no longer does"
    );
    let recorded = recorded.into_iter().next().and_then(Result::ok).expect("recorded");
    assert_eq!(recorded["remainingDue"], "1500");
    let stderr = refused.into_iter().next().and_then(Result::err).expect("refused");
    assert!(stderr.contains("payment_exceeds_due"), "{stderr}");

    correct(app, &report, "-2500").await;
    let read = json_with_status(
        app.get(
            &format!("/api/operator/flight/settlement-reports/{report}/payments"),
            &key,
        )
        .await,
        200,
    )
    .await;
    assert_eq!(read["balance"]["remainingDue"], "1000");
    assert_eq!(
        read["balance"]["remainingDirection"], "platform_to_operator",
        "overpaid by 1 000"
    );
    let back = admin(
        app,
        &record_args(app, &report, "1000", "platform_to_operator", "REFUND-1", "2026-11-20")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    )
    .await;
    assert_eq!(back["remainingDirection"], "none");
}
