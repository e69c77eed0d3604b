//! The conversions of the trading rows: valid rows become records, anything the domain
//! refuses is a corrupt row.

use opinion_market::{Outcome, Side, TradeStatus};
use opinion_wallet::{OperationState, WalletFlow};
use serde_json::json;

use super::*;

const ID: Uuid = Uuid::from_u128(7);

fn is_corrupt<T: std::fmt::Debug>(result: Result<T, StoreError>) -> bool {
    matches!(result, Err(StoreError::Unavailable(message)) if message.starts_with("corrupt row"))
}

fn market_row(status: &str, resolution: Option<&str>) -> MarketRow {
    MarketRow {
        id: ID,
        question: "Will it rain?".into(),
        rules: "Official gauge.".into(),
        close_at: OffsetDateTime::UNIX_EPOCH,
        liquidity: 1_000,
        fee_bps: 100,
        status: status.into(),
        resolution: resolution.map(str::to_owned),
        created_at: OffsetDateTime::UNIX_EPOCH,
        closed_at: None,
        resolved_at: None,
    }
}

#[test]
fn market_statuses_read_back_with_their_resolution() {
    let open = market_row("open", None).into_record().expect("valid");
    assert_eq!(open.status, MarketStatus::Open);
    assert_eq!(open.fee.bps(), 100);
    assert_eq!(open.liquidity.minor_units(), 1_000);
    assert_eq!(
        market_row("closed", None).into_record().map(|m| m.status).ok(),
        Some(MarketStatus::Closed)
    );
    assert_eq!(
        market_row("resolved", Some("void"))
            .into_record()
            .map(|m| m.status)
            .ok(),
        Some(MarketStatus::Resolved(Resolution::Void))
    );
}

#[test]
fn inconsistent_or_unknown_market_values_are_corrupt() {
    assert!(is_corrupt(market_row("resolved", None).into_record()));
    assert!(is_corrupt(market_row("open", Some("yes")).into_record()));
    assert!(is_corrupt(market_row("paused", None).into_record()));
    assert!(is_corrupt(market_row("resolved", Some("maybe")).into_record()));
    let mut expensive = market_row("open", None);
    expensive.fee_bps = 2_000;
    assert!(is_corrupt(expensive.into_record()));
    let mut negative_fee = market_row("open", None);
    negative_fee.fee_bps = -1;
    assert!(is_corrupt(negative_fee.into_record()));
    let mut no_liquidity = market_row("open", None);
    no_liquidity.liquidity = 0;
    assert!(is_corrupt(no_liquidity.into_record()));
}

#[test]
fn a_missing_pool_row_is_an_empty_visible_pool() {
    let row = OperatorMarketRow {
        market: market_row("open", None),
        pool: None,
        mode: None,
    };
    let record = row.into_record().expect("valid");
    assert!(!record.hidden());
    assert_eq!(record.choice, MarketChoice::Unset);
    assert_eq!(record.mode, VisibilityMode::Blocklist, "the default mode");
    assert_eq!(record.pool, Pool::new(record.market.liquidity));
}

#[test]
fn the_stored_mode_decides_with_the_choice() {
    let row = OperatorMarketRow {
        market: market_row("open", None),
        pool: None,
        mode: Some("allowlist".into()),
    };
    let record = row.into_record().expect("valid");
    assert!(record.hidden(), "an untouched market is hidden in allowlist mode");
    let unknown = OperatorMarketRow {
        market: market_row("open", None),
        pool: None,
        mode: Some("some".into()),
    };
    assert!(is_corrupt(unknown.into_record()));
}

