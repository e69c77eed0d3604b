//! The flight store: chains and their sealed terminal seeds, flights, tickets, whole
//! steps of the game, the money worker's claims, enablement, production authorizations
//! and terms, and the driver lock. Records are built here with fixed ids; the rules that make them are the app's.

mod chains;
mod change;
mod driver_lock;
mod held_tickets_migration;
mod money;
mod office_corrections;
mod office_keys;
mod office_payments;
mod office_reports;
mod production_authorizations;
mod published;
mod reads;
mod settings;
mod tickets;

use std::collections::BTreeMap;

use diesel::QueryableByName;
use diesel::sql_types::BigInt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::model::{ChainRecord, Enablement, FlightRecord, TermsRecord, TicketRecord};
use opinion_app::flight::ports::{FlightStore, NewTicket};
use opinion_app::model::{Launch, NewEvent, User, WalletOperationRecord};
use opinion_app::opinion::trading::ports::NewOperation;
use opinion_app::players::ports::PlayerStore;
use opinion_core::{
    EventId, FlightChainId, FlightId, FlightTermsId, LaunchId, OperatorId, TicketId, UserId, WalletOperationId,
};
use opinion_flight::{
    AuthorizationRequirement, ChainLength, FlightPhase, Multiplier, Rupiah, Salt, Seed, SettlementPeriod, ShareBps,
    Terms, TermsVersion, TicketLimits, TicketStatus, commitment,
};
use opinion_store_pg::{DataKey, PgStore};
use opinion_testkit::TestDatabase;
use opinion_wallet::{Currency, IdempotencyKey, OperationState, ReasonKey, RequestFingerprint, WalletFlow};
use opinion_webhook::EventType;
use serde_json::json;

use crate::fixtures::*;

pub const CHAIN: FlightChainId = FlightChainId::from_u128(900);
pub const TERMS: FlightTermsId = FlightTermsId::from_u128(800);

/// The terminal seed of the test chain.
pub fn terminal() -> Seed {
    Seed::from_bytes([7; 32])
}

/// A fresh database and a store with a data key.
pub async fn flight_store() -> (TestDatabase, PgStore) {
    let (db, store) = store().await;
    let key = DataKey::derive(&[42; 32]).expect("data key");
    (db, store.with_data_key(key))
}

/// Player `n` of operator `operator`.
pub fn user_id(operator: u128, n: u128) -> UserId {
    UserId::from_u128(operator * 1_000 + n)
}

/// Creates operator `operator` with players `1..=players` and its terms.
pub async fn given_operator_with_players(store: &PgStore, operator: u128, players: u128) {
    given_operator(store, operator).await;
    for n in 1..=players {
        let user = User {
            id: user_id(operator, n),
            operator_id: operator_id(operator),
            external_user_id: format!("player-{n}"),
            display_name: None,
            language: None,
            created_at: T0,
            last_launched_at: T0,
        };
        let launch = Launch {
            id: LaunchId::from_u128(operator * 1_000 + n),
            operator_id: operator_id(operator),
            user_id: user.id,
            return_url: None,
            locale: None,
            metadata: None,
            product: opinion_wallet::Product::Flight,
            created_at: T0,
            expires_at: at(300),
        };
        store.record_launch(&user, &launch).await.expect("launch");
    }
    store.add_terms(&terms(operator)).await.expect("terms");
}

/// Flight enabled for operator `operator` by staff at `T0`.
pub fn enablement(operator: u128) -> Enablement {
    Enablement {
        operator_id: operator_id(operator),
        enabled: true,
        changed_at: T0,
        changed_by: "staff@platform.example".into(),
    }
}

pub fn terms(operator: u128) -> TermsRecord {
    let limits = TicketLimits::new(rupiah(1_000), rupiah(1_000_000), rupiah(100_000_000), 2).expect("limits");
    let share = ShareBps::new(1_500).expect("share");
    TermsRecord {
        operator_id: operator_id(operator),
        version: TermsVersion {
            id: TERMS,
            effective_from: T0,
            terms: Terms::new(share, limits, SettlementPeriod::CalendarMonth, 15).expect("terms"),
        },
        created_at: T0,
        created_by: "staff@platform.example".into(),
        cancelled: None,
    }
}

pub fn rupiah(value: i64) -> Rupiah {
    Rupiah::new(value).expect("rupiah")
}

pub fn chain() -> ChainRecord {
    let length = ChainLength::new(10).expect("length");
    ChainRecord {
        id: CHAIN,
        length,
        salt: Salt::new(format!("opinion-flight:{CHAIN}")).expect("salt"),
        commitment: commitment(&terminal(), length),
        created_at: T0,
    }
}

/// Flight `number` of the test chain, boarding at `at(number * 60)`.
pub fn flight(number: u32) -> FlightRecord {
    let chain = chain();
    let boarding_at = at(i64::from(number) * 60);
    FlightRecord {
        id: FlightId::from_u128(u128::from(number)),
        chain_id: chain.id,
        number,
        phase: FlightPhase::Boarding,
        crash: Multiplier::from_hundredths(346),
        boarding_at,
        take_off_at: boarding_at + time::Duration::seconds(5),
        crash_at: boarding_at + time::Duration::seconds(26),
        revealed_seed: None,
        crashed_at: None,
        cancelled_at: None,
        settled_at: None,
        salt: chain.salt,
        commitment: chain.commitment,
        chain_length: chain.length,
    }
}

