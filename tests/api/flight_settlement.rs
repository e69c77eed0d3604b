//! Settlement reports finalized by platform staff with the admin command: every blocker
//! of an open period listed, a past period finalized into a signed statement naming the
//! published key, and two finalizations at once leaving one report.

use opinion_statement::{KnownKey, PublicKey, SignedDocument, verify};
use opinion_testkit::TermsSeed;
use opinion_testkit::ulid_at;
use serde_json::Value;
use time::macros::datetime;

use crate::admin_settlement::{admin, admin_fails};
use crate::flight_reads_seed::{Chain, given_flights, given_player, lost_ticket, this_month};
use crate::helpers::spawn_app;
use crate::trading_seed::{bits, seeder};

#[tokio::test]
async fn a_past_period_is_finalized_once_into_a_signed_statement_and_an_open_one_is_refused() {
    let app = spawn_app().await;
    let mut seed = seeder(&app).await;
    given_flights(&mut seed, &Chain::new(), 3).await;
    let terms = ulid_at(datetime!(2026-09-01 00:00 UTC), 901) + bits(&app.operator);
    seed.flight_terms(&TermsSeed {
        operator: bits(&app.operator),
        id: terms,
        share_bps: 1_500,
        effective_from: datetime!(2026-09-01 00:00 UTC),
    })
    .await;
    let player = given_player(&mut seed, &app.operator, 1, "p-1").await;
    for n in 0..3u16 {
        let bought = datetime!(2026-10-10 12:00 UTC) + time::Duration::minutes(i64::from(n));
        seed.flight_ticket(&lost_ticket(&player, terms, 1, 100 + n, bought))
            .await;
    }
    let operator = app.operator.id.to_string();

    let refused = admin_fails(
        &app,
        &[
            "flight",
            "finalize",
            "--operator",
            &operator,
            "--period",
            &this_month().0,
        ],
    )
    .await;
    assert!(refused.contains("period_open"), "{refused}");
    let bad = admin_fails(
        &app,
        &["flight", "finalize", "--operator", &operator, "--period", "2026-13"],
    )
    .await;
    assert!(bad.contains("YYYY-MM"), "{bad}");

    let args = [
        "flight",
        "finalize",
        "--operator",
        operator.as_str(),
        "--period",
        "2026-10",
    ];
    let (one, other) = tokio::join!(admin(&app, &args), admin(&app, &args));
    assert_eq!(one["reportId"], other["reportId"], "one report");
    assert_eq!(one["statementHash"], other["statementHash"], "one statement");
    let finalized = if one["alreadyFinalized"] == false { &one } else { &other };
    assert_eq!(finalized["alreadyFinalized"], false);
    assert_eq!(finalized["ticketCount"], 3);
    assert_eq!(finalized["share"], "4500");
    assert_eq!(finalized["amountDue"], "4500");
    assert_eq!(finalized["direction"], "operator_to_platform");
    assert_eq!(finalized["dueDate"], "2026-11-16");

    let statement: SignedDocument = serde_json::from_value(finalized["statement"].clone()).expect("signed");
    assert_eq!(statement.document["sequence"], 1);
    assert_eq!(statement.document["periodStart"], "2026-10-01T00:00:00Z");
    let keys: Value = app
        .client
        .get(format!("{}/.well-known/opinion-statement-keys.json", app.address))
        .send()
        .await
        .expect("keys")
        .json()
        .await
        .expect("json");
    let published = keys["keys"][0].clone();
    let hash = verify(&statement, |id| {
        (published["keyId"] == id).then(|| KnownKey {
            public_key: PublicKey::from_hex(published["publicKey"].as_str().expect("hex")).expect("key"),
            retired_at: None,
        })
    })
    .expect("verifies with the published key");
    assert_eq!(finalized["statementHash"], hash.to_string());
}