#[test]
fn a_pool_row_gives_outstanding_shares_and_visibility() {
    let row = OperatorMarketRow {
        market: market_row("open", None),
        pool: Some(PoolRow {
            yes_outstanding: 300,
            no_outstanding: 20,
            choice: "hidden".into(),
        }),
        mode: None,
    };
    let record = row.into_record().expect("valid");
    assert!(record.hidden());
    assert_eq!(record.pool.outstanding(Outcome::Yes), 300);
    assert_eq!(record.pool.outstanding(Outcome::No), 20);
    let negative = OperatorMarketRow {
        market: market_row("open", None),
        pool: Some(PoolRow {
            yes_outstanding: -1,
            no_outstanding: 0,
            choice: "unset".into(),
        }),
        mode: None,
    };
    assert!(is_corrupt(negative.into_record()));
}

fn trade_row() -> TradeRow {
    TradeRow {
        operator_id: Uuid::from_u128(1),
        id: ID,
        user_id: Uuid::from_u128(2),
        external_user_id: "player-1".into(),
        market_id: Uuid::from_u128(3),
        client_order_id: "order-1".into(),
        side: "sell".into(),
        outcome: "no".into(),
        order_kind: "shares".into(),
        order_value: 10,
        order_limit: Some(4),
        shares: 10,
        amount: 5,
        fee: 1,
        currency: "EUR".into(),
        price_before_ppm: 500_000,
        price_after_ppm: 495_000,
        status: "executed".into(),
        failure_reason: None,
        created_at: OffsetDateTime::UNIX_EPOCH,
        settled_at: Some(OffsetDateTime::UNIX_EPOCH),
    }
}

#[test]
fn trades_read_back_with_typed_names_and_prices() {
    let trade = trade_row().into_record().expect("valid");
    assert_eq!((trade.side, trade.outcome), (Side::Sell, Outcome::No));
    assert_eq!(trade.status, TradeStatus::Executed);
    assert_eq!(trade.price_after.ppm(), 495_000);
    assert_eq!(trade.currency.as_str(), "EUR");
    assert_eq!(trade.external_user_id, "player-1");
}

#[test]
fn trades_with_unknown_names_or_impossible_prices_are_corrupt() {
    let cases: [fn(&mut TradeRow); 5] = [
        |row| row.side = "short".into(),
        |row| row.outcome = "maybe".into(),
        |row| row.status = "done".into(),
        |row| row.currency = "euro".into(),
        |row| row.price_before_ppm = 1_000_001,
    ];
    for spoil in cases {
        let mut row = trade_row();
        spoil(&mut row);
        assert!(is_corrupt(row.into_record()));
    }
}

#[test]
fn positions_with_negative_holdings_are_corrupt() {
    let row = PositionRow {
        user_id: Uuid::from_u128(2),
        market_id: Uuid::from_u128(3),
        yes_shares: 10,
        yes_cost_basis: 6,
        no_shares: 0,
        no_cost_basis: 0,
        realized_pnl: -2,
        redeemed_at: None,
        updated_at: OffsetDateTime::UNIX_EPOCH,
    };
    let record = row.clone().into_record().expect("valid");
    assert_eq!(record.position.holding(Outcome::Yes).shares, 10);
    assert_eq!(record.position.realized_pnl(), -2);
    assert!(is_corrupt(PositionRow { no_shares: -1, ..row }.into_record()));
}

fn operation_row() -> WalletOperationRow {
    WalletOperationRow {
        operator_id: Uuid::from_u128(1),
        id: ID,
        user_id: Uuid::from_u128(2),
        external_user_id: "player-1".into(),
        flow: "buy".into(),
        reason: "opinion.buy".into(),
        idempotency_key: "buy:trd_01jdz3qv6mz8x5c0a2t5d4e7f9".into(),
        amount: 120,
        currency: "USD".into(),
        metadata: json!({"marketId": "mkt_01jdz3qv6mz8x5c0a2t5d4e7f9", "shares": "10"}),
        market_id: Some(Uuid::from_u128(3)),
        trade_id: Some(Uuid::from_u128(4)),
        redemption_id: None,
        flight_id: None,
        ticket_id: None,
        state: "applied".into(),
        attempts: 1,
        http_status: Some(200),
        detail: None,
        remote_reference: Some("wallet-ref-1".into()),
        balance_after: Some(880),
        created_at: OffsetDateTime::UNIX_EPOCH,
        sent_at: Some(OffsetDateTime::UNIX_EPOCH),
        answered_at: Some(OffsetDateTime::UNIX_EPOCH),
        resolved_at: None,
        review_reason: None,
    }
}

