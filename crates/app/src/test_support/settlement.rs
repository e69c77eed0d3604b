//! The settlement tests' records: a market, positions, trades and operations (the
//! mocks are `trading::TradingMocks`).

use std::collections::BTreeMap;
use std::time::Duration as StdDuration;

use opinion_core::{FlightId, MarketId, RedemptionId, TicketId, TradeId, UserId, WalletOperationId};
use opinion_flight::Multiplier;
use opinion_market::{
    FeeRate, Holding, Liquidity, MarketStatus, OrderKind, Outcome, Pool, Position, Resolution, Side, TradeStatus,
};
use opinion_wallet::{
    BuyCompensationMetadata, Currency, FlowMetadata, IdempotencyKey, OperationState, Product, ReasonKey,
    RedemptionMetadata, ShareCount, TicketPayoutMetadata, TicketPurchaseMetadata, TicketRefundMetadata, TradeMetadata,
    WalletFlow,
};
use time::Duration;

use crate::model::{Market, PositionRecord, Trade, WalletOperationRecord};
use crate::opinion::settlement::ports::RedeemablePosition;
use crate::test_support::{NOW, OPERATOR};
use crate::wallet::ports::WalletAdapterTarget;

pub use crate::test_support::trading::TradingMocks;

pub const MARKET: MarketId = MarketId::from_u128(50);
pub const USER: UserId = UserId::from_u128(60);
pub const TRADE: TradeId = TradeId::from_u128(70);
pub const FLIGHT: FlightId = FlightId::from_u128(75);
pub const TICKET: TicketId = TicketId::from_u128(76);

pub fn usd() -> Currency {
    "USD".parse().expect("currency")
}

pub fn market(status: MarketStatus) -> Market {
    Market {
        id: MARKET,
        question: "Will it rain?".into(),
        rules: "Official gauge.".into(),
        close_at: NOW + Duration::days(1),
        liquidity: Liquidity::new(1_000).expect("liquidity"),
        fee: FeeRate::from_bps(100).expect("fee"),
        status,
        created_at: NOW - Duration::days(2),
        closed_at: None,
        resolved_at: None,
    }
}

pub fn pool() -> Pool {
    Pool::new(Liquidity::new(1_000).expect("liquidity"))
}

pub fn holding(shares: i64, cost_basis: i64) -> Holding {
    Holding { shares, cost_basis }
}

pub fn held(user: u128, yes: Holding, no: Holding, realized_pnl: i64) -> RedeemablePosition {
    RedeemablePosition {
        operator_id: OPERATOR,
        external_user_id: format!("player-{user}"),
        record: PositionRecord {
            user_id: UserId::from_u128(user),
            market_id: MARKET,
            position: Position::from_parts(yes, no, realized_pnl).expect("position"),
            redeemed_at: None,
            updated_at: NOW - Duration::hours(1),
        },
    }
}

pub fn target() -> WalletAdapterTarget {
    WalletAdapterTarget {
        operator_id: OPERATOR,
        base_url: "https://wallet.example.com".into(),
        timeout: StdDuration::from_secs(10),
        signing_secrets: Vec::new(),
    }
}

pub fn trade(side: Side, status: TradeStatus) -> Trade {
    Trade {
        id: TRADE,
        operator_id: OPERATOR,
        user_id: USER,
        external_user_id: "player-60".into(),
        market_id: MARKET,
        client_order_id: "order-1".into(),
        side,
        outcome: Outcome::Yes,
        order_kind: OrderKind::Shares,
        order_value: 100,
        order_limit: None,
        shares: 100,
        amount: 60,
        fee: 1,
        currency: usd(),
        price_before: pool().price(Outcome::Yes),
        price_after: pool().price(Outcome::Yes),
        status,
        failure_reason: None,
        created_at: NOW - Duration::minutes(5),
        settled_at: None,
    }
}

/// An operation of `flow` in `state`, with the metadata its flow requires (a flight
/// operation in IDR, naming its flight and ticket).
pub fn operation(flow: WalletFlow, state: OperationState, attempts: u32) -> WalletOperationRecord {
    let redemption = RedemptionId::from_u128(80);
    let metadata = match flow {
        WalletFlow::Buy | WalletFlow::Sell => {
            let trade = TradeMetadata {
                market_id: MARKET,
                trade_id: TRADE,
                outcome: Outcome::Yes,
                shares: ShareCount::new(100).expect("shares"),
            };
            if flow == WalletFlow::Buy {
                FlowMetadata::Buy(trade)
            } else {
                FlowMetadata::Sell(trade)
            }
        }
        WalletFlow::BuyCompensation => FlowMetadata::BuyCompensation(BuyCompensationMetadata {
            market_id: MARKET,
            trade_id: TRADE,
            compensated_operation_id: WalletOperationId::from_u128(91),
        }),
        WalletFlow::Redemption => FlowMetadata::Redemption(RedemptionMetadata {
            market_id: MARKET,
            redemption_id: redemption,
            resolution: Resolution::Yes,
        }),
        WalletFlow::FlightTicketPurchase => FlowMetadata::FlightTicketPurchase(TicketPurchaseMetadata {
            flight_id: FLIGHT,
            ticket_id: TICKET,
            auto_cash_out: None,
        }),
        WalletFlow::FlightTicketPayout => FlowMetadata::FlightTicketPayout(TicketPayoutMetadata {
            flight_id: FLIGHT,
            ticket_id: TICKET,
            multiplier: Multiplier::from_hundredths(200),
        }),
        WalletFlow::FlightTicketRefund => FlowMetadata::FlightTicketRefund(TicketRefundMetadata {
            flight_id: FLIGHT,
            ticket_id: TICKET,
            refund_of: WalletOperationId::from_u128(92),
        }),
    };
    let is_redemption = flow == WalletFlow::Redemption;
    let is_flight = flow.product() == Product::Flight;
    WalletOperationRecord {
        id: WalletOperationId::from_u128(90),
        operator_id: OPERATOR,
        user_id: USER,
        external_user_id: "player-60".into(),
        flow,
        reason: ReasonKey::for_flow(flow),
        idempotency_key: IdempotencyKey::for_action(metadata.action()),
        amount: 60,
        currency: if is_flight { Currency::IDR } else { usd() },
        metadata: metadata.to_map().into_iter().collect::<BTreeMap<_, _>>(),
        market_id: (!is_flight).then_some(MARKET),
        flight_id: is_flight.then_some(FLIGHT),
        ticket_id: is_flight.then_some(TICKET),
        trade_id: (!is_redemption && !is_flight).then_some(TRADE),
        redemption_id: is_redemption.then_some(redemption),
        state,
        attempts,
        http_status: None,
        detail: None,
        remote_reference: None,
        balance_after: None,
        created_at: NOW - Duration::minutes(10),
        sent_at: Some(NOW - Duration::minutes(10)),
        answered_at: None,
        resolved_at: None,
        review_reason: None,
    }
}
