//! The playground console setting and the check of the console's requests.

use opinion_access::{ApiKeyEnvironment, Grant, HttpMethod, PlaygroundConsole};

use crate::error::{AppError, ProblemCode};
use crate::model::PlaygroundSetting;
use crate::test_support::*;

fn storing(console: Option<PlaygroundConsole>) -> Mocks {
    let mut mocks = Mocks::default();
    mocks.operators.expect_find_playground_setting().returning(move |_| {
        Ok(
            console.map_or_else(PlaygroundSetting::default, |console| PlaygroundSetting {
                console,
                updated_at: Some(NOW),
            }),
        )
    });
    mocks
}

#[tokio::test]
async fn in_production_a_console_write_is_refused_until_the_operator_turns_the_console_on() {
    let access = storing(None).build_in(ApiKeyEnvironment::Production);
    let refused = access.admit_console_request(OPERATOR, HttpMethod::Post).await;
    assert!(
        matches!(
            refused,
            Err(AppError::Conflict {
                code: ProblemCode::PlaygroundReadOnly,
                ..
            })
        ),
        "{refused:?}"
    );
    let access = storing(Some(PlaygroundConsole::ReadOnly)).build_in(ApiKeyEnvironment::Production);
    assert!(
        access
            .admit_console_request(OPERATOR, HttpMethod::Delete)
            .await
            .is_err()
    );
    let access = storing(Some(PlaygroundConsole::ReadWrite)).build_in(ApiKeyEnvironment::Production);
    assert!(access.admit_console_request(OPERATOR, HttpMethod::Patch).await.is_ok());
}

#[tokio::test]
async fn reads_and_every_request_outside_production_pass_without_reading_the_store() {
    let production = Mocks::default().build_in(ApiKeyEnvironment::Production);
    assert!(
        production
            .admit_console_request(OPERATOR, HttpMethod::Get)
            .await
            .is_ok()
    );
    for environment in [ApiKeyEnvironment::Development, ApiKeyEnvironment::Staging] {
        let access = Mocks::default().build_in(environment);
        assert!(access.admit_console_request(OPERATOR, HttpMethod::Post).await.is_ok());
    }
}

#[tokio::test]
async fn a_choice_is_stored_for_the_callers_operator_at_the_clocks_time() {
    let mut mocks = Mocks::default();
    mocks
        .operators
        .expect_save_playground_console()
        .times(1)
        .withf(|operator, console, at| (*operator, *console, *at) == (OPERATOR, PlaygroundConsole::ReadWrite, NOW))
        .returning(|_, _, _| Ok(()));
    let setting = mocks
        .build()
        .set_playground_console(&staff_caller(Grant::All), PlaygroundConsole::ReadWrite)
        .await
        .expect("stored");
    assert_eq!(
        setting,
        PlaygroundSetting {
            console: PlaygroundConsole::ReadWrite,
            updated_at: Some(NOW)
        }
    );
}
