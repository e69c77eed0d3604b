//! The published seed chains: each chain's commitment (`hex(seed[0])`) and salt, public
//! from the moment the chain is stored, which is before its first flight boards, so anyone
//! can hold the platform to every crash point of the chain in advance. The chain's
//! terminal seed never leaves the store.

use opinion_core::{FlightChainId, FlightChainKind, Page, PageRequest};

use crate::error::AppError;
use crate::flight::reads::FlightReads;
use crate::flight::reads::ports::ChainSummary;

impl FlightReads {
    /// One page of seed chains, newest first (the first of the first page is the chain
    /// being played).
    pub async fn chains(
        &self,
        page: PageRequest<FlightChainKind>,
    ) -> Result<Page<ChainSummary, FlightChainKind>, AppError> {
        Ok(self.ports.store.list_chains(page).await?)
    }

    /// One seed chain; 404 if there is no such chain.
    pub async fn chain(&self, id: FlightChainId) -> Result<ChainSummary, AppError> {
        self.ports
            .store
            .find_chain(id)
            .await?
            .ok_or(AppError::NotFound("flight chain"))
    }
}
