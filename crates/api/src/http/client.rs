//! Who sent a request and where to: its address and user agent, recorded with an API
//! key's last use, and the host it named, which says whose launch host it arrived on.
//! The address is the connection's peer; `X-Forwarded-For` is believed only from
//! proxies the service is configured to trust (`OPINION_TRUSTED_PROXIES`), because any
//! client can write that header. The host is the request's own `Host` (a proxy in front
//! of the service passes it on); `X-Forwarded-Host` is not read.

use std::net::{IpAddr, SocketAddr};

use actix_web::HttpRequest;
use actix_web::http::header::{HOST, HeaderName, USER_AGENT};
use ipnet::IpNet;
use opinion_app::access::RequestClient;

/// The header proxies append the address they received a request from to.
const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

/// The proxies whose `X-Forwarded-For` the service believes: addresses or networks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Reads a comma-separated list of addresses (`10.0.0.7`) and networks
    /// (`10.0.0.0/8`, `fd00::/8`); empty trusts no proxy.
    pub fn parse(list: &str) -> Result<Self, String> {
        list.split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("`{entry}` is neither an IP address nor a network such as 10.0.0.0/8"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Self)
    }

    fn trusts(&self, address: IpAddr) -> bool {
        self.0.iter().any(|network| network.contains(&address))
    }

    /// The client's address: the peer, unless the peer is a trusted proxy; then the
    /// nearest address in `X-Forwarded-For` (read from the right, the end the trusted
    /// proxies wrote) that is not a trusted proxy. An entry that is not an address
    /// stops the walk at the last hop that could be believed.
    pub fn client_address(&self, peer: Option<IpAddr>, forwarded_for: &[&str]) -> Option<IpAddr> {
        let mut client = peer?.to_canonical();
        if !self.trusts(client) {
            return Some(client);
        }
        let hops = forwarded_for.iter().flat_map(|value| value.split(','));
        for hop in hops.collect::<Vec<_>>().into_iter().rev() {
            let Some(address) = forwarded_address(hop.trim()) else {
                return Some(client);
            };
            client = address;
            if !self.trusts(address) {
                break;
            }
        }
        Some(client)
    }
}

/// One `X-Forwarded-For` entry: an address, or an address with a port.
fn forwarded_address(entry: &str) -> Option<IpAddr> {
    entry
        .parse::<IpAddr>()
        .or_else(|_| entry.parse::<SocketAddr>().map(|socket| socket.ip()))
        .ok()
        .map(|address| address.to_canonical())
}

/// The client of `request`, as the API key use records it.
pub fn request_client(request: &HttpRequest, proxies: &TrustedProxies) -> RequestClient {
    let forwarded_for: Vec<&str> = request
        .headers()
        .get_all(X_FORWARDED_FOR)
        .filter_map(|value| value.to_str().ok())
        .collect();
    RequestClient {
        address: proxies.client_address(request.peer_addr().map(|peer| peer.ip()), &forwarded_for),
        user_agent: request
            .headers()
            .get(USER_AGENT)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned()),
    }
}

/// The host a request named: its `Host` header, or the authority of an absolute URI
/// (HTTP/2).
pub fn request_host(request: &HttpRequest) -> Option<&str> {
    request
        .headers()
        .get(HOST)
        .and_then(|value| value.to_str().ok())
        .or_else(|| request.uri().authority().map(|authority| authority.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("address")
    }

    #[test]
    fn without_trusted_proxies_the_peer_is_the_client_whatever_is_forwarded() {
        let none = TrustedProxies::default();
        assert_eq!(
            none.client_address(Some(ip("198.51.100.1")), &["203.0.113.9"]),
            Some(ip("198.51.100.1"))
        );
        assert_eq!(none.client_address(None, &["203.0.113.9"]), None);
    }

    #[test]
    fn a_trusted_proxys_forwarded_address_is_believed_and_a_spoofed_one_before_it_is_not() {
        let proxies = TrustedProxies::parse("10.0.0.0/8, 192.168.1.5").expect("list");
        let from_proxy = |forwarded: &[&str]| proxies.client_address(Some(ip("10.1.2.3")), forwarded);
        assert_eq!(from_proxy(&["203.0.113.9"]), Some(ip("203.0.113.9")));
        assert_eq!(
            from_proxy(&["6.6.6.6, 203.0.113.9"]),
            Some(ip("203.0.113.9")),
            "what the client wrote itself is left of the first untrusted hop"
        );
        assert_eq!(from_proxy(&["203.0.113.9", "192.168.1.5"]), Some(ip("203.0.113.9")));
        assert_eq!(
            from_proxy(&["10.9.9.9"]),
            Some(ip("10.9.9.9")),
            "only proxies: the farthest"
        );
        assert_eq!(from_proxy(&[]), Some(ip("10.1.2.3")));
        assert_eq!(from_proxy(&["garbage, 203.0.113.9"]), Some(ip("203.0.113.9")));
        assert_eq!(from_proxy(&["203.0.113.9, garbage"]), Some(ip("10.1.2.3")));
        assert_eq!(from_proxy(&["203.0.113.9:4711"]), Some(ip("203.0.113.9")));
        assert_eq!(from_proxy(&["[2001:db8::1]:4711"]), Some(ip("2001:db8::1")));
        assert_eq!(
            proxies.client_address(Some(ip("198.51.100.1")), &["203.0.113.9"]),
            Some(ip("198.51.100.1")),
            "an untrusted peer's header is ignored"
        );
    }

    #[test]
    fn ipv4_mapped_peers_are_read_as_ipv4() {
        let proxies = TrustedProxies::parse("127.0.0.1").expect("list");
        assert_eq!(
            proxies.client_address(Some(ip("::ffff:127.0.0.1")), &["203.0.113.9"]),
            Some(ip("203.0.113.9"))
        );
    }

    #[test]
    fn the_list_names_its_bad_entry() {
        assert_eq!(TrustedProxies::parse(""), Ok(TrustedProxies::default()));
        let error = TrustedProxies::parse("10.0.0.0/8, proxy.internal").expect_err("refused");
        assert!(error.contains("proxy.internal"), "{error}");
        assert!(TrustedProxies::parse("10.0.0.0/33").is_err());
    }
}
