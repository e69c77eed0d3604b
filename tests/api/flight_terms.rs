//! Flight terms: platform staff set, schedule, cancel and list an operator's versions with
//! the admin command, and the operator reads them on the three terms routes (scope
//! `flight_terms:read`); a scheduled version takes effect by its instant alone.

use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use time::{Month, OffsetDateTime, Time};

use crate::admin_settlement::{admin, admin_fails};
use crate::helpers::{TestApp, assert_problem, json_with_status, spawn_app};

const CURRENT: &str = "/api/operator/flight/terms/current";
const SCHEDULED: &str = "/api/operator/flight/terms/scheduled";
const HISTORY: &str = "/api/operator/flight/terms/history";

/// The start of the month after next (UTC), a period boundary in the future.
fn boundary(months_ahead: u8) -> String {
    let mut date = OffsetDateTime::now_utc().date().replace_day(1).expect("first");
    for _ in 0..months_ahead {
        let (year, month) = match date.month() {
            Month::December => (date.year() + 1, Month::January),
            month => (date.year(), month.next()),
        };
        date = time::Date::from_calendar_date(year, month, 1).expect("date");
    }
    date.with_time(Time::MIDNIGHT)
        .assume_utc()
        .format(&Rfc3339)
        .expect("format")
}

fn terms_args<'a>(verb: &'a str, operator: &'a str, share: &'a str) -> Vec<&'a str> {
    let money = [
        "--min-stake",
        "1000",
        "--max-stake",
        "1000000",
        "--max-payout",
        "100000000",
    ];
    ["flight", "terms", verb, "--operator", operator, "--share-bps", share]
        .into_iter()
        .chain(money)
        .chain(["--by", "Ana"])
        .collect()
}

async fn schedule(app: &TestApp, share: &str, at: &str) -> Value {
    let operator = app.operator.id.to_string();
    let mut args = terms_args("schedule", &operator, share);
    args.extend(["--effective-from", at]);
    admin(app, &args).await
}

#[tokio::test]
async fn staff_schedule_and_cancel_versions_and_the_operator_reads_them() {
    let app = spawn_app().await;
    let key = app.key_with(&["flight_terms:read"]).await;
    assert_problem(app.get(CURRENT, &key).await, 404, "not_found").await;

    let operator = app.operator.id.to_string();
    let first = admin(&app, &terms_args("set", &operator, "1500")).await;
    let next = schedule(&app, "1200", &boundary(1)).await;
    let later = schedule(&app, "1000", &boundary(2)).await;

    let current = json_with_status(app.get(CURRENT, &key).await, 200).await;
    assert_eq!(current["id"], first["termsId"], "{current}");
    assert_eq!(current["shareBps"], 1500, "{current}");
    assert_eq!(current["currency"], "IDR", "{current}");
    assert!(current["cancelledAt"].is_null(), "{current}");
    assert!(
        current.get("createdBy").is_none(),
        "staff names stay with the platform: {current}"
    );
    let scheduled = json_with_status(app.get(SCHEDULED, &key).await, 200).await;
    let ids: Vec<&Value> = scheduled["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|v| &v["id"])
        .collect();
    assert_eq!(ids, [&next["termsId"], &later["termsId"]], "soonest first: {scheduled}");
    assert_eq!(scheduled["data"][0]["effectiveFrom"], boundary(1).as_str());

    let terms = later["termsId"].as_str().expect("id");
    let cancel = [
        "flight",
        "terms",
        "cancel",
        "--operator",
        &operator,
        "--terms",
        terms,
        "--by",
        "Budi",
    ];
    let cancelled = admin(&app, &cancel).await;
    assert_eq!(cancelled["cancelledBy"], "Budi", "{cancelled}");
    let refused = admin_fails(&app, &cancel).await;
    assert!(refused.contains("took effect or was cancelled"), "{refused}");

    let history = json_with_status(app.get(HISTORY, &key).await, 200).await;
    assert_eq!(history["data"][0]["id"], later["termsId"], "{history}");
    assert!(history["data"][0]["cancelledAt"].is_string(), "{history}");
    let scheduled = json_with_status(app.get(SCHEDULED, &key).await, 200).await;
    assert_eq!(scheduled["data"].as_array().map(Vec::len), Some(1), "{scheduled}");

    let listed = admin(&app, &["flight", "terms", "list", "--operator", &operator]).await;
    assert_eq!(listed["current"]["termsId"], first["termsId"], "{listed}");
    assert_eq!(listed["scheduled"][0]["termsId"], next["termsId"], "{listed}");
    assert_eq!(listed["history"][0]["termsId"], later["termsId"], "{listed}");
}

#[tokio::test]
async fn a_version_off_a_boundary_or_in_the_past_is_refused_and_the_routes_need_their_scope() {
    let app = spawn_app().await;
    let operator = app.operator.id.to_string();
    for at in ["2020-01-01T00:00:00Z", "2099-01-02T00:00:00Z", "next month"] {
        let mut args = terms_args("schedule", &operator, "1200");
        args.extend(["--effective-from", at]);
        let refused = admin_fails(&app, &args).await;
        assert!(refused.contains("effective"), "{at}: {refused}");
    }
    let listed = admin(&app, &["flight", "terms", "list", "--operator", &operator]).await;
    assert_eq!(listed["scheduled"], serde_json::json!([]), "nothing written: {listed}");

    let unscoped = app.key_with(&["flight:read"]).await;
    for path in [CURRENT, SCHEDULED, HISTORY] {
        assert_problem(app.get(path, &unscoped).await, 403, "insufficient_scope").await;
    }
    let other = app.new_operator("Other").await;
    schedule(&app, "1200", &boundary(1)).await;
    let theirs = json_with_status(app.get(SCHEDULED, &other.key).await, 200).await;
    assert_eq!(theirs["data"], serde_json::json!([]), "per operator: {theirs}");
}
