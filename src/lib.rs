//! The composition root of the Opinion platform: configuration, wiring of the store,
//! use cases and HTTP API, the development database and demo data, and the admin tool.
//! `main.rs` only parses the command line and calls into here.

pub mod admin;
pub mod allocator;
pub mod cli;
pub mod config;
pub mod database;
pub mod dev_seed;
pub mod flight_workers;
pub mod loop_tasks;
pub mod private_file;
pub mod secrets;
pub mod session_sweeper;
pub mod startup;
pub mod system_ports;
pub mod telemetry;
pub mod wallet_worker;
pub mod webhook_workers;
