//! Name resolution that refuses forbidden targets: used by the HTTP client for every
//! connection and by the registration check, so what was checked is what is connected to.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

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

/// How long a name may take to resolve: the registration check has no other time limit,
/// and a delivery's resolution must leave its attempt time to connect.
pub(crate) const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

/// Resolves `host` with the system resolver and checks every address.
pub(crate) async fn resolve_checked(host: &str, production: bool) -> Result<Vec<SocketAddr>, ResolveRefusal> {
    let addresses = within_resolve_time(host, tokio::net::lookup_host((host, 0))).await?;
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

/// The addresses `lookup` finds for `host`; an error, or no answer within
/// `RESOLVE_TIMEOUT`, is a name that does not resolve.
async fn within_resolve_time<I: Iterator<Item = SocketAddr>>(
    host: &str,
    lookup: impl Future<Output = io::Result<I>>,
) -> Result<Vec<SocketAddr>, ResolveRefusal> {
    match tokio::time::timeout(RESOLVE_TIMEOUT, lookup).await {
        Ok(Ok(addresses)) => Ok(addresses.collect()),
        Ok(Err(_)) | Err(_) => Err(ResolveRefusal::Unresolvable(host.to_owned())),
    }
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

#[cfg(test)]
mod tests {
    use std::future::pending;

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_name_that_does_not_answer_within_the_limit_does_not_resolve() {
        let started = tokio::time::Instant::now();
        let silent = pending::<io::Result<std::vec::IntoIter<SocketAddr>>>();
        let refusal = within_resolve_time("slow.example", silent).await;
        assert_eq!(refusal, Err(ResolveRefusal::Unresolvable("slow.example".into())));
        assert_eq!(started.elapsed(), RESOLVE_TIMEOUT);
    }

    #[tokio::test]
    async fn addresses_found_in_time_are_returned() {
        let address: SocketAddr = "192.0.2.1:0".parse().unwrap();
        let found = async { Ok(vec![address].into_iter()) };
        assert_eq!(within_resolve_time("fast.example", found).await, Ok(vec![address]));
    }
}
