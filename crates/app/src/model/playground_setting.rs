//! An operator's playground console choice as stored.

use opinion_access::PlaygroundConsole;
use time::OffsetDateTime;

/// What the docs' playground console may send for the operator in production, and when
/// that was chosen (`None`: never, so the default, read-only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlaygroundSetting {
    /// The choice.
    pub console: PlaygroundConsole,
    /// When it was made.
    pub updated_at: Option<OffsetDateTime>,
}
