//! The webhook transport over HTTP: one POST per attempt with the signature headers,
//! never following redirects, within a time limit, keeping at most the first bytes of the
//! answer. In production every address a host name resolves to is checked (loopback,
//! private, link-local and metadata addresses are refused) before connecting, and only
//! checked addresses are connected to; literal IP hosts are checked from the URL.

mod resolver;
mod retry_after;
mod transport;

pub use transport::{HttpWebhookTransport, TransportSettings};
