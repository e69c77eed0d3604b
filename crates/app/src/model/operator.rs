//! An operator: a tenant of the platform.

use opinion_core::OperatorId;
use opinion_wallet::Currency;
use time::OffsetDateTime;

/// A tenant: a gaming or fintech site that embeds the platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operator {
    pub id: OperatorId,
    /// Its display name.
    pub name: String,
    /// The currency its players' wallets hold and every amount of its pools is in.
    pub currency: Currency,
    /// When it was created.
    pub created_at: OffsetDateTime,
}
