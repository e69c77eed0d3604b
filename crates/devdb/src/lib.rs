//! A private PostgreSQL cluster for development (`cargo run`) and tests, run from the server binaries
//! installed on the machine, so nobody has to set up a database server by hand.
//!
//! [`Cluster::start_persistent`] keeps a developer's data in a directory across runs;
//! [`Cluster::start_ephemeral`] gives tests a fast throwaway cluster that disappears with the process;
//! [`Cluster::start_scratch`] gives a measurement a durable cluster that disappears with it too.
//! All listen on a free port on 127.0.0.1 only and accept the superuser `postgres` without a password.
//! [`Cluster::start_ephemeral_tls`] also serves TLS under a certificate the test made.
//! The API is synchronous because it is used once, at start-up.

mod binaries;
mod cluster;
mod error;
mod init;
mod pidfile;
mod port;
mod privilege;
mod server;
mod tls;
mod watchdog;

pub use cluster::Cluster;
pub use error::DevDbError;
pub use tls::ServerTls;

/// Path of a program of the installation the clusters run from (e.g. `pgbench`, which
/// Debian keeps off `PATH` next to `postgres`); `None` when that installation lacks it.
pub fn server_program(name: &str) -> Result<Option<std::path::PathBuf>, DevDbError> {
    Ok(binaries::Binaries::locate()?.program(name))
}
