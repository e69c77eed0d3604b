//! An operator's brand: none before the first write, replaced whole, read back through
//! the domain's checks, one per operator; the table's checks refuse what the domain
//! would.

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use opinion_app::model::OperatorBranding;
use opinion_app::players::ports::LaunchSettingsStore;
use opinion_launch::Branding;
use time::Duration;

use crate::fixtures::*;

fn brand(name: &str, logo: Option<&str>, primary: &str) -> Branding {
    Branding::parse(name, logo, primary, "#111827", "id").expect("brand")
}

#[tokio::test]
async fn a_brand_is_replaced_whole_and_read_back() {
    let (_db, store) = store().await;
    given_operator(&store, 1).await;
    given_operator(&store, 2).await;
    assert_eq!(store.find_branding(operator_id(1)).await.expect("find"), None);

    let first = brand("Casino Merah", Some("https://cdn.casino.example/logo.svg"), "#B91C1C");
    store.replace_branding(operator_id(1), &first, T0).await.expect("save");
    let second = brand("Casino Biru", None, "#1d4ed8");
    let later = T0 + Duration::minutes(5);
    store
        .replace_branding(operator_id(1), &second, later)
        .await
        .expect("replace");

    assert_eq!(
        store.find_branding(operator_id(1)).await.expect("find"),
        Some(OperatorBranding {
            operator_id: operator_id(1),
            branding: second,
            updated_at: Some(later),
        })
    );
    assert_eq!(
        store.find_branding(operator_id(2)).await.expect("find"),
        None,
        "one per operator"
    );
}

#[tokio::test]
async fn the_table_refuses_what_the_domain_refuses() {
    let (db, store) = store().await;
    given_operator(&store, 1).await;
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    for (column, value) in [
        ("name", "'Casino'"),
        ("logo_url", "'http://cdn.casino.example/logo.svg'"),
        ("primary_color", "'#B91C1C'"),
        ("default_language", "'fr'"),
        ("name", "''"),
    ] {
        let mut row = std::collections::BTreeMap::from([
            ("name", "'Casino'"),
            ("logo_url", "NULL"),
            ("primary_color", "'#b91c1c'"),
            ("accent_color", "'#111827'"),
            ("default_language", "'en'"),
        ]);
        row.insert(column, value);
        let sql = format!(
            "INSERT INTO operator_branding (operator_id, name, logo_url, primary_color, accent_color, \
             default_language, updated_at) VALUES ('{}', {}, {}, {}, {}, {}, now())",
            uuid::Uuid::from_u128(operator_id(1).as_u128()),
            row["name"],
            row["logo_url"],
            row["primary_color"],
            row["accent_color"],
            row["default_language"],
        );
        let refused = conn.batch_execute(&sql).await.is_err();
        if value == "'Casino'" {
            assert!(!refused, "the valid row is stored: {sql}");
            conn.batch_execute("DELETE FROM operator_branding")
                .await
                .expect("delete");
        } else {
            assert!(refused, "{column} = {value} is refused");
        }
    }
}
