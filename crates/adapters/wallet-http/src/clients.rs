//! The reqwest clients the gateway calls through. A connect time-out is a client
//! setting, and each target has its own time-out, so there is one client (with its
//! connection pool) per connect time-out, made on first use. Connecting may take half of
//! the target's time-out and at most [`MAX_CONNECT`], in steps of 100 ms (so there are
//! at most 50 clients): it must end strictly before the whole call's time-out, or a
//! connection that was never made would be reported as a time-out after sending.
//!
//! Every client follows no redirect (a redirect could send the signed body to an address
//! nobody checked), uses no proxy from the environment (the address checks must see the
//! real target), and in production resolves names through `PublicOnlyResolver`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use reqwest::Client;
use reqwest::redirect::Policy;

use crate::address_policy::{AddressPolicy, PublicOnlyResolver};

/// The longest a connection (resolution, TCP and TLS) may take to establish.
pub(crate) const MAX_CONNECT: Duration = Duration::from_secs(5);
/// Connect time-outs are multiples of this.
const CONNECT_STEP_MILLIS: u128 = 100;
/// Sent as `User-Agent`, so operators can tell our calls apart in their logs.
const USER_AGENT: &str = concat!("opinion-wallet-client/", env!("CARGO_PKG_VERSION"));

/// Clients by connect time-out.
pub(crate) struct Clients {
    policy: AddressPolicy,
    by_connect_timeout: Mutex<HashMap<Duration, Client>>,
}

impl Clients {
    /// No clients yet; they are made as targets need them.
    pub(crate) fn new(policy: AddressPolicy) -> Self {
        Self {
            policy,
            by_connect_timeout: Mutex::new(HashMap::new()),
        }
    }

    /// The client for calls that may take `timeout` in all.
    pub(crate) fn for_timeout(&self, timeout: Duration) -> Result<Client, reqwest::Error> {
        let connect = connect_timeout(timeout);
        let mut clients = self.by_connect_timeout.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(client) = clients.get(&connect) {
            return Ok(client.clone());
        }
        let client = build(connect, self.policy)?;
        clients.insert(connect, client.clone());
        Ok(client)
    }
}

/// Half of `timeout`, at most [`MAX_CONNECT`], rounded down to 100 ms, at least 100 ms.
pub(crate) fn connect_timeout(timeout: Duration) -> Duration {
    let half = (timeout / 2).min(MAX_CONNECT).as_millis();
    let steps = (half / CONNECT_STEP_MILLIS).max(1);
    Duration::from_millis(u64::try_from(steps * CONNECT_STEP_MILLIS).unwrap_or(u64::MAX))
}

fn build(connect_timeout: Duration, policy: AddressPolicy) -> Result<Client, reqwest::Error> {
    let builder = Client::builder()
        .redirect(Policy::none())
        .no_proxy()
        .connect_timeout(connect_timeout)
        .user_agent(USER_AGENT);
    match policy {
        AddressPolicy::PublicOnly => builder.dns_resolver(Arc::new(PublicOnlyResolver)).build(),
        AddressPolicy::Any => builder.build(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connecting_takes_half_the_time_out_at_most_five_seconds() {
        let rows = [
            (10_000, 5_000),
            (30_000, 5_000),
            (1_000, 500),
            (1_150, 500),
            (1_300, 600),
            (50, 100),
        ];
        for (timeout, connect) in rows {
            assert_eq!(
                connect_timeout(Duration::from_millis(timeout)),
                Duration::from_millis(connect),
                "{timeout}"
            );
        }
    }

    #[test]
    fn one_client_per_connect_time_out() {
        let clients = Clients::new(AddressPolicy::Any);
        for timeout in [10_000, 20_000, 1_000, 1_050] {
            clients.for_timeout(Duration::from_millis(timeout)).expect("client");
        }
        let made = clients
            .by_connect_timeout
            .lock()
            .map(|map| map.len())
            .unwrap_or_default();
        assert_eq!(made, 2);
    }
}
