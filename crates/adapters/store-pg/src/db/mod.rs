//! The database itself, shared by every room: where and how to connect (`DatabaseTarget`,
//! TLS included), the connection pool (`PgStore`), creating and migrating the database,
//! the diesel schema, the mapping of diesel errors, ids as stored, and the sealing of
//! secrets at rest.

pub(crate) mod database;
pub(crate) mod error;
pub(crate) mod ids;
pub(crate) mod migrate;
pub(crate) mod pool;
pub(crate) mod schema;
pub(crate) mod sealing;
pub(crate) mod target;
pub(crate) mod tls;
