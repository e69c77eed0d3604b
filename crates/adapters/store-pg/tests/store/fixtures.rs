//! Records with fixed ids and times, and a store over a fresh database.

use opinion_access::{ApiKeyEnvironment, Grant, SecretHash, StaffEmail};
use opinion_app::access::ports::OperatorStore;
use opinion_app::model::{ApiKeyRecord, Operator, StaffMember, StaffSession};
use opinion_core::{ApiKeyId, OperatorId, StaffId, StaffSessionId};
use opinion_store_pg::{DataKey, PgStore};
use opinion_testkit::TestDatabase;
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

/// The instant every fixture is created at.
pub const T0: OffsetDateTime = datetime!(2026-11-22 10:00:00 UTC);

/// A PHC-shaped password hash (the schema refuses anything else).
pub const PASSWORD_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo";
/// Another one, for password resets.
pub const OTHER_PASSWORD_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$b3RoZXJoYXNo";

/// `T0` plus some seconds.
pub fn at(seconds: i64) -> OffsetDateTime {
    T0 + Duration::seconds(seconds)
}

/// A fresh migrated database (kept alive by the caller) and a store over it.
pub async fn store() -> (TestDatabase, PgStore) {
    let db = TestDatabase::create().await;
    let store = PgStore::connect(db.url(), 4)
        .await
        .expect("connect to the test database");
    (db, store)
}

/// A store over a fresh database that seals with the data key made of `[1; 32]`.
pub async fn keyed_store() -> (TestDatabase, PgStore) {
    let (db, store) = store().await;
    (db, store.with_data_key(DataKey::derive(&[1; 32]).expect("data key")))
}

pub fn operator_id(n: u128) -> OperatorId {
    OperatorId::from_u128(n)
}

pub fn operator(n: u128) -> Operator {
    Operator {
        id: operator_id(n),
        name: format!("Operator {n}"),
        currency: "USD".parse().expect("currency"),
        created_at: T0,
    }
}

/// The stored hash of key `n`: 64 lower-case hex digits, like a SHA-256.
pub fn key_hash(n: u128) -> SecretHash {
    SecretHash(format!("{n:064x}"))
}

pub fn key(operator: u128, n: u128) -> ApiKeyRecord {
    ApiKeyRecord {
        id: ApiKeyId::from_u128(n),
        operator_id: operator_id(operator),
        name: format!("key {n}"),
        grant: Grant::parse(&["users:read", "trades:read"]).expect("valid grant"),
        environment: ApiKeyEnvironment::Development,
        hint: format!("opk_dev_{n:04}…"),
        created_at: T0,
        expires_at: Some(at(86_400)),
        revoked_at: None,
        last_used_at: None,
        last_used_ip: None,
        last_used_user_agent: None,
    }
}

/// Creates operator `n` with its first key, whose id and hash are also numbered `n`.
pub async fn given_operator(store: &PgStore, n: u128) -> ApiKeyRecord {
    let first = key(n, n);
    store
        .insert_operator(&operator(n), &first, &key_hash(n))
        .await
        .expect("insert operator");
    first
}

pub fn member(operator: u128, n: u128) -> StaffMember {
    StaffMember {
        id: StaffId::from_u128(n),
        operator_id: operator_id(operator),
        email: StaffEmail::parse(&format!("staff{n}@operator{operator}.example")).expect("valid e-mail"),
        name: format!("Staff {n}"),
        grant: Grant::All,
        disabled: false,
        created_at: T0,
        updated_at: T0,
    }
}

pub fn session(operator: u128, staff: u128, n: u128) -> StaffSession {
    StaffSession {
        id: StaffSessionId::from_u128(n),
        operator_id: operator_id(operator),
        staff_id: StaffId::from_u128(staff),
        created_at: T0,
        expires_at: at(3_600),
        ended_at: None,
    }
}
