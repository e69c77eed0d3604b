//! What the HTTP adapter observed of one wallet call, before any interpretation. The
//! adapter's only duty is to tell these four apart honestly; `classification.rs` decides
//! what they mean.

/// The raw outcome of one attempt to call the operator's wallet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportOutcome<'a> {
    /// Provably no byte of the request reached the network: name resolution failed, the
    /// connection was refused or timed out while connecting, or the TLS handshake failed.
    /// The wallet cannot have received the mutation.
    NotSent,
    /// The request was (or may have been) written, and no complete answer came in time.
    TimedOut,
    /// The connection broke after the request was (or may have been) written.
    ConnectionLostAfterSend,
    /// A complete HTTP answer arrived.
    Answered {
        /// The HTTP status code.
        status: u16,
        /// The answer's body, as received.
        body: &'a [u8],
    },
}
