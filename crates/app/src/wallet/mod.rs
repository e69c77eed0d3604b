//! The operator's wallet adapter: its configuration (base URL, time-out, signing
//! secret) and the full-contract test of the adapter, whose kept verdicts tell whether
//! the adapter takes the flight product's native-IDR reasons. `call` sends one stored
//! operation for any product's flow; what its answer means stays with the flow that owns
//! the operation (`opinion::trading`, `flight`).

pub mod ports;

mod adapters;
#[cfg(test)]
mod adapters_tests;
pub(crate) mod call;
pub(crate) mod contract_test;
pub(crate) mod new_operation;
pub(crate) mod review;
pub(crate) mod review_event;

pub use adapters::{
    SavedWalletAdapter, WalletAdapterChange, WalletAdapterPorts, WalletAdapterSettings, WalletAdapterView,
    WalletAdapters,
};
pub use contract_test::{
    CheckResult, DEFAULT_FLIGHT_TEST_AMOUNT, DEFAULT_FLIGHT_TEST_USER, DEFAULT_TEST_AMOUNT, DEFAULT_TEST_USER,
    Exchange, MAX_TEST_AMOUNT, NotRun, SectionReport, Verdict, WalletAdapterTest, WalletTestPorts, WalletTestReport,
    WalletTestRequest,
};
pub use review::{ReviewDecision, ReviewFinding};
