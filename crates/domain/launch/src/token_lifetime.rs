//! How long a launch token can be exchanged for a player session. The hosted app
//! exchanges it as soon as its page loads, so the token only has to outlive a redirect
//! and a slow page load; any longer, a launch URL that leaks (a log, a shared link) opens
//! the player's session for someone else.

/// The default: the reference platform's 60 seconds, which covers a redirect and a slow
/// mobile page load with a wide margin.
pub const LAUNCH_TOKEN_TTL_DEFAULT_SECS: u32 = 60;

/// The shortest allowed: below it a slow network fails real launches.
pub const LAUNCH_TOKEN_TTL_MIN_SECS: u32 = 15;

/// The longest allowed: beyond ten minutes a launch URL is a standing credential.
pub const LAUNCH_TOKEN_TTL_MAX_SECS: u32 = 600;
