//! The exchange rates adapter: implements the app's `ExchangeRates` port by taking one
//! quote from a public HTTPS JSON ticker, for the comparison-only evidence a flight
//! statement freezes. It never fails: whatever goes wrong (not configured, unreachable,
//! slow, not 200, too large, not JSON, no price, a price that is no positive decimal)
//! becomes `Unavailable` evidence that says why.
//!
//! | concern | file |
//! |---|---|
//! | a ticker: URL, pair, JSON pointer to the price, time limit, size limit; presets | `source.rs` |
//! | reading the price out of the answer | `price.rs` |
//! | the port over reqwest: one GET, the raw answer kept and hashed | `client.rs` |
//! | the port when no exchange is configured | `disabled.rs` |
//! | the configuration: a preset, a custom ticker or none | `settings.rs` |

mod client;
mod disabled;
mod price;
mod settings;
mod source;

pub use client::HttpExchangeRates;
pub use disabled::NoExchangeRates;
pub use settings::{ExchangeSettings, ExchangeSettingsError};
pub use source::{DEFAULT_MAX_ANSWER_BYTES, DEFAULT_TIMEOUT, Preset, TickerSource, TickerSourceError, UnknownPreset};
