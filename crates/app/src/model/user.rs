//! An operator's player, as launched into the hosted app.

use opinion_core::{OperatorId, UserId};
use time::OffsetDateTime;

/// A player, known to the operator by its own `external_user_id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// Our id.
    pub id: UserId,
    /// The operator the player belongs to.
    pub operator_id: OperatorId,
    /// The operator's own identifier of the player; what its wallet knows.
    pub external_user_id: String,
    /// Name shown in the hosted app, if the operator gave one.
    pub display_name: Option<String>,
    /// Preferred language (BCP 47), if the operator gave one.
    pub language: Option<String>,
    /// First launch.
    pub created_at: OffsetDateTime,
    /// Latest launch.
    pub last_launched_at: OffsetDateTime,
}
