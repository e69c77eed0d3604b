//! The platform's statement keys: served without a credential at the well-known URL,
//! rotated and listed by platform staff with the admin command.

use opinion_statement::StatementKey;
use serde_json::Value;

use crate::admin_cli::opinion_in;
use crate::admin_settlement::{admin, admin_fails};
use crate::helpers::{TEST_STATEMENT_KEY, spawn_app};

const WELL_KNOWN: &str = "/.well-known/opinion-statement-keys.json";

async fn published(app: &crate::helpers::TestApp) -> Value {
    let response = app
        .client
        .get(format!("{}{WELL_KNOWN}", app.address))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .expect("type")
            .starts_with("application/json")
    );
    response.json().await.expect("json")
}

#[tokio::test]
async fn the_configured_key_is_published_without_a_credential_and_rotation_retires_it() {
    let app = spawn_app().await;
    let configured = StatementKey::from_hex(TEST_STATEMENT_KEY).expect("key");
    let keys = published(&app).await;
    assert_eq!(keys["keys"].as_array().expect("keys").len(), 1);
    assert_eq!(keys["keys"][0]["keyId"], configured.key_id().to_string());
    assert_eq!(keys["keys"][0]["algorithm"], "Ed25519");
    assert_eq!(keys["keys"][0]["publicKey"], configured.public_key().to_hex());
    assert_eq!(keys["keys"][0]["retiredAt"], Value::Null);

    let next = StatementKey::from_seed([0x6b; 32]);
    let file = std::env::temp_dir().join(format!("opinion-next-key-{}", std::process::id()));
    std::fs::write(&file, next.to_hex()).expect("key file");
    let path = file.to_str().expect("utf-8").to_owned();
    let rotated = admin(&app, &["statement-keys", "rotate", "--key-file", &path]).await;
    std::fs::remove_file(&file).expect("clean up");
    assert_eq!(rotated["current"]["keyId"], next.key_id().to_string());
    assert_eq!(rotated["retired"]["keyId"], configured.key_id().to_string());
    let retired_at = rotated["retired"]["retiredAt"].as_str().expect("retired").to_owned();

    let keys = published(&app).await;
    assert_eq!(keys["keys"].as_array().expect("keys").len(), 2);
    assert_eq!(keys["keys"][0]["retiredAt"], retired_at.as_str());
    assert_eq!(keys["keys"][1]["keyId"], next.key_id().to_string());
    assert_eq!(keys["keys"][1]["retiredAt"], Value::Null);
    let listed = admin(&app, &["statement-keys", "list"]).await;
    assert_eq!(listed["keys"], keys["keys"]);

    let bad = std::env::temp_dir().join(format!("opinion-bad-key-{}", std::process::id()));
    std::fs::write(&bad, "not a key").expect("key file");
    let refused = admin_fails(
        &app,
        &["statement-keys", "rotate", "--key-file", bad.to_str().expect("utf-8")],
    )
    .await;
    std::fs::remove_file(&bad).expect("clean up");
    assert!(refused.contains("64 hex digits"), "{refused}");
}

#[tokio::test]
async fn development_rotation_makes_and_keeps_a_new_key() {
    let app = spawn_app().await;
    let dir = std::env::temp_dir().join(format!("opinion-dev-keys-{}", std::process::id()));
    let url = app.db.url().to_owned();
    let run = move |args: &'static [&'static str]| {
        let dir = dir.clone();
        let url = url.clone();
        async move {
            tokio::task::spawn_blocking(move || {
                let output = opinion_in(&dir, &url, args);
                assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
                serde_json::from_slice::<Value>(&output.stdout).expect("json")
            })
            .await
            .expect("joined")
        }
    };
    // Its first start keeps a key in the data directory and makes it current.
    let listed = run(&["admin", "statement-keys", "list"]).await;
    assert_eq!(listed["keys"].as_array().expect("keys").len(), 2);
    let kept = listed["keys"][1]["keyId"].as_str().expect("id").to_owned();
    let rotated = run(&["admin", "statement-keys", "rotate"]).await;
    assert_eq!(rotated["retired"]["keyId"], kept.as_str());
    let new = rotated["current"]["keyId"].as_str().expect("id").to_owned();
    assert_ne!(new, kept);
    // The new key is the one kept: a later start signs with it and changes nothing.
    let again = run(&["admin", "statement-keys", "list"]).await;
    assert_eq!(again["keys"].as_array().expect("keys").len(), 3);
    assert_eq!(again["keys"][2]["keyId"], new.as_str());
    assert_eq!(again["keys"][2]["retiredAt"], Value::Null);
    let kept_file = std::env::temp_dir()
        .join(format!("opinion-dev-keys-{}", std::process::id()))
        .join("statement-key");
    let seed = std::fs::read_to_string(&kept_file).expect("kept key");
    assert_eq!(StatementKey::from_hex(&seed).expect("key").key_id().to_string(), new);
    std::fs::remove_dir_all(kept_file.parent().expect("dir")).expect("clean up");
}
