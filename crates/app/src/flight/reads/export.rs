//! Exports as a walk over keyset pages: each call of `next_chunk` reads one page of at
//! most `EXPORT_CHUNK` items after the last one handed out, so whatever the size of the
//! result only one chunk is held at a time, and each chunk costs what the first costs.

use std::future::Future;
use std::pin::Pin;

use opinion_core::{IdKind, Page, PageLimit, PageRequest};

use crate::error::AppError;

/// Items read per chunk: the largest page a list hands out.
pub const EXPORT_CHUNK: u16 = PageLimit::MAX;

fn chunk() -> PageLimit {
    PageLimit::new(u32::from(EXPORT_CHUNK)).unwrap_or_default()
}

type ChunkFuture<T, K> = Pin<Box<dyn Future<Output = Result<Page<T, K>, AppError>> + Send>>;
type ReadChunk<T, K> = Box<dyn FnMut(PageRequest<K>) -> ChunkFuture<T, K> + Send>;

/// An export in progress: hands out the result chunk by chunk, newest first.
pub struct Export<T, K: IdKind> {
    read: ReadChunk<T, K>,
    next: Option<PageRequest<K>>,
}

impl<T, K: IdKind> Export<T, K> {
    /// An export whose chunks `read` reads, page by page from the first.
    pub(crate) fn new(read: ReadChunk<T, K>) -> Self {
        Self {
            read,
            next: Some(PageRequest {
                limit: chunk(),
                after: None,
            }),
        }
    }

    /// The next chunk; `None` once the last one was handed out.
    pub async fn next_chunk(&mut self) -> Result<Option<Vec<T>>, AppError> {
        let Some(request) = self.next.take() else {
            return Ok(None);
        };
        let page = (self.read)(request).await?;
        self.next = page.next.map(|after| PageRequest {
            limit: chunk(),
            after: Some(after),
        });
        Ok(Some(page.items))
    }
}
