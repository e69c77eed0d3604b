//! Where the service may send a webhook. An operator chooses the URL, so without these
//! checks an endpoint could point deliveries at the service's own network or at the
//! cloud metadata service. Name resolution is I/O and lives in the adapter: it calls
//! [`is_refused_target`] for every resolved address, at registration and again at every
//! delivery (a name can be re-pointed after registration), and connects only to an
//! address it checked. [`check_endpoint_url`] is the cheap check of the URL text itself.
//!
//! Outside production, operators' engineers test against receivers on their own machine
//! or network, so there [`is_refused_target`] refuses only the cloud metadata service
//! (never a webhook receiver anywhere) and `http` is allowed; production refuses every
//! address [`is_forbidden_target`] names and requires `https`.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use url::{Host, Url};

/// The cloud metadata service's IPv4 address (AWS, GCP, Azure, and others).
pub const METADATA_V4: Ipv4Addr = Ipv4Addr::new(169, 254, 169, 254);
/// The AWS metadata service's IPv6 address.
pub const METADATA_V6: Ipv6Addr = Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254);
/// Longest endpoint URL accepted, in bytes.
pub const MAX_URL_LEN: usize = 2048;

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip == METADATA_V4
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || a == 0
        || a >= 240
        || (a == 100 && (64..128).contains(&b))
}

fn forbidden_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return forbidden_v4(v4);
    }
    let segments = ip.segments();
    let [.., a, b, c, d] = ip.octets();
    if segments[..6] == [0x0064, 0xff9b, 0, 0, 0, 0] {
        return forbidden_v4(Ipv4Addr::new(a, b, c, d));
    }
    let first = segments[0];
    ip == METADATA_V6
        || ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (first & 0xffc0) == 0xfe80
        || (first & 0xfe00) == 0xfc00
        || segments[..6] == [0; 6]
}

/// Whether the service must not connect to this address: loopback, private (10/8,
/// 172.16/12, 192.168/16), link-local (169.254/16, fe80::/10), unique-local (fc00::/7),
/// unspecified, broadcast, "this network" 0/8, reserved 240/4, carrier-grade NAT
/// 100.64/10, multicast, the metadata addresses 169.254.169.254 and fd00:ec2::254, and
/// any IPv6 form carrying such an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, the
/// deprecated IPv4-compatible `::a.b.c.d`, all refused outright, and NAT64 `64:ff9b::/96`).
pub fn is_forbidden_target(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
    }
}

/// Whether `ip` is the cloud metadata service, in any of its IPv4 or IPv6 spellings.
fn is_metadata(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4 == METADATA_V4,
        IpAddr::V6(v6) => {
            let [.., a, b, c, d] = v6.octets();
            let embedded = Ipv4Addr::new(a, b, c, d);
            let segments = v6.segments();
            v6 == METADATA_V6
                || v6.to_ipv4_mapped() == Some(METADATA_V4)
                || ((segments[..6] == [0x0064, 0xff9b, 0, 0, 0, 0] || segments[..6] == [0; 6])
                    && embedded == METADATA_V4)
        }
    }
}

/// Whether the service refuses to connect to `ip` in this environment: in production
/// every [`is_forbidden_target`] address, elsewhere only the metadata service.
pub fn is_refused_target(ip: IpAddr, production: bool) -> bool {
    if production {
        is_forbidden_target(ip)
    } else {
        is_metadata(ip)
    }
}

/// Why an endpoint URL is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EndpointUrlError {
    /// Longer than [`MAX_URL_LEN`] bytes.
    #[error("the endpoint URL is longer than {MAX_URL_LEN} bytes")]
    TooLong,
    /// Not an absolute URL with a host.
    #[error("the endpoint URL is not a valid absolute URL with a host")]
    Unparsable,
    /// Not `https` (in production), or neither `https` nor `http` (elsewhere): signed
    /// bodies must not travel in the clear where real money is involved.
    #[error("the endpoint URL scheme `{0}` is not allowed")]
    SchemeNotAllowed(String),
    /// Carries `user:password@`: credentials would be stored and logged with the URL.
    #[error("the endpoint URL must not carry a user name or password")]
    UserInfo,
    /// The host is a literal IP address the service must not reach.
    #[error("the endpoint URL points at a forbidden address")]
    ForbiddenAddress,
}

