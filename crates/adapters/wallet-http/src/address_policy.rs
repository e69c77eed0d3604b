//! Which addresses the client may call. In production an operator could point its
//! wallet adapter at the platform's own network or at the cloud metadata service; the
//! URL is checked when it is configured, but a host name can be re-pointed afterwards,
//! so the client checks again at every call: the URL's text, and every address its host
//! name resolves to, inside the connector, so it only ever connects to an address it
//! checked.

use std::error::Error;
use std::fmt;
use std::net::SocketAddr;

use opinion_webhook::{EndpointUrlError, check_endpoint_url, is_forbidden_target};
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// Which targets the gateway may call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressPolicy {
    /// Production: `https` only, and only public addresses (see
    /// `opinion_webhook::is_forbidden_target`), checked at every call.
    PublicOnly,
    /// Development, staging and tests: any address, `http` allowed.
    Any,
}

impl AddressPolicy {
    /// Checks a call's URL text before anything is sent.
    pub(crate) fn check_url(self, url: &str) -> Result<(), EndpointUrlError> {
        match self {
            Self::PublicOnly => check_endpoint_url(url, true),
            Self::Any => Ok(()),
        }
    }
}

/// A name that resolved to an address the policy forbids.
#[derive(Debug)]
struct ForbiddenResolution {
    name: String,
}

impl fmt::Display for ForbiddenResolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` resolves to a forbidden address", self.name)
    }
}

impl Error for ForbiddenResolution {}

/// The resolver of `PublicOnly` clients: the system resolver, refusing a name outright
/// when any of its addresses is forbidden (a name mixing public and private addresses is
/// a rebinding attempt, not a wallet).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PublicOnlyResolver;

impl Resolve for PublicOnlyResolver {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let addresses: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if addresses.iter().any(|address| is_forbidden_target(address.ip())) {
                tracing::warn!(host = %host, "refused a wallet adapter host resolving to a forbidden address");
                return Err(Box::new(ForbiddenResolution { name: host }) as Box<dyn Error + Send + Sync>);
            }
            Ok(Box::new(addresses.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_production_checks_the_url() {
        assert!(AddressPolicy::Any.check_url("http://127.0.0.1:9/v1/mutations").is_ok());
        assert_eq!(
            AddressPolicy::PublicOnly.check_url("http://wallet.example.com/v1/mutations"),
            Err(EndpointUrlError::SchemeNotAllowed("http".into()))
        );
        assert_eq!(
            AddressPolicy::PublicOnly.check_url("https://169.254.169.254/v1/mutations"),
            Err(EndpointUrlError::ForbiddenAddress)
        );
        assert!(
            AddressPolicy::PublicOnly
                .check_url("https://wallet.example.com/v1/mutations")
                .is_ok()
        );
    }

    #[tokio::test]
    async fn names_resolving_to_loopback_are_refused() {
        let resolved = PublicOnlyResolver.resolve("localhost".parse().expect("name")).await;
        let error = resolved.err().map(|error| error.to_string());
        assert_eq!(error.as_deref(), Some("`localhost` resolves to a forbidden address"));
    }
}
