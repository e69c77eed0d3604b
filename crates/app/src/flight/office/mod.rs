//! The flight back office: what platform staff do after the game, per operator and
//! period. The platform's statement keys (`keys.rs`): the configured signing key is made
//! current at start-up, staff rotate it, everyone reads the public halves. Finalizing a
//! period's report into a signed, chained statement (`finalize.rs`, the document in
//! `statement.rs`, the ticket-lines CSV it hashes in `lines_csv.rs`). Reading the
//! operator's reports, open and finalized, and exporting a finalized one (`reports.rs`);
//! the settlement as the overview shows it (`standing.rs`).
//! Correcting a finalized statement with a signed, chained correction (`correct.rs`) and
//! listing corrections (`corrections.rs`); recording payments and reading them with
//! what remains due (`payments.rs`).
//! The v5 proof: the statement's Merkle tree built in the same walk, kept for proofs, and
//! a ticket's inclusion proof read from it (`proofs.rs`, its store in `proof_ports.rs`).
//! Verifying a finalized statement as its operator would (`verification.rs`).
//!
//! The rules (report arithmetic, finalization, canonical bytes, signatures, the chain)
//! are `opinion-flight`'s and `opinion-statement`'s; this room sequences them.

pub mod model;
pub mod ports;
pub mod proof_ports;

pub mod lines_csv;
pub mod statement;

mod correct;
#[cfg(test)]
mod correct_tests;
mod corrections;
mod finalize;
#[cfg(test)]
mod finalize_tests;
mod keys;
#[cfg(test)]
mod keys_tests;
mod payments;
#[cfg(test)]
mod payments_tests;
mod proofs;
#[cfg(test)]
mod proofs_tests;
mod reports;
#[cfg(test)]
mod reports_tests;
mod standing;
#[cfg(test)]
mod standing_tests;
mod verification;
#[cfg(test)]
mod verification_tests;

pub use correct::{CORRECTION_TYPE, CorrectionRequest, MAX_CHANGE, MAX_REASON};
pub use finalize::{FinalizeOutcome, LINES_CHUNK};
pub use keys::KeyRotation;
pub use payments::{MAX_REFERENCE, PaymentRequest, ReportPayments};
pub use proofs::{TicketProof, proof_line};
pub use reports::{LinesExport, PERIOD, ReportAddress, SettlementReport, period_position};
pub use standing::{OutstandingReport, SettlementStanding};

use std::sync::Arc;

use opinion_statement::StatementKey;

use crate::access::ports::OperatorStore;
use crate::flight::exchange::ExchangeRates;
use crate::flight::office::ports::{OfficeStore, StatementKeyStore};
use crate::flight::office::proof_ports::ProofStore;
use crate::flight::ports::FlightStore;
use crate::ports::{Clock, Random};

/// The ports the back office needs.
#[derive(Clone)]
pub struct OfficePorts {
    /// The platform's statement keys.
    pub keys: Arc<dyn StatementKeyStore>,
    /// Finalized reports and the operators' chains of signed documents.
    pub store: Arc<dyn OfficeStore>,
    /// The operators' terms (payment due days).
    pub flight: Arc<dyn FlightStore>,
    /// The statements' trees, kept for ticket proofs.
    pub proofs: Arc<dyn ProofStore>,
    /// The operators (their reporting currency).
    pub operators: Arc<dyn OperatorStore>,
    /// The exchange the comparison-only rate comes from.
    pub exchange: Arc<dyn ExchangeRates>,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
}

/// The flight back office's use cases, signing with this instance's configured key.
#[derive(Clone)]
pub struct FlightOffice {
    pub(crate) ports: OfficePorts,
    pub(crate) signing_key: StatementKey,
}

impl FlightOffice {
    /// Builds the service from its ports and the configured signing key.
    pub fn new(ports: OfficePorts, signing_key: StatementKey) -> Self {
        Self { ports, signing_key }
    }
}
