//! The dashboard's flight pages over HTTP, for an operator with flight and real flight
//! data (a chain derived with the game's rules, its flights, tickets in three finalized
//! months and the running one, a correction and a payment by platform staff): each page
//! shows what its API route answers, filters and keyset pages work, a statement says
//! "verified" and says "not verified" with the failed checks once its stored document is
//! changed; a member without the flight scopes neither sees nor reaches the pages; a
//! member of an operator without flight is told flight is not enabled. In a browser,
//! every flight page opens clean at laptop and phone size and is kept as a screenshot.

use diesel::sql_types::Text;
use diesel_async::RunQueryDsl;
use opinion_testkit::ulid_at;
use opinion_testkit_browser::{Browser, Locator, WindowSize};
use serde_json::Value;
use time::macros::datetime;

use super::support::{PASSWORD, member, page, sign_in};
use crate::admin_settlement::admin;
use crate::flight_db::connect;
use crate::flight_office_reports::export_bytes;
use crate::flight_office_verify::given_three_statements;
use crate::flight_reads_seed::{flight_id, given_player, lost_ticket, this_month};
use crate::helpers::{TestApp, json_with_status, spawn_app};
use crate::trading_seed::{bits, seeder};

/// Every scope the flight pages need.
const FLIGHT_SCOPES: [&str; 3] = ["flight:read", "flight_terms:read", "flight_settlements:read"];

/// Tickets bought by `p-2` in the running month, beside `p-1`'s one a month in August,
/// September and October: more than a dashboard page holds.
const THIS_MONTH_TICKETS: u16 = 26;

/// Every flight page a member with every flight scope is shown.
const FLIGHT_PAGES: [&str; 7] = [
    "/dashboard/flight",
    "/dashboard/flight/flights",
    "/dashboard/flight/tickets",
    "/dashboard/flight/terms",
    "/dashboard/flight/statements",
    "/dashboard/flight/payments",
    "/dashboard/flight/corrections",
];

/// Platform staff enable flight for the first operator (as `opinion admin flight enable`
/// records it; the wallet test it requires is another test's subject).
async fn enabled(app: &TestApp) {
    let mut conn = connect(app).await;
    diesel::sql_query(
        "INSERT INTO flight_enablements (operator_id, enabled, changed_at, changed_by) \
         VALUES ($1::uuid, true, now(), 'ops@platform.example')",
    )
    .bind::<Text, _>(format!("{:032x}", bits(&app.operator)))
    .execute(&mut conn)
    .await
    .expect("enabled");
}

/// The flight data every test reads: statements of August, September and October (one
/// lost ticket of `p-1` each), `THIS_MONTH_TICKETS` lost tickets of `p-2` this month, a
/// correction of October and a payment settling September. Answers the report ids.
async fn given_flight_data(app: &TestApp) -> Vec<String> {
    let reports = given_three_statements(app).await;
    let mut seed = seeder(app).await;
    let second = given_player(&mut seed, &app.operator, 2, "p-2").await;
    let terms = ulid_at(datetime!(2026-07-01 00:00 UTC), 901) + bits(&app.operator);
    for n in 0..THIS_MONTH_TICKETS {
        let bought = this_month().1 + time::Duration::seconds(i64::from(n));
        let flight = 1 + u32::from(n % 3);
        seed.flight_ticket(&lost_ticket(&second, terms, flight, 400 + n, bought))
            .await;
    }
    let operator = app.operator.id.to_string();
    admin(
        app,
        &[
            "flight",
            "correct",
            "--operator",
            &operator,
            "--report",
            "2026-10",
            "--amount-change",
            "-150",
            "--reason",
            "a reviewed ticket resolved as not applied",
            "--by",
            "Ana",
        ],
    )
    .await;
    admin(
        app,
        &[
            "flight",
            "payment",
            "record",
            "--operator",
            &operator,
            "--report",
            "2026-09",
            "--amount",
            "1500",
            "--direction",
            "operator_to_platform",
            "--paid-on",
            "2026-10-20",
            "--reference",
            "BCA-TRX-0042",
            "--by",
            "Ana",
        ],
    )
    .await;
    reports
}

/// Whole rupiah as the API writes them (`"260000"`) as the dashboard shows them.
fn idr(text: &str) -> String {
    let value: i64 = text.parse().expect("an integer amount");
    let digits = value.unsigned_abs().to_string();
    let mut grouped = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("{}{grouped} IDR", if value < 0 { "-" } else { "" })
}