/// Stores the chain and opens flight `number` of it.
pub async fn given_flight(store: &PgStore, number: u32) -> FlightRecord {
    if store.current_chain().await.expect("chain").is_none() {
        store.create_chain(&chain(), &terminal()).await.expect("chain");
    }
    let flight = flight(number);
    assert!(store.open_flight(&flight).await.expect("open"));
    flight
}

/// Ticket `n` of player `player` of `operator` on `flight`, `pending`.
pub fn ticket(operator: u128, player: u128, n: u128, flight: &FlightRecord) -> TicketRecord {
    let created_at = flight.boarding_at + time::Duration::milliseconds(i64::try_from(n).expect("small"));
    TicketRecord {
        operator_id: operator_id(operator),
        id: TicketId::from_u128(operator * 1_000_000 + n),
        flight_id: flight.id,
        user_id: user_id(operator, player),
        external_user_id: format!("player-{player}"),
        client_ticket_id: format!("client-{n}"),
        stake: rupiah(10_000),
        auto_cash_out: Some(Multiplier::from_hundredths(200)),
        status: TicketStatus::Pending,
        terms_id: TERMS,
        share_bps: ShareBps::new(1_500).expect("share"),
        max_payout: rupiah(100_000_000),
        purchase_operation_id: WalletOperationId::from_u128(operator * 1_000_000 + n),
        cash_out: None,
        cashed_out_at: None,
        payout: None,
        refund_reason: None,
        failure_reason: None,
        created_at,
        updated_at: created_at,
        settled_at: None,
    }
}

/// The ticket's operation of `flow` (the purchase has the ticket's operation id).
pub fn operation(ticket: &TicketRecord, flow: WalletFlow, state: OperationState) -> WalletOperationRecord {
    let id = match flow {
        WalletFlow::FlightTicketPurchase => ticket.purchase_operation_id,
        WalletFlow::FlightTicketPayout => WalletOperationId::from_u128(ticket.id.as_u128() + 500_000),
        _ => WalletOperationId::from_u128(ticket.id.as_u128() + 700_000),
    };
    let mut metadata = BTreeMap::new();
    metadata.insert("flightId".to_owned(), ticket.flight_id.to_string());
    metadata.insert("ticketId".to_owned(), ticket.id.to_string());
    WalletOperationRecord {
        id,
        operator_id: ticket.operator_id,
        user_id: ticket.user_id,
        external_user_id: ticket.external_user_id.clone(),
        flow,
        reason: ReasonKey::for_flow(flow),
        idempotency_key: IdempotencyKey::parse(&format!("{flow}:{}", ticket.id)).expect("key"),
        amount: ticket.stake.get(),
        currency: Currency::IDR,
        metadata,
        market_id: None,
        flight_id: Some(ticket.flight_id),
        ticket_id: Some(ticket.id),
        trade_id: None,
        redemption_id: None,
        sent_at: (state == OperationState::Sent).then_some(ticket.created_at),
        state,
        attempts: u32::from(state == OperationState::Sent),
        http_status: None,
        detail: None,
        remote_reference: None,
        balance_after: None,
        created_at: ticket.created_at,
        answered_at: None,
        resolved_at: None,
        review_reason: None,
    }
}

pub fn new_operation(record: WalletOperationRecord, due: Option<time::OffsetDateTime>) -> NewOperation {
    NewOperation {
        record,
        fingerprint: RequestFingerprint::parse(&"c".repeat(64)).expect("fingerprint"),
        next_attempt_at: due,
    }
}

/// The ticket with its `sent` purchase, for `open_ticket`, under a cap of 2.
pub fn new_ticket(ticket: &TicketRecord) -> NewTicket {
    NewTicket {
        ticket: ticket.clone(),
        purchase: new_operation(
            operation(ticket, WalletFlow::FlightTicketPurchase, OperationState::Sent),
            None,
        ),
        cap: 2,
        production_authorization: AuthorizationRequirement::NotRequired,
    }
}

/// An event about the ticket.
pub fn event(ticket: &TicketRecord, n: u128) -> NewEvent {
    NewEvent::new(
        EventId::from_u128(n),
        ticket.operator_id,
        EventType::FlightTicketPurchased,
        json!({"ticketId": ticket.id, "externalUserId": ticket.external_user_id}),
        ticket.created_at,
    )
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// `SELECT count(*) AS count …` on the test database.
pub async fn count(db: &TestDatabase, sql: &str) -> i64 {
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    let found: Count = diesel::sql_query(sql).get_result(&mut conn).await.expect("count");
    found.count
}

/// The operator's id as the SQL of `count` names it.
pub fn sql_id(operator: OperatorId) -> String {
    uuid::Uuid::from_u128(operator.as_u128()).to_string()
}
