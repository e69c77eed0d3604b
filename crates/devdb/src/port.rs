//! Loopback TCP ports: clusters never use a fixed port, so parallel test processes and a
//! developer's own PostgreSQL never collide.

use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use crate::DevDbError;

/// Asks the kernel for a port that is free right now. It is released before the server binds it,
/// so the caller must cope with losing a race for it.
pub(crate) fn free_port() -> Result<u16, DevDbError> {
    let listener =
        TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(DevDbError::io("reserve a TCP port on 127.0.0.1"))?;
    let port = listener
        .local_addr()
        .map_err(DevDbError::io("read the reserved TCP port"))?
        .port();
    Ok(port)
}

/// Whether something accepts connections on `127.0.0.1:port`, to tell a live server from a stale pid file.
pub(crate) fn accepts_connections(port: u16) -> bool {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    TcpStream::connect_timeout(&address, Duration::from_secs(1)).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_port_is_free_and_a_bound_one_answers() {
        let port = free_port().unwrap();
        assert_ne!(port, 0);
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).unwrap();
        assert!(accepts_connections(port));
        drop(listener);
    }
}
