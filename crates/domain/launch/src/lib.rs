//! The rules of launching a player into the hosted app: the host names an operator's
//! players open it on and the origins allowed to frame it, the locale and the opaque
//! metadata a launch carries, how long a launch token lives, and the operator's brand in
//! the hosted app. Pure: no I/O.

#![warn(missing_docs)]

mod branding;
mod dns_name;
mod frame_origin;
mod launch_host;
mod locale;
mod metadata;
mod settings;
mod token_lifetime;

pub use branding::{BrandColor, BrandName, Branding, BrandingError, Language, LogoUrl};
pub use frame_origin::{FrameOrigin, FrameOriginError};
pub use launch_host::{LaunchHost, LaunchHostError};
pub use locale::{Locale, LocaleError};
pub use metadata::{LaunchMetadata, MetadataError};
pub use settings::{FrameOrigins, LaunchHosts, ListError};
pub use token_lifetime::{LAUNCH_TOKEN_TTL_DEFAULT_SECS, LAUNCH_TOKEN_TTL_MAX_SECS, LAUNCH_TOKEN_TTL_MIN_SECS};
