//! Operators' playground console choices: the default before any, the latest after
//! several, each operator its own.

use opinion_access::PlaygroundConsole;
use opinion_app::access::ports::OperatorStore;
use opinion_app::model::PlaygroundSetting;

use crate::fixtures::*;

#[tokio::test]
async fn a_choice_is_read_back_replaced_and_kept_to_its_operator() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let first = operator_id(1);
    assert_eq!(
        store.find_playground_setting(first).await.expect("read"),
        PlaygroundSetting::default()
    );

    store
        .save_playground_console(first, PlaygroundConsole::ReadWrite, at(10))
        .await
        .expect("save");
    store
        .save_playground_console(first, PlaygroundConsole::ReadOnly, at(20))
        .await
        .expect("replace");
    store
        .save_playground_console(operator_id(2), PlaygroundConsole::ReadWrite, at(30))
        .await
        .expect("save");
    assert_eq!(
        store.find_playground_setting(first).await.expect("read"),
        PlaygroundSetting {
            console: PlaygroundConsole::ReadOnly,
            updated_at: Some(at(20))
        }
    );
    assert_eq!(
        store
            .find_playground_setting(operator_id(2))
            .await
            .expect("read")
            .console,
        PlaygroundConsole::ReadWrite
    );
}
