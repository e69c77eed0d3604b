//! Fixtures for the use-case tests: an `Access` over mockall mocks with a fixed clock.

pub mod trading;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use opinion_access::{ApiKeyEnvironment, Grant};
use opinion_core::{ApiKeyId, OperatorId, StaffId, StaffSessionId};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};
use ulid::Ulid;

use crate::access::{Access, AccessPorts, AccessSettings, Actor, Principal, SessionTokens};
use crate::model::{ApiKeyRecord, StaffMember};
use crate::ports::{MockApiKeyStore, MockClock, MockOperatorStore, MockRandom, MockSessionStore, MockStaffStore};

pub const NOW: OffsetDateTime = datetime!(2026-11-22 12:00 UTC);
pub const OPERATOR: OperatorId = OperatorId::from_u128(1);

/// The mocks, to be given expectations before `build`.
#[derive(Default)]
pub struct Mocks {
    pub operators: MockOperatorStore,
    pub api_keys: MockApiKeyStore,
    pub staff: MockStaffStore,
    pub sessions: MockSessionStore,
}

impl Mocks {
    pub fn build(self) -> Access {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(NOW);
        let mut random = MockRandom::new();
        let counter = Arc::new(AtomicU64::new(100));
        random
            .expect_ulid()
            .returning(move || Ulid(u128::from(counter.fetch_add(1, Ordering::SeqCst))));
        random.expect_secret_bytes().return_const([42u8; 32]);
        Access::new(
            AccessPorts {
                operators: Arc::new(self.operators),
                api_keys: Arc::new(self.api_keys),
                staff: Arc::new(self.staff),
                sessions: Arc::new(self.sessions),
                clock: Arc::new(clock),
                random: Arc::new(random),
            },
            settings(),
        )
    }
}

pub fn settings() -> AccessSettings {
    AccessSettings {
        environment: ApiKeyEnvironment::Development,
        session_ttl: Duration::hours(8),
        session_tokens: SessionTokens::new(&[5; 32]).expect("codec"),
    }
}

pub fn grant(scopes: &[&str]) -> Grant {
    Grant::parse(scopes).expect("valid grant")
}

pub fn key_record(grant: Grant) -> ApiKeyRecord {
    ApiKeyRecord {
        id: ApiKeyId::from_u128(7),
        operator_id: OPERATOR,
        name: "reporting".into(),
        grant,
        hint: "opk_dev_abcd…".into(),
        created_at: NOW - Duration::days(1),
        expires_at: None,
        revoked_at: None,
        last_used_at: None,
    }
}

pub fn member(id: u128, grant: Grant) -> StaffMember {
    StaffMember {
        id: StaffId::from_u128(id),
        operator_id: OPERATOR,
        email: opinion_access::StaffEmail::parse(&format!("m{id}@example.com")).expect("email"),
        name: format!("Member {id}"),
        grant,
        disabled: false,
        created_at: NOW - Duration::days(1),
        updated_at: NOW - Duration::days(1),
    }
}

pub fn api_key_caller(grant: Grant) -> Principal {
    Principal {
        operator_id: OPERATOR,
        grant,
        actor: Actor::ApiKey(ApiKeyId::from_u128(7)),
    }
}

pub fn staff_caller(grant: Grant) -> Principal {
    Principal {
        operator_id: OPERATOR,
        grant,
        actor: Actor::Staff {
            staff_id: StaffId::from_u128(1),
            session_id: StaffSessionId::from_u128(2),
        },
    }
}
