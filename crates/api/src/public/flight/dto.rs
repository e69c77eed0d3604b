//! A seed chain as it is published: its commitment and salt, which fix every crash point
//! of the chain, and how far it has been played.

use opinion_app::flight::reads::ports::ChainSummary;
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;

/// One seed chain.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FlightChainBody {
    /// `fch_…`, the `chainId` of its flights.
    pub id: String,
    /// `hex(seed[0])`: every flight `k` of the chain plays a `seed[k]` that hashes down
    /// to it in `k` SHA-256 steps.
    pub commitment: String,
    /// The public salt of every crash point of the chain.
    pub salt: String,
    /// How many flights the chain plays.
    pub length: u32,
    /// When the chain was made (UTC); it is stored, and served here, before its first
    /// flight is.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// The number of its first flight; null before that flight boards.
    pub first_flight_number: Option<u32>,
    /// The number of its latest flight (it may still be boarding or in the air); null
    /// before the first flight boards.
    pub last_flight_number: Option<u32>,
}

impl From<ChainSummary> for FlightChainBody {
    fn from(summary: ChainSummary) -> Self {
        Self {
            id: summary.chain.id.to_string(),
            commitment: summary.chain.commitment.to_hex(),
            salt: summary.chain.salt.as_str().to_owned(),
            length: summary.chain.length.get(),
            created_at: summary.chain.created_at,
            first_flight_number: summary.first_flight,
            last_flight_number: summary.last_flight,
        }
    }
}
