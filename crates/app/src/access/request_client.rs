//! Who is on the other end of a request, as far as the HTTP edge can tell: recorded
//! with an API key's last use so an operator can spot a key used from somewhere
//! unexpected.

use std::net::IpAddr;

/// The client of an authenticated request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestClient {
    /// The client's address: the connection's peer, or what a trusted proxy forwarded.
    pub address: Option<IpAddr>,
    /// The `User-Agent` header as sent, if any; bounded before it is stored.
    pub user_agent: Option<String>,
}
