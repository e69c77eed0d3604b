//! The simulated wallet against mocks: signature first, one key one effect, a lost claim
//! read again, a balance that moved under a settlement computed again, and the flight
//! product's flows taken in IDR and refused in another currency.

use opinion_core::{FlightId, TicketId, WalletOperationId};
use opinion_flight::Multiplier;
use opinion_market::Outcome;
use opinion_wallet::{
    Amount, Currency, FlowMetadata, KeyRecord, MutationRequest, RemoteReference, ShareCount, TicketPayoutMetadata,
    TicketPurchaseMetadata, TicketRefundMetadata, TradeMetadata, WalletAnswer, WalletMutation,
};
use opinion_webhook::{SigningSecret, sign};

use super::*;
use crate::model::{SimulatedUser, WalletAdapterConfig};
use crate::simulator::ports::MockSimulatorStore;
use crate::test_support::flight::{ManualClock, MemoryFlightStore};
use crate::test_support::settlement::{MARKET, TRADE, TradingMocks, usd};
use crate::test_support::simulator::{flight_game, simulator as simulator_with};
use crate::test_support::{NOW, OPERATOR};
use crate::wallet::ports::{MockWalletAdapterStore, MockWalletGateway};

fn secret() -> SigningSecret {
    SigningSecret::from_random_bytes(&[7; 32]).expect("secret")
}

fn adapters() -> MockWalletAdapterStore {
    let mut adapters = MockWalletAdapterStore::new();
    adapters.expect_find_wallet_adapter().returning(|_| {
        Ok(Some(WalletAdapterConfig {
            operator_id: OPERATOR,
            base_url: opinion_wallet::AdapterBaseUrl::parse("http://127.0.0.1:1", false).expect("url"),
            timeout: opinion_wallet::AdapterTimeout::DEFAULT,
            secrets: opinion_wallet::AdapterSecrets::new(secret()),
            created_at: NOW,
            updated_at: NOW,
            revision: 1,
        }))
    });
    adapters
}

fn simulator(store: MockSimulatorStore) -> Simulator {
    let flight = flight_game(
        &MemoryFlightStore::default(),
        ManualClock::at(NOW),
        MockWalletGateway::new(),
    );
    simulator_with(store, adapters(), TradingMocks::default(), flight)
}

fn request() -> MutationRequest {
    let metadata = FlowMetadata::Buy(TradeMetadata {
        market_id: MARKET,
        trade_id: TRADE,
        outcome: Outcome::Yes,
        shares: ShareCount::new(3).expect("shares"),
    });
    let mutation = WalletMutation::new("p", Amount::new(300).expect("amount"), usd(), metadata).expect("mutation");
    MutationRequest::of(&mutation, "2026-11-22T10:15:30Z".parse().expect("time"))
}

fn call(signed_with: &SigningSecret) -> SimulatedWalletCall {
    call_with(request(), signed_with)
}

/// The flight product's three mutations of 25 000 IDR for `p` on one ticket.
fn flight_requests() -> [MutationRequest; 3] {
    let (flight_id, ticket_id) = (FlightId::from_u128(5), TicketId::from_u128(6));
    [
        FlowMetadata::FlightTicketPurchase(TicketPurchaseMetadata {
            flight_id,
            ticket_id,
            auto_cash_out: None,
        }),
        FlowMetadata::FlightTicketPayout(TicketPayoutMetadata {
            flight_id,
            ticket_id,
            multiplier: Multiplier::from_hundredths(346),
        }),
        FlowMetadata::FlightTicketRefund(TicketRefundMetadata {
            flight_id,
            ticket_id,
            refund_of: WalletOperationId::from_u128(7),
        }),
    ]
    .map(|metadata| {
        let mutation = WalletMutation::new("p", Amount::new(25_000).expect("amount"), Currency::IDR, metadata)
            .expect("an IDR mutation");
        MutationRequest::of(&mutation, "2026-11-22T10:15:30Z".parse().expect("time"))
    })
}

fn call_with(request: MutationRequest, signed_with: &SigningSecret) -> SimulatedWalletCall {
    let body = request.to_bytes().expect("body");
    let key = request.idempotency_key.as_str().to_owned();
    let headers = sign(std::slice::from_ref(signed_with), &key, NOW.unix_timestamp(), &body).expect("sign");
    SimulatedWalletCall {
        operator_id: OPERATOR,
        webhook_id: headers.webhook_id,
        webhook_timestamp: headers.webhook_timestamp,
        webhook_signature: headers.webhook_signature,
        idempotency_key: Some(key),
        body,
    }
}

fn user(balance: i64) -> SimulatedUser {
    user_in(usd(), balance)
}

fn user_in(currency: Currency, balance: i64) -> SimulatedUser {
    SimulatedUser {
        id: opinion_core::SimulatorUserId::from_u128(1),
        operator_id: OPERATOR,
        external_user_id: "p".into(),
        display_name: None,
        currency,
        starting_balance: balance,
        balance,
        disabled: false,
        faults: Vec::new(),
        revision: 1,
        created_at: NOW,
        updated_at: NOW,
    }
}

fn answer_of(reply: SimulatedWalletReply) -> WalletAnswer {
    match reply {
        SimulatedWalletReply::Answer(answer) => answer,
        SimulatedWalletReply::Drop => panic!("dropped"),
    }
}

