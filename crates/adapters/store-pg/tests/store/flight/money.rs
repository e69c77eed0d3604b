//! The flight money worker's claims (due payouts and refunds only, skipping rows another
//! worker holds) and its lost-answer sweep (flight operations only).

use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::flight::ports::{FlightChange, FlightStore};
use opinion_app::opinion::trading::ports::{TradeStore, TradingChange};
use opinion_core::{MarketId, TradeId};

use super::*;

struct Owed {
    db: TestDatabase,
    store: PgStore,
    payout: WalletOperationRecord,
    refund: WalletOperationRecord,
    later: WalletOperationRecord,
    purchase: WalletOperationRecord,
}

/// Operator 1 owes a payout and a refund due at `T0` and another payout due later; its
/// purchases are `sent`; an Opinion compensation of the same operator is due too.
async fn owed() -> Owed {
    let (db, store) = flight_store().await;
    given_operator_with_players(&store, 1, 1).await;
    let flight = given_flight(&store, 1).await;
    let tickets: Vec<TicketRecord> = (1..=3).map(|n| ticket(1, 1, n, &flight)).collect();
    for ticket in &tickets[..2] {
        store.open_ticket(&new_ticket(ticket)).await.expect("open");
    }
    let payout = operation(&tickets[0], WalletFlow::FlightTicketPayout, OperationState::Prepared);
    let refund = operation(&tickets[1], WalletFlow::FlightTicketRefund, OperationState::Prepared);
    let later = operation(&tickets[2], WalletFlow::FlightTicketPayout, OperationState::Prepared);
    let change = FlightChange {
        new_operations: vec![
            new_operation(payout.clone(), Some(T0)),
            new_operation(refund.clone(), Some(T0)),
            new_operation(later.clone(), Some(at(3_600))),
        ],
        ..FlightChange::default()
    };
    assert!(store.apply_flight_change(&change).await.expect("owed"));
    given_opinion_compensation(&store).await;
    let purchase = operation(&tickets[0], WalletFlow::FlightTicketPurchase, OperationState::Sent);
    Owed {
        db,
        store,
        payout,
        refund,
        later,
        purchase,
    }
}

/// A due Opinion buy compensation of operator 1: never the flight worker's.
async fn given_opinion_compensation(store: &PgStore) {
    let mut record = operation(
        &ticket(1, 1, 9, &flight(1)),
        WalletFlow::BuyCompensation,
        OperationState::Prepared,
    );
    let trade = TradeId::from_u128(9);
    record.id = WalletOperationId::from_u128(9_999);
    record.idempotency_key = IdempotencyKey::parse(&format!("buy_compensation:{trade}")).expect("key");
    record.currency = "USD".parse().expect("currency");
    record.flight_id = None;
    record.ticket_id = None;
    record.market_id = Some(MarketId::from_u128(50));
    record.trade_id = Some(trade);
    record.metadata = BTreeMap::from([("marketId".to_owned(), MarketId::from_u128(50).to_string())]);
    let change = TradingChange {
        new_operations: vec![new_operation(record, Some(T0))],
        ..TradingChange::default()
    };
    store.apply(operator_id(1), &change).await.expect("opinion operation");
}

fn claimed_as(record: &WalletOperationRecord, now: time::OffsetDateTime) -> WalletOperationRecord {
    let mut sent = record.clone();
    sent.state = OperationState::Sent;
    sent.attempts += 1;
    sent.sent_at = Some(now);
    sent
}

#[tokio::test]
async fn claims_take_due_flight_credits_only_and_mark_them_sent() {
    let t = owed().await;
    let now = at(60);

    let operators = t
        .store
        .operators_with_flight_wallet_work(now, T0)
        .await
        .expect("operators");
    assert_eq!(operators, vec![operator_id(1)]);

    let claimed = t
        .store
        .claim_due_flight_operations(operator_id(1), now, 10)
        .await
        .expect("claim");
    assert_eq!(claimed, vec![claimed_as(&t.payout, now), claimed_as(&t.refund, now)]);
    let again = t
        .store
        .claim_due_flight_operations(operator_id(1), now, 10)
        .await
        .expect("claim again");
    assert_eq!(again, vec![]);
    let compensation = count(
        &t.db,
        "SELECT count(*) AS count FROM wallet_operations WHERE flow = 'buy_compensation' AND state = 'prepared'",
    )
    .await;
    assert_eq!(compensation, 1, "Opinion's operation is left to Opinion's worker");
    let later_left = count(
        &t.db,
        &format!(
            "SELECT count(*) AS count FROM wallet_operations WHERE id = '{}' AND state = 'prepared'",
            uuid::Uuid::from_u128(t.later.id.as_u128())
        ),
    )
    .await;
    assert_eq!(later_left, 1, "not due yet");
}

#[tokio::test]
async fn a_claim_skips_the_operations_another_worker_holds() {
    let t = owed().await;
    let mut other_worker = AsyncPgConnection::establish(t.db.url()).await.expect("connect");
    diesel::sql_query("BEGIN")
        .execute(&mut other_worker)
        .await
        .expect("begin");
    diesel::sql_query(format!(
        "SELECT id FROM wallet_operations WHERE id = '{}' FOR UPDATE",
        uuid::Uuid::from_u128(t.payout.id.as_u128())
    ))
    .execute(&mut other_worker)
    .await
    .expect("hold the payout");

    let claimed = t
        .store
        .claim_due_flight_operations(operator_id(1), at(60), 10)
        .await
        .expect("claim");
    assert_eq!(claimed, vec![claimed_as(&t.refund, at(60))]);

    diesel::sql_query("ROLLBACK")
        .execute(&mut other_worker)
        .await
        .expect("release");
    let claimed = t
        .store
        .claim_due_flight_operations(operator_id(1), at(60), 10)
        .await
        .expect("claim");
    assert_eq!(claimed, vec![claimed_as(&t.payout, at(60))]);
}

#[tokio::test]
async fn lost_answers_are_the_flight_operations_sent_before_the_grace() {
    let t = owed().await;
    let sent_at = t.purchase.sent_at.expect("sent");

    let stale = t
        .store
        .stale_flight_operations(operator_id(1), sent_at + time::Duration::milliseconds(1), 10)
        .await
        .expect("stale");

    assert_eq!(
        stale,
        vec![t.purchase.clone()],
        "the second purchase was sent a millisecond later"
    );
    let none = t
        .store
        .stale_flight_operations(operator_id(1), sent_at, 10)
        .await
        .expect("none");
    assert_eq!(none, vec![]);
    assert_eq!(
        t.store
            .operators_with_flight_wallet_work(
                T0 - time::Duration::seconds(1),
                sent_at + time::Duration::milliseconds(1)
            )
            .await
            .expect("operators"),
        vec![operator_id(1)],
        "a lost answer is work even when nothing is due"
    );
    assert_eq!(
        t.store
            .operators_with_flight_wallet_work(T0 - time::Duration::seconds(1), T0)
            .await
            .expect("operators"),
        vec![]
    );
}
