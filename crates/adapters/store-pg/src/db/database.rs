//! Creating a database on a server, for the development cluster and test databases:
//! production databases are provisioned outside the service.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::ports::StoreError;

use crate::db::error::{from_diesel, unavailable};
use crate::db::target::DatabaseTarget;

diesel::table! {
    /// The server's catalog of databases (only the column read here).
    pg_database (datname) {
        datname -> Text,
    }
}

/// Creates database `name` on the server `admin_url` connects to, unless it exists.
/// Safe to call concurrently: losing the race to create it counts as success.
pub async fn create_database_if_missing(admin_url: &str, name: &str) -> Result<(), StoreError> {
    if name.is_empty() || name.contains('\0') {
        return Err(StoreError::Unavailable(format!("invalid database name {name:?}")));
    }
    let mut conn = DatabaseTarget::new(admin_url, None)?
        .connect()
        .await
        .map_err(|error| unavailable("cannot connect to create a database", &error))?;
    if exists(&mut conn, name).await? {
        return Ok(());
    }
    let quoted = name.replace('"', "\"\"");
    let created = diesel::sql_query(format!("CREATE DATABASE \"{quoted}\""))
        .execute(&mut conn)
        .await;
    match created {
        Ok(_) => {
            tracing::info!(database = name, "created the database");
            Ok(())
        }
        Err(_) if exists(&mut conn, name).await? => Ok(()),
        Err(error) => Err(from_diesel(error)),
    }
}

async fn exists(conn: &mut AsyncPgConnection, name: &str) -> Result<bool, StoreError> {
    diesel::select(diesel::dsl::exists(
        pg_database::table.filter(pg_database::datname.eq(name)),
    ))
    .get_result(conn)
    .await
    .map_err(from_diesel)
}
