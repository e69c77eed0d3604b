//! An operator's brand in the hosted app, as stored.

use opinion_core::OperatorId;
use opinion_launch::Branding;
use time::OffsetDateTime;

/// The brand an operator's players see; the platform's own before the operator sets one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorBranding {
    pub operator_id: OperatorId,
    /// Name, logo, colours and default language.
    pub branding: Branding,
    /// When it was last replaced; `None` before the first time.
    pub updated_at: Option<OffsetDateTime>,
}

impl OperatorBranding {
    /// The brand of an operator that never set one.
    pub fn unset(operator_id: OperatorId) -> Self {
        Self {
            operator_id,
            branding: Branding::default(),
            updated_at: None,
        }
    }
}
