//! Binding a listening socket with an accept queue deep enough for a burst. The service
//! binds its listeners itself, to learn the port it got; the standard library's
//! `TcpListener::bind` asks for 128 places, and a connection that finds the queue full
//! waits a second or more for its SYN to be sent again.

use std::io;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};

use socket2::{Domain, Protocol, Socket, Type};

/// Connections the kernel keeps waiting to be accepted, per listener; Linux lowers it to
/// `net.core.somaxconn` (4096 by default).
const ACCEPT_QUEUE: i32 = 4096;

/// Binds `address` (port 0 picks a free one) as `TcpListener::bind` does, address
/// reuse included, with an accept queue of 4,096; the first address it resolves to that
/// binds wins.
pub fn bind_listener(address: impl ToSocketAddrs) -> io::Result<TcpListener> {
    let mut last_error = None;
    for address in address.to_socket_addrs()? {
        match bind_one(address) {
            Ok(listener) => return Ok(listener),
            Err(error) => last_error = Some(error),
        }
    }
    Err(last_error.unwrap_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the address resolved to nothing")))
}

/// Binds one resolved address.
fn bind_one(address: SocketAddr) -> io::Result<TcpListener> {
    let socket = Socket::new(Domain::for_address(address), Type::STREAM, Some(Protocol::TCP))?;
    socket.set_reuse_address(true)?;
    socket.bind(&address.into())?;
    socket.listen(ACCEPT_QUEUE)?;
    Ok(socket.into())
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_bound_listener_accepts_and_reports_its_free_port() {
        let listener = bind_listener(("127.0.0.1", 0)).expect("bound");
        let address = listener.local_addr().expect("address");
        assert_ne!(address.port(), 0);
        let mut client = TcpStream::connect(address).expect("connected");
        let (mut accepted, _) = listener.accept().expect("accepted");
        client.write_all(b"ping").expect("written");
        let mut read = [0_u8; 4];
        accepted.read_exact(&mut read).expect("read");
        assert_eq!(&read, b"ping");
    }

    #[test]
    fn more_connections_than_the_standard_queue_wait_unaccepted() {
        let listener = bind_listener(("127.0.0.1", 0)).expect("bound");
        let address = listener.local_addr().expect("address");
        let mut waiting = Vec::new();
        for _ in 0..300 {
            let connected = TcpStream::connect_timeout(&address, Duration::from_secs(1));
            waiting.push(connected.expect("connected while nothing accepts"));
        }
    }

    #[test]
    fn a_port_in_use_is_an_error() {
        let taken = bind_listener(("127.0.0.1", 0)).expect("bound");
        let port = taken.local_addr().expect("address").port();
        let error = bind_listener(("127.0.0.1", port)).expect_err("in use");
        assert_eq!(error.kind(), io::ErrorKind::AddrInUse);
    }
}
