//! A simulator over mocks for its use-case tests: its own store mocked, the players and
//! Opinion use cases from the trading mocks, and a flight game over the in-memory flight
//! store with the clock the test moves.

use std::sync::Arc;

use crate::flight::{FlightGame, FlightPorts};
use crate::simulator::ports::MockSimulatorStore;
use crate::simulator::{SimulatedFlows, Simulator, SimulatorPorts};
use crate::test_support::flight::{ManualClock, MemoryFlightStore, settings};
use crate::test_support::trading::TradingMocks;
use crate::test_support::{counting_random, fixed_clock};
use crate::wallet::ports::{MockWalletAdapterStore, MockWalletGateway};
use crate::wallet::{WalletAdapterPorts, WalletAdapterSettings, WalletAdapters};

/// A flight game over `store` and `clock`, calling `wallet` for the operators
/// `TradingMocks::new` knows.
pub fn flight_game(store: &MemoryFlightStore, clock: Arc<ManualClock>, wallet: MockWalletGateway) -> FlightGame {
    let mocks = TradingMocks::new();
    let ports = FlightPorts {
        store: Arc::new(store.clone()),
        operators: Arc::new(mocks.operators),
        wallet_adapters: Arc::new(mocks.wallet_adapters),
        wallet: Arc::new(wallet),
        wallet_test_runs: Arc::new(crate::wallet::ports::MockWalletTestRunStore::new()),
        webhooks: Arc::new(crate::webhooks::store::MockWebhookStore::new()),
        transactions: Arc::new(crate::ports::WithoutTransactions),
        clock,
        random: counting_random(5_000, [4; 32]),
    };
    FlightGame::new(ports, settings())
}

/// A simulator over `store` and `adapters`, whose operations launch through `players`
/// and play `flight`.
pub fn simulator(
    store: MockSimulatorStore,
    adapters: MockWalletAdapterStore,
    players: TradingMocks,
    flight: FlightGame,
) -> Simulator {
    let settlement = TradingMocks::default().build_settlement();
    let random = counting_random(42, [0; 32]);
    let wallet_adapters = WalletAdapters::new(
        WalletAdapterPorts {
            store: Arc::new(MockWalletAdapterStore::new()),
            clock: fixed_clock(),
            random: random.clone(),
        },
        WalletAdapterSettings { production: false },
    );
    let ports = SimulatorPorts {
        store: Arc::new(store),
        adapters: Arc::new(adapters),
        operators: Arc::new(crate::access::ports::MockOperatorStore::new()),
        clock: fixed_clock(),
        random,
    };
    let flows = SimulatedFlows {
        players: players.build_players(),
        trading: settlement.trading.clone(),
        settlement,
        flight,
        wallet_adapters,
    };
    Simulator::new(ports, flows, "http://sim")
}
