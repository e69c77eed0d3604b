//! Fixtures for the flight reads' use-case tests: the service over mockall mocks with a
//! fixed clock, and flights and tickets with fixed ids.

use std::sync::Arc;

use opinion_core::{FlightChainId, FlightId, FlightTermsId, TicketId, UserId, WalletOperationId};
use opinion_flight::{ChainLength, FlightPhase, Multiplier, Rupiah, Salt, Seed, ShareBps, TicketStatus};
use time::Duration;

use crate::flight::model::{FlightRecord, TicketRecord};
use crate::flight::reads::ports::MockFlightReadStore;
use crate::flight::reads::{FlightReadPorts, FlightReads};
use crate::test_support::{NOW, OPERATOR, fixed_clock};
use crate::webhooks::store::MockWebhookStore;

/// The mocks, to be given expectations before `build`.
#[derive(Default)]
pub struct FlightReadMocks {
    pub store: MockFlightReadStore,
    pub webhooks: MockWebhookStore,
}

impl FlightReadMocks {
    pub fn build(self) -> FlightReads {
        FlightReads::new(FlightReadPorts {
            store: Arc::new(self.store),
            webhooks: Arc::new(self.webhooks),
            clock: fixed_clock(),
        })
    }
}

/// Flight `n` of a chain, in `phase`, crashing at 3.46×; boarded `n` minutes before `NOW`.
pub fn flight(n: u32, phase: FlightPhase) -> FlightRecord {
    let boarding_at = NOW - Duration::minutes(i64::from(n));
    let crash_at = boarding_at + Duration::milliseconds(5_000 + 20_688);
    FlightRecord {
        id: FlightId::from_u128(u128::from(n)),
        chain_id: FlightChainId::from_u128(1),
        number: n,
        phase,
        crash: Multiplier::from_hundredths(346),
        boarding_at,
        take_off_at: boarding_at + Duration::seconds(5),
        crash_at,
        revealed_seed: (phase == FlightPhase::Crashed)
            .then(|| Seed::from_bytes([u8::try_from(n % 256).unwrap_or(0); 32])),
        crashed_at: (phase == FlightPhase::Crashed).then_some(crash_at),
        cancelled_at: None,
        settled_at: None,
        salt: Salt::new("flight-test-vector-salt-0001").expect("salt"),
        commitment: Seed::from_bytes([0; 32]),
        chain_length: ChainLength::new(10).expect("length"),
    }
}

/// Ticket `n` of the operator on flight 1, `status`, 10 000 IDR at a 15% share.
pub fn ticket(n: u128, status: TicketStatus) -> TicketRecord {
    TicketRecord {
        operator_id: OPERATOR,
        id: TicketId::from_u128(n),
        flight_id: FlightId::from_u128(1),
        user_id: UserId::from_u128(7),
        external_user_id: "player-7".into(),
        client_ticket_id: format!("client-{n}"),
        stake: Rupiah::new(10_000).expect("stake"),
        auto_cash_out: None,
        status,
        terms_id: FlightTermsId::from_u128(1),
        share_bps: ShareBps::new(1_500).expect("share"),
        max_payout: Rupiah::new(1_000_000).expect("max payout"),
        purchase_operation_id: WalletOperationId::from_u128(n),
        cash_out: None,
        cashed_out_at: None,
        payout: None,
        refund_reason: None,
        failure_reason: None,
        created_at: NOW,
        updated_at: NOW,
        settled_at: None,
    }
}