/// Checks an endpoint URL's text: at most [`MAX_URL_LEN`] bytes, absolute, scheme `https`
/// (or `http` when `production` is false, for local receivers in development and
/// staging), no user info, a host, and, when the host is a literal IP address, one that
/// [`is_refused_target`] allows in this environment. Host names are not resolved here.
pub fn check_endpoint_url(url: &str, production: bool) -> Result<(), EndpointUrlError> {
    if url.len() > MAX_URL_LEN {
        return Err(EndpointUrlError::TooLong);
    }
    let parsed = Url::parse(url).map_err(|_| EndpointUrlError::Unparsable)?;
    let scheme_ok = match parsed.scheme() {
        "https" => true,
        "http" => !production,
        _ => false,
    };
    if !scheme_ok {
        return Err(EndpointUrlError::SchemeNotAllowed(parsed.scheme().to_owned()));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(EndpointUrlError::UserInfo);
    }
    let ip = match parsed.host() {
        None => return Err(EndpointUrlError::Unparsable),
        Some(Host::Domain(_)) => None,
        Some(Host::Ipv4(v4)) => Some(IpAddr::V4(v4)),
        Some(Host::Ipv6(v6)) => Some(IpAddr::V6(v6)),
    };
    if ip.is_some_and(|ip| is_refused_target(ip, production)) {
        return Err(EndpointUrlError::ForbiddenAddress);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        match text.parse() {
            Ok(ip) => ip,
            Err(error) => panic!("{text}: {error}"),
        }
    }

    #[test]
    fn address_table() {
        let table = [
            ("127.0.0.1", true),
            ("127.255.255.254", true),
            ("10.0.0.1", true),
            ("10.255.255.255", true),
            ("172.16.0.1", true),
            ("172.31.255.255", true),
            ("172.15.255.255", false),
            ("172.32.0.0", false),
            ("192.168.1.1", true),
            ("192.169.0.1", false),
            ("169.254.0.1", true),
            ("169.254.169.254", true),
            ("0.0.0.0", true),
            ("0.1.2.3", true),
            ("255.255.255.255", true),
            ("240.0.0.1", true),
            ("100.64.0.1", true),
            ("100.127.255.255", true),
            ("100.63.255.255", false),
            ("100.128.0.0", false),
            ("224.0.0.1", true),
            ("239.255.255.255", true),
            ("8.8.8.8", false),
            ("93.184.216.34", false),
            ("1.1.1.1", false),
            ("::1", true),
            ("::", true),
            ("fe80::1", true),
            ("febf::1", true),
            ("fec0::1", false),
            ("fc00::1", true),
            ("fd12:3456::1", true),
            ("fd00:ec2::254", true),
            ("ff02::1", true),
            ("2001:4860:4860::8888", false),
            ("2606:4700:4700::1111", false),
            ("::ffff:127.0.0.1", true),
            ("::ffff:10.1.2.3", true),
            ("::ffff:172.16.0.1", true),
            ("::ffff:192.168.0.1", true),
            ("::ffff:169.254.169.254", true),
            ("::ffff:100.64.0.1", true),
            ("::ffff:0.0.0.0", true),
            ("::ffff:224.0.0.1", true),
            ("::ffff:255.255.255.255", true),
            ("::ffff:8.8.8.8", false),
            ("::127.0.0.1", true),
            ("::8.8.8.8", true),
            ("64:ff9b::a9fe:a9fe", true),
            ("64:ff9b::10.0.0.1", true),
            ("64:ff9b::8.8.8.8", false),
        ];
        for (text, forbidden) in table {
            assert_eq!(is_forbidden_target(ip(text)), forbidden, "{text}");
        }
    }

    #[test]
    fn metadata_constants_are_the_documented_addresses() {
        assert_eq!(IpAddr::V4(METADATA_V4), ip("169.254.169.254"));
        assert_eq!(IpAddr::V6(METADATA_V6), ip("fd00:ec2::254"));
    }

    #[test]
    fn url_table() {
        use EndpointUrlError::*;
        let long = format!("https://example.com/{}", "a".repeat(MAX_URL_LEN));
        let table: [(&str, bool, Result<(), EndpointUrlError>); 17] = [
            ("https://hooks.example.com/opinion", true, Ok(())),
            ("https://hooks.example.com:8443/a?b=c", true, Ok(())),
            ("https://93.184.216.34/hook", true, Ok(())),
            (
                "http://hooks.example.com/opinion",
                true,
                Err(SchemeNotAllowed("http".into())),
            ),
            ("http://hooks.example.com/opinion", false, Ok(())),
            ("ftp://hooks.example.com/", false, Err(SchemeNotAllowed("ftp".into()))),
            ("file:///etc/passwd", false, Err(SchemeNotAllowed("file".into()))),
            ("https://user@hooks.example.com/", true, Err(UserInfo)),
            ("https://user:pw@hooks.example.com/", true, Err(UserInfo)),
            ("https://:pw@hooks.example.com/", true, Err(UserInfo)),
            ("hooks.example.com/opinion", true, Err(Unparsable)),
            ("https://", true, Err(Unparsable)),
            ("https://127.0.0.1/hook", true, Err(ForbiddenAddress)),
            ("https://0x7f.1/hook", true, Err(ForbiddenAddress)),
            ("https://[::ffff:169.254.169.254]/", true, Err(ForbiddenAddress)),
            ("http://[fd00:ec2::254]/latest/meta-data", false, Err(ForbiddenAddress)),
            (&long, true, Err(TooLong)),
        ];
        for (url, production, expected) in table {
            assert_eq!(check_endpoint_url(url, production), expected, "{url}");
        }
    }

    #[test]
    fn outside_production_only_the_metadata_service_is_refused() {
        for text in ["127.0.0.1", "10.0.0.1", "192.168.1.1", "::1", "fd12::1", "8.8.8.8"] {
            assert!(!is_refused_target(ip(text), false), "{text}");
            assert_eq!(
                is_refused_target(ip(text), true),
                is_forbidden_target(ip(text)),
                "{text}"
            );
        }
        for text in [
            "169.254.169.254",
            "fd00:ec2::254",
            "::ffff:169.254.169.254",
            "::169.254.169.254",
            "64:ff9b::a9fe:a9fe",
        ] {
            assert!(is_refused_target(ip(text), false), "{text}");
            assert!(is_refused_target(ip(text), true), "{text}");
        }
        assert_eq!(check_endpoint_url("http://127.0.0.1:8080/hook", false), Ok(()));
        assert_eq!(check_endpoint_url("http://[::1]:8080/hook", false), Ok(()));
        assert_eq!(
            check_endpoint_url("https://127.0.0.1:8080/hook", true),
            Err(EndpointUrlError::ForbiddenAddress)
        );
        assert_eq!(
            check_endpoint_url("http://169.254.169.254/latest", false),
            Err(EndpointUrlError::ForbiddenAddress)
        );
    }

    #[test]
    fn url_at_the_length_limit_is_accepted() {
        let prefix = "https://example.com/";
        let url = format!("{prefix}{}", "a".repeat(MAX_URL_LEN - prefix.len()));
        assert_eq!(check_endpoint_url(&url, true), Ok(()));
    }
}