#[test]
fn wallet_operations_read_back_with_their_metadata() {
    let record = operation_row().into_record().expect("valid");
    assert_eq!(record.flow, WalletFlow::Buy);
    assert_eq!(record.state, OperationState::Applied);
    assert_eq!(record.http_status, Some(200));
    assert_eq!(record.metadata.get("shares").map(String::as_str), Some("10"));
    assert_eq!(record.remote_reference.as_deref(), Some("wallet-ref-1"));
    assert_eq!(record.trade_id.map(|id| id.as_u128()), Some(4));
}

fn flight_operation_row() -> WalletOperationRow {
    WalletOperationRow {
        flow: "flight_ticket_payout".into(),
        reason: "flight_ticket_payout".into(),
        idempotency_key: "flight_ticket_payout:tkt_01jdz3qv6mz8x5c0a2t5d4e7f9".into(),
        currency: "IDR".into(),
        metadata: json!({"flightId": "flt_01jdz3qv6mz8x5c0a2t5d4e7f8", "ticketId": "tkt_01jdz3qv6mz8x5c0a2t5d4e7f9", "multiplier": "2.00"}),
        market_id: None,
        trade_id: None,
        flight_id: Some(Uuid::from_u128(5)),
        ticket_id: Some(Uuid::from_u128(6)),
        ..operation_row()
    }
}

#[test]
fn flight_operations_read_back_with_their_flight_and_ticket() {
    let record = flight_operation_row().into_record().expect("valid");
    assert_eq!(record.flow, WalletFlow::FlightTicketPayout);
    assert_eq!(record.market_id, None);
    assert_eq!(record.flight_id.map(|id| id.as_u128()), Some(5));
    assert_eq!(record.ticket_id.map(|id| id.as_u128()), Some(6));
    assert_eq!(record.currency.as_str(), "IDR");
}

#[test]
fn an_operation_naming_another_products_subject_is_corrupt() {
    let cases = [
        WalletOperationRow {
            market_id: None,
            ..operation_row()
        },
        WalletOperationRow {
            ticket_id: Some(Uuid::from_u128(6)),
            ..operation_row()
        },
        WalletOperationRow {
            ticket_id: None,
            ..flight_operation_row()
        },
        WalletOperationRow {
            flight_id: None,
            ..flight_operation_row()
        },
        WalletOperationRow {
            market_id: Some(Uuid::from_u128(3)),
            ..flight_operation_row()
        },
    ];
    for row in cases {
        assert!(is_corrupt(row.into_record()));
    }
}

#[test]
fn wallet_operations_the_domain_refuses_are_corrupt() {
    let cases: [fn(&mut WalletOperationRow); 6] = [
        |row| row.metadata = json!({"shares": 10}),
        |row| row.metadata = json!(["not", "an", "object"]),
        |row| row.idempotency_key = "buy trd".into(),
        |row| row.http_status = Some(70_000),
        |row| row.attempts = -1,
        |row| row.state = "lost".into(),
    ];
    for spoil in cases {
        let mut row = operation_row();
        spoil(&mut row);
        assert!(is_corrupt(row.into_record()));
    }
}

#[test]
fn steps_read_back_and_name_their_operation() {
    let row = WalletOperationStepRow {
        operation_id: ID,
        state: "sent".into(),
        http_status: None,
        detail: Some("sending".into()),
        at: OffsetDateTime::UNIX_EPOCH,
    };
    assert_eq!(row.operation_id().as_u128(), 7);
    let step = row.clone().into_record().expect("valid");
    assert_eq!(step.state, OperationState::Sent);
    assert!(is_corrupt(
        WalletOperationStepRow {
            state: "flying".into(),
            ..row
        }
        .into_record()
    ));
}
