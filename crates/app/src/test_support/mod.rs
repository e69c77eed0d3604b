//! The use-case tests' kit: a clock stopped at `NOW`, a random source counting ids,
//! one operator, an `Access` over mockall mocks (here), and one set of trading mocks
//! with the trading and settlement records (`trading`, `settlement`).

pub mod flight;
pub mod flight_reads;
pub mod office;
pub mod office_proofs;
pub mod reads;
pub mod settlement;
pub mod simulator;
pub mod trading;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use opinion_access::{ApiKeyEnvironment, Grant};
use opinion_core::{ApiKeyId, OperatorId, StaffId, StaffSessionId};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};
use ulid::Ulid;

use crate::access::ports::{
    MockApiKeyStore, MockLoginAttemptStore, MockOperatorStore, MockSessionStore, MockStaffStore,
};
use crate::access::{Access, AccessPorts, AccessSettings, Actor, Principal, SessionTokens};
use crate::model::{ApiKeyRecord, StaffMember};
use crate::ports::{Clock, Random};

pub const NOW: OffsetDateTime = datetime!(2026-11-22 12:00 UTC);
pub const OPERATOR: OperatorId = OperatorId::from_u128(1);

/// A clock that always says `NOW`.
pub struct FixedClock;

impl Clock for FixedClock {
    fn now(&self) -> OffsetDateTime {
        NOW
    }
}

/// Ids counting up from a start, and the same secret bytes every time.
pub struct CountingRandom {
    next: AtomicU64,
    secret: [u8; 32],
}

impl Random for CountingRandom {
    fn ulid(&self) -> Ulid {
        Ulid(u128::from(self.next.fetch_add(1, Ordering::SeqCst)))
    }

    fn secret_bytes(&self) -> [u8; 32] {
        self.secret
    }
}

pub fn fixed_clock() -> Arc<dyn Clock> {
    Arc::new(FixedClock)
}

/// Ids `first`, `first + 1`, …; secrets `secret`.
pub fn counting_random(first: u64, secret: [u8; 32]) -> Arc<dyn Random> {
    Arc::new(CountingRandom {
        next: AtomicU64::new(first),
        secret,
    })
}

/// The mocks, to be given expectations before `build`.
#[derive(Default)]
pub struct Mocks {
    pub operators: MockOperatorStore,
    pub api_keys: MockApiKeyStore,
    pub staff: MockStaffStore,
    pub sessions: MockSessionStore,
    pub login_attempts: MockLoginAttemptStore,
}

impl Mocks {
    /// Lets every password attempt through the login throttle (and prunes nothing).
    pub fn admitting_attempts(mut self) -> Self {
        self.login_attempts
            .expect_admit_login_attempt()
            .returning(|_, _, _| Ok(None));
        self.login_attempts
            .expect_record_login_success()
            .returning(|_, _, _| Ok(()));
        self.login_attempts
            .expect_prune_login_attempts()
            .returning(|_, _| Ok(0));
        self
    }

    pub fn build(self) -> Access {
        self.build_in(ApiKeyEnvironment::Development)
    }

    /// The service as `environment` runs it.
    pub fn build_in(self, environment: ApiKeyEnvironment) -> Access {
        Access::new(
            AccessPorts {
                operators: Arc::new(self.operators),
                api_keys: Arc::new(self.api_keys),
                staff: Arc::new(self.staff),
                sessions: Arc::new(self.sessions),
                login_attempts: Arc::new(self.login_attempts),
                clock: fixed_clock(),
                random: counting_random(100, [42; 32]),
            },
            AccessSettings {
                environment,
                ..settings()
            },
        )
    }
}

pub fn settings() -> AccessSettings {
    AccessSettings {
        environment: ApiKeyEnvironment::Development,
        session_ttl: Duration::hours(8),
        session_tokens: SessionTokens::new(&[5; 32]).expect("codec"),
        login_throttle: opinion_access::LoginThrottle::default(),
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
        environment: ApiKeyEnvironment::Development,
        hint: "opk_dev_abcd…".into(),
        created_at: NOW - Duration::days(1),
        expires_at: None,
        revoked_at: None,
        last_used_at: None,
        last_used_ip: None,
        last_used_user_agent: None,
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
