//! A closed market with seeded positions, and the resolution plan the use case would
//! make of what the store reads (payouts by the market domain's rule), for the
//! settlement store's tests.

use diesel::sql_types::BigInt;
use diesel::{QueryableByName, sql_query};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::{Market, MarketResolution, NewEvent, Redemption, WalletOperationRecord};
use opinion_app::opinion::ports::MarketStore;
use opinion_app::opinion::settlement::ports::{ResolutionPlan, SettlementStore};
use opinion_app::opinion::trading::ports::NewOperation;
use opinion_core::{EventId, MarketId, RedemptionId, WalletOperationId};
use opinion_market::{MarketStatus, RedemptionStatus, Resolution, redemption};
use opinion_store_pg::PgStore;
use opinion_testkit::{MarketSeed, PositionSeed, TestDatabase};
use opinion_wallet::{Amount, FlowMetadata, OperationState, RedemptionMetadata, WalletMutation};
use opinion_webhook::EventType;
use time::OffsetDateTime;

use crate::fixtures::*;
use crate::opinion::trading::fixtures::*;

/// The market every settlement test resolves.
pub fn the_market() -> MarketId {
    MarketId::from_u128(market_id(1))
}

/// Creates operator 1, closed market 1, and player `n` of operator 1 holding `yes`
/// YES shares (cost basis half of it) for each `(n, yes)`.
pub async fn given_positions(db: &TestDatabase, store: &PgStore, holdings: &[(u16, i64)]) {
    given_operator(store, 1).await;
    let mut seeder = seeder(db).await;
    seeder
        .market(&MarketSeed {
            status: "closed",
            ..market(1)
        })
        .await;
    let outstanding = holdings.iter().map(|(_, yes)| yes).sum();
    seeder.pool(&pool(1, 1, outstanding, 0, false)).await;
    for &(n, yes) in holdings {
        seeder.user(&user(1, n)).await;
        seeder
            .position(&PositionSeed::yes(1, user_id(1, n), market_id(1), yes, T0))
            .await;
    }
}

/// The market resolved as `resolution` at `now`.
pub async fn resolved(store: &PgStore, resolution: Resolution, now: OffsetDateTime) -> Market {
    let market = MarketStore::find_market(store, the_market())
        .await
        .expect("find")
        .expect("market");
    Market {
        status: MarketStatus::Resolved(resolution),
        resolved_at: Some(now),
        ..market
    }
}

/// The plan resolving the market as YES at `now` from what the store reads now; ids of
/// redemptions and operations are numbered from 100 and 200.
pub async fn yes_plan(store: &PgStore, now: OffsetDateTime) -> ResolutionPlan {
    let market = resolved(store, Resolution::Yes, now).await;
    let operators = store.market_operators(market.id).await.expect("operators");
    let positions = store.unredeemed_positions(market.id).await.expect("positions");
    let mut resolutions: Vec<MarketResolution> = operators
        .iter()
        .map(|operator| MarketResolution {
            operator_id: operator.operator_id,
            market_id: market.id,
            resolution: Resolution::Yes,
            resolved_at: now,
            redemption_count: 0,
            payout_total: 0,
            currency: operator.currency,
        })
        .collect();
    let (mut redemptions, mut operations) = (Vec::new(), Vec::new());
    for (n, held) in (0_u128..).zip(&positions) {
        let amount = redemption(&held.record.position, Resolution::Yes);
        let Ok(payable) = Amount::new(amount) else { continue };
        let total = resolutions
            .iter_mut()
            .find(|total| total.operator_id == held.operator_id)
            .expect("the position's operator");
        total.redemption_count += 1;
        total.payout_total += amount;
        let paid = Redemption {
            id: RedemptionId::from_u128(100 + n),
            operator_id: held.operator_id,
            user_id: held.record.user_id,
            external_user_id: held.external_user_id.clone(),
            market_id: market.id,
            resolution: Resolution::Yes,
            amount,
            currency: total.currency,
            status: RedemptionStatus::Pending,
            created_at: now,
            paid_at: None,
        };
        let metadata = FlowMetadata::Redemption(RedemptionMetadata {
            market_id: market.id,
            redemption_id: paid.id,
            resolution: Resolution::Yes,
        });
        let mutation =
            WalletMutation::new(paid.external_user_id.clone(), payable, paid.currency, metadata).expect("mutation");
        operations.push(prepared(WalletOperationId::from_u128(200 + n), &paid, &mutation, now));
        redemptions.push(paid);
    }
    let events = operators
        .iter()
        .map(|operator| NewEvent {
            id: EventId::from_u128(300),
            operator_id: operator.operator_id,
            event_type: EventType::MarketResolved,
            data: serde_json::Map::new(),
            created_at: now,
        })
        .collect();
    ResolutionPlan {
        market,
        expected: MarketStatus::Closed,
        positions,
        resolutions,
        redemptions,
        operations,
        events,
    }
}

/// A `prepared` redemption operation, due at `now`.
fn prepared(id: WalletOperationId, paid: &Redemption, mutation: &WalletMutation, now: OffsetDateTime) -> NewOperation {
    NewOperation {
        record: WalletOperationRecord {
            id,
            operator_id: paid.operator_id,
            user_id: paid.user_id,
            external_user_id: paid.external_user_id.clone(),
            flow: mutation.flow(),
            reason: mutation.reason(),
            idempotency_key: mutation.idempotency_key(),
            amount: paid.amount,
            currency: paid.currency,
            metadata: mutation.metadata_map(),
            market_id: Some(paid.market_id),
            trade_id: None,
            redemption_id: Some(paid.id),
            flight_id: None,
            ticket_id: None,
            state: OperationState::Prepared,
            attempts: 0,
            http_status: None,
            detail: None,
            remote_reference: None,
            balance_after: None,
            created_at: now,
            sent_at: None,
            answered_at: None,
            resolved_at: None,
            review_reason: None,
        },
        fingerprint: mutation.fingerprint(),
        next_attempt_at: Some(now),
    }
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// How many rows of `table` there are (a name from the tests, never from input).
pub async fn rows(db: &TestDatabase, table: &str) -> i64 {
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    let found: Vec<Count> = sql_query(format!("SELECT count(*) AS count FROM {table}"))
        .load(&mut conn)
        .await
        .expect("count");
    found[0].count
}
