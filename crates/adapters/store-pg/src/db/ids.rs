//! Ids as stored: a typed id's ULID is kept as a `uuid` with the same 128 bits.

use opinion_core::{Id, IdKind};
use time::OffsetDateTime;
use uuid::Uuid;

/// The stored form of a typed id: the ULID's 128 bits as a uuid.
pub(crate) fn uuid_of<K: IdKind>(id: Id<K>) -> Uuid {
    Uuid::from_u128(id.as_u128())
}

/// The smallest ULID made in the millisecond of `at` (ids are time-ordered), so a time
/// range becomes an id range a primary key serves.
pub(crate) fn first_ulid_at(at: OffsetDateTime) -> Uuid {
    let millis = u64::try_from(at.unix_timestamp_nanos() / 1_000_000).unwrap_or(0);
    Uuid::from_u128(ulid::Ulid::from_parts(millis, 0).0)
}

/// A typed id from its stored form.
pub(crate) fn id_of<K: IdKind>(value: Uuid) -> Id<K> {
    Id::from_u128(value.as_u128())
}

#[cfg(test)]
mod tests {
    use super::*;
    use opinion_core::ApiKeyId;

    #[test]
    fn ids_keep_their_bits() {
        let id = ApiKeyId::from_u128(u128::MAX - 7);
        assert_eq!(id_of::<opinion_core::ApiKeyKind>(uuid_of(id)), id);
    }
}
