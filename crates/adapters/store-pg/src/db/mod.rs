//! The database itself, shared by every room: the connection pool (`PgStore`), creating
//! and migrating the database, the diesel schema, the mapping of diesel errors, the
//! sealing of secrets at rest, and the rows and id conversions every room reads through.

pub(crate) mod database;
pub(crate) mod error;
pub(crate) mod migrate;
pub(crate) mod pool;
pub(crate) mod rows;
pub(crate) mod schema;
pub(crate) mod sealing;