#[tokio::test]
async fn a_bad_signature_is_refused_before_the_key_is_looked_at() {
    let mut store = MockSimulatorStore::new();
    store.expect_find_wallet_key().never();
    store.expect_claim_wallet_key().never();
    store.expect_append_wallet_log().times(1).returning(|_| Ok(()));
    let stranger = SigningSecret::from_random_bytes(&[8; 32]).expect("secret");
    let answer = answer_of(simulator(store).wallet_mutation(call(&stranger)).await.expect("reply"));
    assert_eq!(answer.status, 401);
}

#[tokio::test]
async fn a_repeated_key_gets_its_recorded_answer_and_moves_nothing() {
    let first = WalletAnswer::applied(RemoteReference::parse("sim-1").expect("ref"), 700);
    let recorded = KeyRecord::Settled {
        fingerprint: request().fingerprint(),
        answer: first.clone(),
    };
    let mut store = MockSimulatorStore::new();
    store
        .expect_find_wallet_key()
        .returning(move |_, _| Ok(Some(recorded.clone())));
    store.expect_claim_wallet_key().never();
    store.expect_settle_wallet_key().never();
    store.expect_take_fault().never();
    store.expect_append_wallet_log().returning(|_| Ok(()));
    let answer = answer_of(simulator(store).wallet_mutation(call(&secret())).await.expect("reply"));
    assert_eq!(answer, first);
}

#[tokio::test]
async fn a_key_claimed_meanwhile_by_another_instance_is_read_again() {
    let mut store = MockSimulatorStore::new();
    let mut reads = 0;
    store.expect_find_wallet_key().times(2).returning(move |_, _| {
        reads += 1;
        Ok((reads > 1).then(|| KeyRecord::InProgress {
            fingerprint: request().fingerprint(),
        }))
    });
    store
        .expect_claim_wallet_key()
        .times(1)
        .returning(|_, _, _, _| Ok(false));
    store.expect_settle_wallet_key().never();
    store.expect_append_wallet_log().returning(|_| Ok(()));
    let answer = answer_of(simulator(store).wallet_mutation(call(&secret())).await.expect("reply"));
    assert_eq!(answer, WalletAnswer::in_progress());
}

#[tokio::test]
async fn a_balance_moved_under_the_settlement_is_applied_over_the_new_balance() {
    let mut store = MockSimulatorStore::new();
    store.expect_find_wallet_key().returning(|_, _| Ok(None));
    store.expect_claim_wallet_key().returning(|_, _, _, _| Ok(true));
    store.expect_take_fault().returning(|_, _| Ok(None));
    store.expect_append_wallet_log().returning(|_| Ok(()));
    store.expect_finish_wallet_log().returning(|_, _, _, _, _| Ok(()));
    let mut balances = vec![1_000, 900].into_iter();
    store
        .expect_find_simulated_user_by_external()
        .times(2)
        .returning(move |_, _| Ok(Some(user(balances.next().expect("balance")))));
    store.expect_settle_wallet_key().times(2).returning(|settled| {
        let change = settled.balance.as_ref().expect("a balance move");
        Ok(change.before == 900 && change.after == 600)
    });
    let answer = answer_of(simulator(store).wallet_mutation(call(&secret())).await.expect("reply"));
    assert_eq!(answer.status, 200);
    assert!(answer.is_applied());
}

/// A store for one new key of `user`, checking the balance move (or that none happened).
fn store_for_new_key(user: SimulatedUser, expected: Option<(i64, i64)>) -> MockSimulatorStore {
    let mut store = MockSimulatorStore::new();
    store.expect_find_wallet_key().returning(|_, _| Ok(None));
    store.expect_claim_wallet_key().returning(|_, _, _, _| Ok(true));
    store.expect_take_fault().returning(|_, _| Ok(None));
    store.expect_append_wallet_log().returning(|_| Ok(()));
    store.expect_finish_wallet_log().returning(|_, _, _, _, _| Ok(()));
    store
        .expect_find_simulated_user_by_external()
        .returning(move |_, _| Ok(Some(user.clone())));
    store.expect_settle_wallet_key().times(1).returning(move |settled| {
        let moved = settled.balance.as_ref().map(|change| (change.before, change.after));
        assert_eq!(moved, expected);
        Ok(true)
    });
    store
}

#[tokio::test]
async fn an_idr_simulated_user_takes_a_flight_purchase_payout_and_refund() {
    let [purchase, payout, refund] = flight_requests();
    for (request, after) in [(purchase, 75_000), (payout, 125_000), (refund, 125_000)] {
        let flow = request.flow;
        let store = store_for_new_key(user_in(Currency::IDR, 100_000), Some((100_000, after)));
        let answer = answer_of(
            simulator(store)
                .wallet_mutation(call_with(request, &secret()))
                .await
                .expect("reply"),
        );
        assert_eq!(answer.status, 200, "{flow}: {answer:?}");
        assert!(answer.is_applied(), "{flow}");
    }
}

#[tokio::test]
async fn a_simulated_user_in_another_currency_refuses_flight_mutations() {
    for request in flight_requests() {
        let flow = request.flow;
        let store = store_for_new_key(user_in(usd(), 100_000), None);
        let answer = answer_of(
            simulator(store)
                .wallet_mutation(call_with(request, &secret()))
                .await
                .expect("reply"),
        );
        assert_eq!(answer.status, 422, "{flow}");
        let body: serde_json::Value = serde_json::from_slice(&answer.body_bytes().expect("body")).expect("json");
        assert_eq!(body["error"]["code"], "currency_mismatch", "{flow}");
    }
}
