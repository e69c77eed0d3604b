//! What the benchmark suite (`opinion-bench`) and the soak (`opinion-soak`) share: the
//! release service run as a child process on a private PostgreSQL cluster, bulk seeding,
//! the service's HTTP API as a client sees it, tiny local stand-in servers, the
//! service's memory figures and its database pool's waits.

pub mod api;
pub mod database;
pub mod lifeline;
pub mod local_http;
pub mod memory;
pub mod pool_waits;
pub mod seed;
pub mod service;
