//! A quote is priced by the same domain function as the order, carries the limit the
//! order will send, and that order passes its own limit; the balance read goes through
//! the wallet adapter and a failed read is "unknown", never an error.

use std::time::Duration;

use opinion_market::{Pool, Side, SlippageTolerance, quote_buy_shares};
use opinion_wallet::{BalanceFailure, BalanceReading};

use crate::opinion::trading::PlayerBalance;
use crate::test_support::trading::*;
use crate::wallet::ports::BalanceOutcome;

#[tokio::test]
async fn a_quote_is_the_domains_price_with_the_limit_its_order_carries() {
    let mut mocks = TradingMocks::new();
    mocks
        .markets
        .expect_find_operator_market()
        .returning(|_, _| Ok(Some(open_market())));
    let view = mocks
        .build()
        .quote(&player(), &order(Side::Buy, 1_000))
        .await
        .expect("quoted");
    let market = open_market();
    let expected = quote_buy_shares(
        &Pool::new(liquidity()),
        opinion_market::Outcome::Yes,
        1_000,
        market.market.fee,
    )
    .expect("priced");
    assert_eq!(view.quote, expected);
    assert_eq!(view.currency.as_str(), "IDR");
    assert_eq!(view.tolerance, SlippageTolerance::DEFAULT);
    assert_eq!(view.limit, SlippageTolerance::DEFAULT.limit_for(&expected));
    assert!(view.limit > expected.amount);
}

#[tokio::test]
async fn a_sales_limit_is_below_its_proceeds() {
    let mut mocks = TradingMocks::new();
    let bought = quote_buy_shares(
        &Pool::new(liquidity()),
        opinion_market::Outcome::Yes,
        2_000,
        Default::default(),
    )
    .expect("priced");
    mocks
        .markets
        .expect_find_operator_market()
        .returning(move |_, _| Ok(Some(market_with(bought.pool_after, opinion_market::MarketStatus::Open))));
    let view = mocks
        .build()
        .quote(&player(), &order(Side::Sell, 1_000))
        .await
        .expect("quoted");
    assert!(view.limit < view.quote.amount);
    assert_eq!(view.limit, SlippageTolerance::DEFAULT.limit_for(&view.quote));
}

#[tokio::test]
async fn the_balance_is_read_through_the_adapter_and_a_failed_read_is_unknown() {
    let mut mocks = TradingMocks::new();
    let mut answers = vec![
        BalanceReading::Failed {
            why: BalanceFailure::TimedOut,
        },
        BalanceReading::Balance {
            balance: 12_345,
            currency: "IDR".parse().expect("currency"),
        },
    ];
    mocks
        .wallet
        .expect_balance()
        .withf(|target, user| target.operator_id == crate::test_support::OPERATOR && user == "player-7")
        .times(2)
        .returning(move |_, _| BalanceOutcome {
            reading: answers.pop().expect("answer"),
            http_status: Some(200),
            elapsed: Duration::from_millis(3),
        });
    let trading = mocks.build();
    assert_eq!(
        trading.balance(&player()).await.expect("read"),
        PlayerBalance::Known {
            balance: 12_345,
            currency: "IDR".parse().expect("currency")
        }
    );
    assert_eq!(trading.balance(&player()).await.expect("read"), PlayerBalance::Unknown);
}
