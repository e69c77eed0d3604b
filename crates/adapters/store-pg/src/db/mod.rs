//! The database itself, shared by every room: where and how to connect (`DatabaseTarget`,
//! TLS and the session time limits included), the connection pool (`PgStore`), creating and migrating the database,
//! the diesel schema, the mapping of diesel errors, ids as stored, the sealing of secrets
//! at rest (`sealing`), where sealed values live (`sealed_places`) and re-sealing them
//! under a new data key (`resealing`), creating within an operator's caps (`caps`), and
//! running a use case's step in one transaction (`transactions`), a transaction begun
//! with its session settings in one round trip (`tuned_transaction`), hand-written SQL
//! kept prepared (`prepared`), and keyset pages whose plans are kept (`keyset_page`).

pub(crate) mod caps;
pub(crate) mod database;
pub(crate) mod error;
pub(crate) mod ids;
pub(crate) mod keyset_page;
pub(crate) mod migrate;
pub(crate) mod pipeline;
pub(crate) mod pool;
pub(crate) mod pool_waits;
pub(crate) mod prepared;
pub(crate) mod resealing;
pub(crate) mod schema;
pub(crate) mod sealed_places;
pub(crate) mod sealing;
pub(crate) mod session_limits;
pub(crate) mod target;
pub(crate) mod tls;
pub(crate) mod transactions;
pub(crate) mod tuned_transaction;
