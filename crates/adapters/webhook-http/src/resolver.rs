//! Name resolution that refuses forbidden targets: used by the HTTP client for every
//! connection and by the registration check, so what was checked is what is connected to.

use std::net::SocketAddr;

use opinion_webhook::is_refused_target;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// Why a host may not be delivered to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ResolveRefusal {
    /// The name does not resolve.
    #[error("the host `{0}` does not resolve")]
    Unresolvable(String),
    /// The name resolves to an address the service never connects to here.
    #[error("the host `{0}` resolves to a forbidden address")]
    Forbidden(String),
}

/// Resolves `host` with the system resolver and checks every address.
pub(crate) async fn resolve_checked(host: &str, production: bool) -> Result<Vec<SocketAddr>, ResolveRefusal> {
    let addresses: Vec<SocketAddr> = tokio::net::lookup_host((host, 0))
        .await
        .map_err(|_| ResolveRefusal::Unresolvable(host.to_owned()))?
        .collect();
    if addresses.is_empty() {
        return Err(ResolveRefusal::Unresolvable(host.to_owned()));
    }
    if addresses
        .iter()
        .any(|address| is_refused_target(address.ip(), production))
    {
        return Err(ResolveRefusal::Forbidden(host.to_owned()));
    }
    Ok(addresses)
}

/// The HTTP client's resolver: a name is connected to only if every address it resolves
/// to is allowed (refusing the whole name, rather than filtering, leaves no room for a
/// name that mixes a public and a private address).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CheckedResolver {
    pub(crate) production: bool,
}

impl Resolve for CheckedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let production = self.production;
        Box::pin(async move {
            let addresses = resolve_checked(name.as_str(), production).await?;
            let addrs: Addrs = Box::new(addresses.into_iter());
            Ok(addrs)
        })
    }
}
