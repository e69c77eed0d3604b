//! Launch settings: replaced whole, read back in order, a host belongs to one operator
//! and names it across all operators.

use opinion_app::model::{LaunchSettings, LaunchSite};
use opinion_app::players::ports::{LaunchSettingsStore, LaunchSettingsWrite};
use opinion_core::OperatorId;
use opinion_launch::{FrameOrigins, LaunchHost, LaunchHosts};

use crate::fixtures::*;

fn settings(operator: u128, hosts: &[&str], origins: &[&str]) -> LaunchSettings {
    let texts = |items: &[&str]| items.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    LaunchSettings {
        operator_id: operator_id(operator),
        hosts: LaunchHosts::parse(&texts(hosts)).expect("hosts"),
        frame_origins: FrameOrigins::parse(&texts(origins)).expect("origins"),
        updated_at: Some(T0),
    }
}

fn host(name: &str) -> LaunchHost {
    LaunchHost::parse(name).expect("host")
}

fn site(operator: OperatorId, origins: &[&str]) -> LaunchSite {
    LaunchSite {
        operator_id: operator,
        frame_origins: settings(1, &[], origins).frame_origins,
    }
}

#[tokio::test]
async fn settings_are_replaced_whole_and_read_back_in_order() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    assert_eq!(store.find_launch_settings(operator_id(1)).await.expect("find"), None);

    let first = settings(
        1,
        &["b.casino.example", "a.casino.example"],
        &["https://casino.example"],
    );
    assert_eq!(
        store.replace_launch_settings(&first, T0).await.expect("save"),
        LaunchSettingsWrite::Saved
    );
    assert_eq!(
        store.find_launch_settings(operator_id(1)).await.expect("find"),
        Some(first)
    );
    assert_eq!(
        store.find_launch_site(&host("a.casino.example")).await.expect("site"),
        Some(site(operator_id(1), &["https://casino.example"]))
    );

    let second = LaunchSettings {
        updated_at: Some(at(60)),
        ..settings(1, &["c.casino.example", "b.casino.example"], &[])
    };
    store.replace_launch_settings(&second, at(60)).await.expect("save");
    assert_eq!(
        store.find_launch_settings(operator_id(1)).await.expect("find"),
        Some(second)
    );
    assert_eq!(
        store.find_launch_site(&host("a.casino.example")).await.expect("site"),
        None,
        "a host left out is nobody's any more"
    );
    assert_eq!(
        store.find_launch_site(&host("b.casino.example")).await.expect("site"),
        Some(site(operator_id(1), &[]))
    );
}

#[tokio::test]
async fn a_host_belongs_to_one_operator_and_a_refused_change_changes_nothing() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    let theirs = settings(1, &["play.casino.example"], &["https://casino.example"]);
    store.replace_launch_settings(&theirs, T0).await.expect("save");

    let mine = settings(2, &["play.other.example"], &[]);
    store.replace_launch_settings(&mine, T0).await.expect("save");
    let grab = settings(
        2,
        &["play.other.example", "play.casino.example"],
        &["https://other.example"],
    );
    assert_eq!(
        store.replace_launch_settings(&grab, at(1)).await.expect("refused"),
        LaunchSettingsWrite::HostTaken(host("play.casino.example"))
    );
    assert_eq!(
        store.find_launch_settings(operator_id(2)).await.expect("find"),
        Some(mine)
    );
    assert_eq!(
        store.find_launch_settings(operator_id(1)).await.expect("find"),
        Some(theirs)
    );
    assert_eq!(
        store
            .find_launch_site(&host("play.casino.example"))
            .await
            .expect("site"),
        Some(site(operator_id(1), &["https://casino.example"]))
    );
}

#[tokio::test]
async fn an_operator_may_keep_its_own_hosts_and_give_one_up_for_another_to_take() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    store
        .replace_launch_settings(&settings(1, &["play.casino.example"], &[]), T0)
        .await
        .expect("save");
    store
        .replace_launch_settings(&settings(1, &["play.casino.example"], &[]), at(1))
        .await
        .expect("saving the same host again is no clash with itself");
    store
        .replace_launch_settings(&settings(1, &[], &[]), at(2))
        .await
        .expect("give it up");
    assert_eq!(
        store
            .replace_launch_settings(&settings(2, &["play.casino.example"], &[]), at(3))
            .await
            .expect("take it"),
        LaunchSettingsWrite::Saved
    );
    assert_eq!(
        store
            .find_launch_site(&host("play.casino.example"))
            .await
            .expect("site"),
        Some(site(operator_id(2), &[]))
    );
}