/// The `data` ids of an API list.
fn ids(list: &Value) -> Vec<String> {
    list["data"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|item| item["id"].as_str().expect("an id").to_owned())
        .collect()
}

/// The page's "Next page" link, unescaped.
fn next_link(html: &str) -> String {
    html.split("rel=\"next\" href=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a next page link")
        .replace("&amp;", "&")
}

/// The hrefs of the page's navigation.
fn nav(html: &str) -> Vec<String> {
    let side = html.split("<nav class=\"side\"").nth(1).expect("a navigation");
    let side = side.split("</nav>").next().unwrap_or_default();
    side.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn each_flight_page_shows_what_its_api_route_answers() {
    let app = spawn_app().await;
    let reports = given_flight_data(&app).await;
    enabled(&app).await;
    member(&app, "flight@example.com", &FLIGHT_SCOPES).await;
    let cookie = sign_in(&app, "flight@example.com").await;
    let key = app.key_with(&FLIGHT_SCOPES).await;
    let api = |path: String| {
        let app = &app;
        let key = &key;
        async move { json_with_status(app.get(&path, key).await, 200).await }
    };

    let (status, overview) = page(&app, "/dashboard/flight", &cookie).await;
    assert_eq!(status, 200, "{overview}");
    let answered = api("/api/operator/flight/overview".into()).await;
    assert_eq!(answered["enabled"], true);
    assert!(overview.contains("badge good\">enabled"), "{overview}");
    let stakes = idr(answered["totals"]["stakes"].as_str().expect("stakes"));
    assert_eq!(stakes, "260,000 IDR", "this month's tickets");
    assert!(overview.contains(&stakes) && overview.contains("15.00% (1500 bps)"));
    assert!(overview.contains("<svg class=\"chart\""), "the window's money is drawn");
    let outstanding = answered["settlement"]["outstanding"].as_array().expect("outstanding");
    let periods: Vec<&str> = outstanding
        .iter()
        .map(|o| o["period"].as_str().expect("period"))
        .collect();
    assert_eq!(periods, ["2026-08", "2026-10"], "September is paid");
    for report in outstanding {
        assert!(overview.contains(&idr(report["remainingDue"].as_str().expect("due"))));
    }
    let nav_links = nav(&overview);
    for path in FLIGHT_PAGES {
        assert!(nav_links.contains(&path.to_owned()), "{path} in {nav_links:?}");
    }

    let flights = api("/api/operator/flight/flights?limit=25".into()).await;
    let (_, listed) = page(&app, "/dashboard/flight/flights", &cookie).await;
    for flight in flights["data"].as_array().expect("flights") {
        assert!(listed.contains(flight["id"].as_str().expect("id")));
        if let Some(crash) = flight["crashPoint"].as_str() {
            assert!(listed.contains(&format!("{crash}×")), "{crash}");
        }
    }
    let (_, narrowed) = page(&app, "/dashboard/flight/flights?from=2030-01-01", &cookie).await;
    assert!(narrowed.contains("No flight matches."));
    let first = flight_id(1);
    let detail = api(format!("/api/operator/flight/flights/{first}")).await;
    let (status, shown) = page(&app, &format!("/dashboard/flight/flights/{first}"), &cookie).await;
    assert_eq!(status, 200);
    assert!(shown.contains(detail["seed"].as_str().expect("revealed")));
    assert!(shown.contains(&idr(detail["operatorTotals"]["stakes"].as_str().expect("stakes"))));

    let tickets = api("/api/operator/flight/tickets?limit=25".into()).await;
    let (status, first_page) = page(&app, "/dashboard/flight/tickets", &cookie).await;
    assert_eq!(status, 200);
    let first_ids = ids(&tickets);
    assert_eq!(first_ids.len(), 25);
    assert!(first_ids.iter().all(|id| first_page.contains(id.as_str())));
    let following = api(format!(
        "/api/operator/flight/tickets?limit=25&cursor={}",
        tickets["nextCursor"].as_str().expect("a second page")
    ))
    .await;
    let (_, second_page) = page(&app, &next_link(&first_page), &cookie).await;
    let second_ids = ids(&following);
    assert_eq!(second_ids.len(), usize::from(THIS_MONTH_TICKETS) + 3 - 25);
    assert!(second_ids.iter().all(|id| second_page.contains(id.as_str())));
    assert!(first_ids.iter().all(|id| !second_page.contains(id.as_str())));
    let (_, mine) = page(
        &app,
        "/dashboard/flight/tickets?externalUserId=p-1&status=lost",
        &cookie,
    )
    .await;
    let theirs = api("/api/operator/flight/tickets?externalUserId=p-1&status=lost".into()).await;
    assert_eq!(ids(&theirs).len(), 3);
    assert!(ids(&theirs).iter().all(|id| mine.contains(id.as_str())));
    assert!(first_ids.iter().all(|id| !mine.contains(id.as_str())), "only p-1's");
    let (status, refused) = page(&app, "/dashboard/flight/tickets?status=flying", &cookie).await;
    assert_eq!(status, 400, "the use case refuses the filter as the API does");
    assert!(
        refused.contains("field invalid"),
        "the error beside its field: {refused}"
    );

    let august = ids(&theirs).last().cloned().expect("the August ticket");
    let proof = api(format!("/api/operator/flight/tickets/{august}/proof")).await;
    let (status, ticket) = page(&app, &format!("/dashboard/flight/tickets/{august}"), &cookie).await;
    assert_eq!(status, 200);
    assert!(ticket.contains(proof["merkleRoot"].as_str().expect("root")), "{ticket}");
    assert!(ticket.contains("10,000 IDR") && ticket.contains("15.00% (1500 bps)"));
    let (_, running) = page(&app, &format!("/dashboard/flight/tickets/{}", second_ids[0]), &cookie).await;
    assert!(running.contains("Inclusion proof") && !running.contains("Merkle root"));

    let terms = api("/api/operator/flight/terms/current".into()).await;
    let (_, shown) = page(&app, "/dashboard/flight/terms", &cookie).await;
    assert!(shown.contains(terms["id"].as_str().expect("id")));
    assert!(shown.contains(&idr(terms["maxStake"].as_str().expect("maxStake"))));
    assert!(shown.contains(&idr(terms["maxPayout"].as_str().expect("maxPayout"))));
    assert!(shown.contains("No version is scheduled."));

    let (_, statements) = page(&app, "/dashboard/flight/statements", &cookie).await;
    for report in &reports {
        assert!(statements.contains(&format!("/dashboard/flight/statements/{report}")));
    }
    let running_month = this_month().0;
    assert!(
        statements.contains(&format!("/dashboard/flight/statements/{running_month}")),
        "the running month, open"
    );
    let october = &reports[2];
    let answered = api(format!("/api/operator/flight/settlement-reports/{october}")).await;
    let (status, shown) = page(&app, &format!("/dashboard/flight/statements/{october}"), &cookie).await;
    assert_eq!(status, 200);
    assert!(shown.contains("badge good\">verified"), "{shown}");
    assert!(!shown.contains("not verified"));
    assert!(shown.contains(answered["statementHash"].as_str().expect("hash")));
    assert!(shown.contains(&idr(answered["balance"]["remainingDue"].as_str().expect("due"))));
    assert!(
        shown.contains("a reviewed ticket resolved as not applied"),
        "its correction"
    );
    let (_, september) = page(&app, &format!("/dashboard/flight/statements/{}", reports[1]), &cookie).await;
    assert!(september.contains("BCA-TRX-0042"), "its payment");
    let (status, open) = page(&app, &format!("/dashboard/flight/statements/{running_month}"), &cookie).await;
    assert_eq!(status, 200);
    assert!(open.contains("period_open") && !open.contains("Verification"));
    let (_, from_api) = export_bytes(
        &app,
        &format!("/api/operator/flight/settlement-reports/{october}/export?part=statement"),
        &key,
    )
    .await;
    let exported = super::support::with_cookie(
        &app,
        reqwest::Method::GET,
        &format!("/dashboard/flight/statements/{october}/export?part=statement"),
        &cookie,
    )
    .send()
    .await
    .expect("export");
    assert_eq!(exported.status(), 200);
    assert_eq!(
        exported.bytes().await.expect("body").to_vec(),
        from_api,
        "the API's export"
    );

    let (_, payments) = page(&app, "/dashboard/flight/payments", &cookie).await;
    let listed = api("/api/operator/flight/payments".into()).await;
    assert!(ids(&listed).iter().all(|id| payments.contains(id.as_str())));
    assert!(payments.contains("BCA-TRX-0042"));
    let (_, corrections) = page(&app, "/dashboard/flight/corrections", &cookie).await;
    let listed = api("/api/operator/flight/statement-corrections".into()).await;
    assert_eq!(ids(&listed).len(), 1);
    assert!(corrections.contains(ids(&listed)[0].as_str()) && corrections.contains("-150 IDR"));
    let (_, other) = page(
        &app,
        &format!("/dashboard/flight/corrections?reportId={}", reports[0]),
        &cookie,
    )
    .await;
    assert!(other.contains("No correction is issued."));
}

#[tokio::test]
async fn a_statement_changed_in_the_database_is_not_verified_and_says_why() {
    let app = spawn_app().await;
    let reports = given_three_statements(&app).await;
    enabled(&app).await;
    member(&app, "flight@example.com", &FLIGHT_SCOPES).await;
    let cookie = sign_in(&app, "flight@example.com").await;
    let (_, before) = page(&app, &format!("/dashboard/flight/statements/{}", reports[1]), &cookie).await;
    assert!(before.contains("badge good\">verified"), "{before}");

    let mut conn = connect(&app).await;
    for statement in [
        "ALTER TABLE flight_statements DISABLE TRIGGER flight_statements_never_changed",
        "UPDATE flight_statements SET document = jsonb_set(document::jsonb, '{amountDue,amount}', '\"15\"')::text \
         WHERE sequence = 2",
        "ALTER TABLE flight_statements ENABLE TRIGGER flight_statements_never_changed",
    ] {
        diesel::sql_query(statement)
            .execute(&mut conn)
            .await
            .expect("the stored statement changed");
    }

    let (status, changed) = page(&app, &format!("/dashboard/flight/statements/{}", reports[1]), &cookie).await;
    assert_eq!(status, 200);
    assert!(changed.contains("badge bad\">not verified"), "{changed}");
    assert!(changed.contains("<strong>signature</strong>: the signature does not match the document"));
    assert!(changed.contains("<strong>totals</strong>: amountDue is"));
    let (_, next) = page(&app, &format!("/dashboard/flight/statements/{}", reports[2]), &cookie).await;
    assert!(
        next.contains("badge bad\">not verified") && next.contains("<strong>chain</strong>"),
        "the next statement names the changed one's old hash: {next}"
    );
    let (_, first) = page(&app, &format!("/dashboard/flight/statements/{}", reports[0]), &cookie).await;
    assert!(first.contains("badge good\">verified"));
}

#[tokio::test]
async fn a_member_without_the_flight_scopes_neither_sees_nor_reaches_the_pages() {
    let app = spawn_app().await;
    enabled(&app).await;
    member(&app, "trader@example.com", &["trades:read"]).await;
    member(&app, "rounds@example.com", &["flight:read"]).await;

    let cookie = sign_in(&app, "trader@example.com").await;
    let (_, overview) = page(&app, "/dashboard", &cookie).await;
    assert!(nav(&overview).iter().all(|path| !path.starts_with("/dashboard/flight")));
    for path in FLIGHT_PAGES {
        let (status, body) = page(&app, path, &cookie).await;
        assert_eq!(status, 403, "{path}");
        assert!(
            body.contains("Not allowed") && body.contains("flight"),
            "{path}: {body}"
        );
    }
    let (status, _) = page(&app, "/dashboard/flight/tickets/export", &cookie).await;
    assert_eq!(status, 403, "nor the exports");

    let cookie = sign_in(&app, "rounds@example.com").await;
    let (status, overview) = page(&app, "/dashboard/flight", &cookie).await;
    assert_eq!(status, 200);
    let links = nav(&overview);
    assert!(links.contains(&"/dashboard/flight/flights".to_owned()), "{links:?}");
    for hidden in [
        "/dashboard/flight/tickets",
        "/dashboard/flight/terms",
        "/dashboard/flight/statements",
        "/dashboard/flight/payments",
    ] {
        assert!(!links.contains(&hidden.to_owned()), "{hidden} is hidden: {links:?}");
        let (status, body) = page(&app, hidden, &cookie).await;
        assert_eq!(status, 403, "{hidden}");
        assert!(body.contains("flight_terms:read") || body.contains("flight_settlements:read"));
    }
    assert!(!overview.contains("Settlement"), "the settlement part needs its scope");
}

#[tokio::test]
async fn a_member_of_an_operator_without_flight_is_told_it_is_not_enabled() {
    let app = spawn_app().await;
    member(&app, "admin@example.com", &["*"]).await;
    let cookie = sign_in(&app, "admin@example.com").await;
    let (_, overview) = page(&app, "/dashboard", &cookie).await;
    assert!(nav(&overview).iter().all(|path| !path.starts_with("/dashboard/flight")));
    for path in FLIGHT_PAGES {
        let (status, body) = page(&app, path, &cookie).await;
        assert_eq!(status, 200, "{path}: the API's reads answer, they do not refuse");
        assert!(body.contains("Flight is not enabled for your operator"), "{path}");
    }
}

/// Opens `path`, waits for its heading, checks it is clean and fits, and keeps its picture.
async fn visit(browser: &Browser, app: &TestApp, path: &str, name: &str, phone: bool) {
    browser.open(&format!("{}{path}", app.address)).await;
    browser
        .client()
        .wait()
        .at_most(std::time::Duration::from_secs(20))
        .for_element(Locator::Css("main h1"))
        .await
        .unwrap_or_else(|error| panic!("{path} has no heading: {error}"));
    browser.assert_no_console_errors(name).await;
    browser.assert_requests_stay_on(&app.address, name).await;
    if phone {
        let overflow = browser
            .run("return document.documentElement.scrollWidth - document.documentElement.clientWidth;")
            .await;
        assert_eq!(overflow.as_i64(), Some(0), "{path} fits a phone");
    }
    browser.screenshot(name).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_flight_page_opens_clean_on_a_laptop_and_a_phone() {
    let app = spawn_app().await;
    let reports = given_flight_data(&app).await;
    enabled(&app).await;
    member(&app, "flight@example.com", &FLIGHT_SCOPES).await;
    let ticket = json_with_status(
        app.get(
            "/api/operator/flight/tickets?externalUserId=p-1",
            &app.key_with(&FLIGHT_SCOPES).await,
        )
        .await,
        200,
    )
    .await;
    let ticket = ids(&ticket).last().cloned().expect("a finalized month's ticket");
    let mut pages: Vec<(String, String)> = vec![
        ("/dashboard/flight".into(), "flight-overview".into()),
        ("/dashboard/flight/flights".into(), "flight-flights".into()),
        (
            format!("/dashboard/flight/flights/{}", flight_id(1)),
            "flight-flight".into(),
        ),
        ("/dashboard/flight/tickets".into(), "flight-tickets".into()),
        (format!("/dashboard/flight/tickets/{ticket}"), "flight-ticket".into()),
        ("/dashboard/flight/terms".into(), "flight-terms".into()),
        ("/dashboard/flight/statements".into(), "flight-statements".into()),
        (
            format!("/dashboard/flight/statements/{}", reports[2]),
            "flight-statement".into(),
        ),
        ("/dashboard/flight/payments".into(), "flight-payments".into()),
        ("/dashboard/flight/corrections".into(), "flight-corrections".into()),
    ];
    let browser = Browser::start("dashboard").await;
    browser.open(&format!("{}/dashboard/sign-in", app.address)).await;
    for (id, text) in [("email", "flight@example.com"), ("password", PASSWORD)] {
        let field = browser
            .client()
            .find(Locator::Css(&format!("#{id}")))
            .await
            .expect("field");
        field.send_keys(text).await.expect("typing");
    }
    browser
        .client()
        .find(Locator::Css("form.card button[type=submit]"))
        .await
        .expect("button")
        .click()
        .await
        .expect("signed in");
    browser
        .client()
        .wait()
        .at_most(std::time::Duration::from_secs(20))
        .for_element(Locator::Css("nav.side"))
        .await
        .expect("the dashboard");
    for (path, name) in &pages {
        visit(&browser, &app, path, name, false).await;
    }
    visit(&browser, &app, &pages[7].0, "flight-statement", false).await;
    let badge = browser
        .run("return document.querySelector('#verification .badge').textContent;")
        .await;
    assert_eq!(badge.as_str(), Some("verified"));
    browser.resize(WindowSize::PHONE).await;
    for (path, name) in pages.iter_mut() {
        name.push_str("-phone");
        visit(&browser, &app, path, name, true).await;
    }
    browser.close().await;
}
