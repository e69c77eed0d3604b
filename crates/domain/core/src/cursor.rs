//! Opaque keyset cursors. A cursor names the last item of a page; the next page
//! starts strictly after it, so a deep page costs what the first one costs.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::id::{Id, IdKind};

const VERSION: &str = "v1";

/// Position in a list ordered by id, newest first. Opaque to clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor<K: IdKind> {
    after: Id<K>,
}

/// Why a client-supplied cursor was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the cursor is not one this list handed out")]
pub struct CursorError;

impl<K: IdKind> Cursor<K> {
    /// The cursor that continues after `last`.
    pub const fn after(last: Id<K>) -> Self {
        Self { after: last }
    }

    /// The id the next page starts after.
    pub const fn position(&self) -> Id<K> {
        self.after
    }

    /// The opaque text handed to clients.
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!("{VERSION}:{}", self.after))
    }

    /// Reads a cursor back; refuses cursors of another list or version.
    pub fn decode(text: &str) -> Result<Self, CursorError> {
        let raw = URL_SAFE_NO_PAD.decode(text).map_err(|_| CursorError)?;
        let raw = std::str::from_utf8(&raw).map_err(|_| CursorError)?;
        let id = raw
            .strip_prefix(VERSION)
            .and_then(|rest| rest.strip_prefix(':'))
            .ok_or(CursorError)?;
        id.parse().map(Self::after).map_err(|_| CursorError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::{ApiKeyId, ApiKeyKind, StaffKind};
    use proptest::prelude::*;

    #[test]
    fn refuses_garbage() {
        for text in ["", "!!", "dGVzdA", "djE6a2V5XzAw"] {
            assert_eq!(Cursor::<ApiKeyKind>::decode(text), Err(CursorError), "{text}");
        }
    }

    #[test]
    fn refuses_a_cursor_of_another_list() {
        let cursor = Cursor::after(ApiKeyId::from_u128(42)).encode();
        assert_eq!(Cursor::<StaffKind>::decode(&cursor), Err(CursorError));
    }

    proptest! {
        #[test]
        fn round_trips(value in any::<u128>()) {
            let cursor = Cursor::after(ApiKeyId::from_u128(value));
            prop_assert_eq!(Cursor::decode(&cursor.encode()), Ok(cursor));
        }
    }
}
