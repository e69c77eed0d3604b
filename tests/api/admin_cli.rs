//! The platform staff's admin command, run as the real binary.

use std::process::{Command, Output};

use serde_json::Value;

use crate::helpers::{TEST_STATEMENT_KEY, json_with_status, spawn_app};

/// Runs `opinion <args>` over the database at `database_url`.
pub fn run(database_url: &str, args: &[&str]) -> Output {
    let mut command = command(database_url, args);
    command.env("OPINION_STATEMENT_SIGNING_KEY", TEST_STATEMENT_KEY);
    command.output().expect("ran the binary")
}

/// Runs `opinion <args>` over the database at `database_url` in development with
/// `data_dir` as its data directory and no statement key configured (it keeps its own).
pub fn opinion_in(data_dir: &std::path::Path, database_url: &str, args: &[&str]) -> Output {
    let mut command = command(database_url, args);
    command.env("OPINION_DATA_DIR", data_dir);
    command.output().expect("ran the binary")
}

/// The command `opinion <args>` over the database at `database_url`, with the test secrets
/// (the data key the test service seals with, as one deployment shares one data key: a
/// statement the command finalizes seals its player key for the service to open).
fn command(database_url: &str, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_opinion"));
    command
        .args(args)
        .env("DATABASE_URL", database_url)
        .env(
            "OPINION_SESSION_SECRET",
            "admin test secret of at least thirty-two bytes",
        )
        .env("OPINION_DATA_KEY", crate::helpers::TEST_DATA_KEY)
        .env("RUST_LOG", "warn")
        .env_remove("OPINION_STATEMENT_SIGNING_KEY");
    command
}

/// Runs `opinion <args>` with the extra environment `env`, which must succeed, and returns
/// the JSON object it printed.
pub fn opinion_with_env(database_url: &str, args: &[&str], env: &[(String, String)]) -> Value {
    let mut command = command(database_url, args);
    command.env("OPINION_STATEMENT_SIGNING_KEY", TEST_STATEMENT_KEY);
    command.envs(env.iter().map(|(name, value)| (name, value)));
    let output = command.output().expect("ran the binary");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("one JSON object on stdout")
}

/// Runs `opinion <args>`, which must succeed, and returns the JSON object it printed.
pub fn opinion(database_url: &str, args: &[&str]) -> Value {
    opinion_result(database_url, args).unwrap_or_else(|stderr| panic!("{stderr}"))
}

/// Runs `opinion <args>`: the JSON object it printed, or its stderr when it failed (with
/// nothing on stdout), for commands that may go either way.
pub fn opinion_result(database_url: &str, args: &[&str]) -> Result<Value, String> {
    let output = run(database_url, args);
    if output.status.success() {
        return Ok(serde_json::from_slice(&output.stdout).expect("one JSON object on stdout"));
    }
    assert!(output.stdout.is_empty(), "{}", String::from_utf8_lossy(&output.stdout));
    Err(String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Runs `opinion <args>`, which must fail printing nothing on stdout; returns its stderr.
pub fn opinion_fails(database_url: &str, args: &[&str]) -> String {
    let output = run(database_url, args);
    assert!(!output.status.success(), "{}", String::from_utf8_lossy(&output.stdout));
    assert!(output.stdout.is_empty(), "{}", String::from_utf8_lossy(&output.stdout));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[tokio::test]
async fn operator_create_prints_a_working_full_access_key_and_staff_create_a_login() {
    let app = spawn_app().await;
    let url = app.db.url().to_owned();
    let created =
        tokio::task::spawn_blocking(move || opinion(&url, &["admin", "operator", "create", "--name", "Acme"]))
            .await
            .expect("joined");
    let operator_id = created["operatorId"].as_str().expect("operatorId").to_owned();
    assert!(operator_id.starts_with("op_"));
    let key = created["apiKey"].as_str().expect("apiKey");
    let keys = json_with_status(app.get("/api/operator/api-keys", key).await, 200).await;
    assert_eq!(keys["data"][0]["scopes"], serde_json::json!(["*"]));

    let url = app.db.url().to_owned();
    let staff = tokio::task::spawn_blocking(move || {
        opinion(
            &url,
            &[
                "admin",
                "staff",
                "create",
                "--operator",
                &operator_id,
                "--email",
                "boss@acme.test",
                "--name",
                "Boss",
            ],
        )
    })
    .await
    .expect("joined");
    let password = staff["temporaryPassword"].as_str().expect("generated password");
    let session = app
        .access
        .start_session("boss@acme.test", password, None)
        .await
        .expect("login");
    json_with_status(app.get("/api/operator/staff", &session.token).await, 200).await;
}
