//! One request head read off a live-feed connection: read in small steps into a buffer
//! that goes once the head is parsed (`httparse`), keeping of it only what answering
//! needs.

use actix_web::http::header::HeaderValue;
use tokio::io::{AsyncRead, AsyncReadExt};

/// The largest head accepted, as a client's session token and a proxy's headers need.
pub const HEAD_LIMIT: usize = 8 * 1024;

/// The most headers a head may have.
const MAX_HEADERS: usize = 32;

/// How much more of the head is read at a time.
const READ_STEP: usize = 1024;

/// What answering a request needs of its head.
#[derive(Debug, PartialEq)]
pub struct RequestHead {
    /// The method, as sent.
    pub method: String,
    /// The target's path, without its query.
    pub path: String,
    /// `Authorization`, if sent.
    pub authorization: Option<HeaderValue>,
    /// `Host`, if sent and text.
    pub host: Option<String>,
    /// `X-Request-Id`, if sent.
    pub request_id: Option<HeaderValue>,
}

/// Why no head was read.
#[derive(Debug)]
pub enum HeadError {
    /// The client closed the connection, or it failed, before a whole head arrived.
    Gone,
    /// The bytes are not an HTTP/1.x request head.
    Malformed,
    /// The head is longer than [`HEAD_LIMIT`] or has more than 32 headers.
    TooLarge,
}

/// Reads one request head from `io`.
pub async fn read_head(io: &mut (impl AsyncRead + Unpin)) -> Result<RequestHead, HeadError> {
    let mut buffer = Vec::new();
    loop {
        let filled = buffer.len();
        if filled == HEAD_LIMIT {
            return Err(HeadError::TooLarge);
        }
        buffer.resize((filled + READ_STEP).min(HEAD_LIMIT), 0);
        let read = io.read(&mut buffer[filled..]).await.map_err(|_| HeadError::Gone)?;
        buffer.truncate(filled + read);
        if read == 0 {
            return Err(HeadError::Gone);
        }
        if let Some(head) = parse(&buffer)? {
            return Ok(head);
        }
    }
}

/// The head in `bytes`, or `None` while it is not whole yet.
fn parse(bytes: &[u8]) -> Result<Option<RequestHead>, HeadError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(bytes) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => return Err(HeadError::TooLarge),
        Err(_) => return Err(HeadError::Malformed),
    }
    let (Some(method), Some(target)) = (request.method, request.path) else {
        return Err(HeadError::Malformed);
    };
    let value = |name: &str| {
        request
            .headers
            .iter()
            .find(|header| header.name.eq_ignore_ascii_case(name))
            .map(|header| header.value)
    };
    let header = |name: &str| value(name).and_then(|bytes| HeaderValue::from_bytes(bytes).ok());
    Ok(Some(RequestHead {
        method: method.to_owned(),
        path: target.split('?').next().unwrap_or_default().to_owned(),
        authorization: header("authorization"),
        host: value("host")
            .and_then(|bytes| std::str::from_utf8(bytes).ok())
            .map(str::to_owned),
        request_id: header("x-request-id"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `bytes` as a client sending them in `pieces` would.
    async fn read_all(bytes: &[u8], pieces: usize) -> Result<RequestHead, HeadError> {
        let mut mock = in_pieces(bytes, pieces);
        read_head(&mut mock).await
    }

    /// A reader handing out `bytes` in `pieces` reads, then the end.
    fn in_pieces(bytes: &[u8], pieces: usize) -> impl AsyncRead + Unpin {
        let size = bytes.len().div_ceil(pieces.max(1)).max(1);
        let chunks: Vec<Vec<u8>> = bytes.chunks(size).map(<[u8]>::to_vec).collect();
        ChunkedReader { chunks, next: 0 }
    }

    struct ChunkedReader {
        chunks: Vec<Vec<u8>>,
        next: usize,
    }

    impl AsyncRead for ChunkedReader {
        fn poll_read(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            if let Some(chunk) = self.chunks.get(self.next) {
                let take = chunk.len().min(buf.remaining());
                buf.put_slice(&chunk[..take]);
                let rest = chunk[take..].to_vec();
                if rest.is_empty() {
                    self.next += 1;
                } else {
                    let next = self.next;
                    self.chunks[next] = rest;
                }
            }
            std::task::Poll::Ready(Ok(()))
        }
    }

    const HEAD: &[u8] = b"GET /api/player/flight/live?x=1 HTTP/1.1\r\nHost: play.example\r\n\
        Authorization: Bearer abc\r\nX-Request-Id: req-1\r\n\r\n";

    #[tokio::test]
    async fn a_head_sent_in_pieces_is_read_whole() {
        for pieces in [1, 3, 40] {
            let head = read_all(HEAD, pieces).await.expect("head");
            assert_eq!(head.method, "GET");
            assert_eq!(head.path, "/api/player/flight/live");
            assert_eq!(head.host.as_deref(), Some("play.example"));
            assert_eq!(head.authorization, Some(HeaderValue::from_static("Bearer abc")));
            assert_eq!(head.request_id, Some(HeaderValue::from_static("req-1")));
        }
    }

    #[tokio::test]
    async fn absent_headers_are_none() {
        let head = read_all(b"POST /x HTTP/1.0\r\n\r\n", 1).await.expect("head");
        assert_eq!((head.method.as_str(), head.path.as_str()), ("POST", "/x"));
        assert_eq!((head.authorization, head.host, head.request_id), (None, None, None));
    }

    #[tokio::test]
    async fn a_head_cut_short_is_gone() {
        assert!(matches!(read_all(&HEAD[..30], 2).await, Err(HeadError::Gone)));
        assert!(matches!(read_all(b"", 1).await, Err(HeadError::Gone)));
    }

    #[tokio::test]
    async fn bytes_that_are_not_http_are_malformed() {
        assert!(matches!(
            read_all(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 1).await,
            Err(HeadError::Malformed)
        ));
        assert!(matches!(
            read_all(b"GET /x HTTP/1.1\r\nBad Header\r\n\r\n", 1).await,
            Err(HeadError::Malformed)
        ));
    }

    #[tokio::test]
    async fn a_head_over_the_limit_or_with_too_many_headers_is_too_large() {
        let long = format!("GET /x HTTP/1.1\r\nCookie: {}\r\n\r\n", "a".repeat(HEAD_LIMIT));
        assert!(matches!(read_all(long.as_bytes(), 9).await, Err(HeadError::TooLarge)));
        let many: String = (0..=MAX_HEADERS).map(|i| format!("X-{i}: v\r\n")).collect();
        let many = format!("GET /x HTTP/1.1\r\n{many}\r\n");
        assert!(matches!(read_all(many.as_bytes(), 1).await, Err(HeadError::TooLarge)));
    }

    #[tokio::test]
    async fn a_head_of_exactly_the_limit_is_read() {
        let prefix = "GET /x HTTP/1.1\r\nCookie: ";
        let filler = "a".repeat(HEAD_LIMIT - prefix.len() - 4);
        let exact = format!("{prefix}{filler}\r\n\r\n");
        assert_eq!(exact.len(), HEAD_LIMIT);
        assert!(read_all(exact.as_bytes(), 5).await.is_ok());
    }
}
