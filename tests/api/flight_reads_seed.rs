//! Flight rows for the black-box tests of the flight reads, inserted straight into the
//! test database: a chain derived with the game's own rules (so its flights verify), its
//! flights, the operator's terms and tickets.

use opinion_flight::{ChainLength, Salt, Seed, commitment, crash_point, seed_of_flight};
use opinion_testkit::{ChainSeed, FlightSeed, Seeder, TermsSeed, TicketSeed, UserSeed, ulid_at};
use time::OffsetDateTime;

use crate::helpers::{TestApp, TestOperator};
use crate::trading_seed::{at, bits, seeder};

/// The chain's public salt.
pub const SALT: &str = "flight-reads-salt-0001";
/// How many flights the chain plays.
const LENGTH: u32 = 10;
/// The chain's id bits.
const CHAIN: u128 = 4242;

/// The chain every test plays: a fixed terminal seed, so crash points are known.
pub struct Chain {
    terminal: Seed,
    length: ChainLength,
    salt: Salt,
}

impl Chain {
    pub fn new() -> Self {
        Self {
            terminal: Seed::from_bytes(*b"flight reads' own terminal seed!"),
            length: ChainLength::new(LENGTH).expect("a chain length"),
            salt: Salt::new(SALT).expect("a salt"),
        }
    }

    /// `hex(seed[0])`.
    pub fn commitment(&self) -> String {
        commitment(&self.terminal, self.length).to_hex()
    }

    /// Flight `number`'s seed.
    pub fn seed(&self, number: u32) -> Seed {
        seed_of_flight(&self.terminal, self.length, number).expect("a flight of the chain")
    }

    /// Flight `number`'s crash point, as the API writes it.
    pub fn crash_point(&self, number: u32) -> String {
        crash_point(&self.seed(number), &self.salt).to_string()
    }

    /// Flight `number`'s crash point in hundredths.
    fn crash_hundredths(&self, number: u32) -> i64 {
        i64::try_from(crash_point(&self.seed(number), &self.salt).hundredths()).expect("hundredths")
    }
}

/// The id bits of flight `number` (boarding `number` minutes after `T0`).
pub fn flight_bits(number: u32) -> u128 {
    ulid_at(boarding_of(number), u16::try_from(number).expect("small"))
}

/// When flight `number` boarded.
pub fn boarding_of(number: u32) -> OffsetDateTime {
    at(i64::from(number) * 60)
}

/// `flt_…` of flight `number`.
pub fn flight_id(number: u32) -> String {
    format!("flt_{}", ulid::Ulid(flight_bits(number)).to_string().to_lowercase())
}

/// `tkt_…` of the ticket with these bits.
pub fn ticket_id(bits: u128) -> String {
    format!("tkt_{}", ulid::Ulid(bits).to_string().to_lowercase())
}

/// The chain with flights 1 to `crashed` crashed and the next one in the air.
pub async fn given_flights(seed: &mut Seeder, chain: &Chain, crashed: u32) {
    seed.flight_chain(&ChainSeed {
        id: CHAIN,
        length: i32::try_from(LENGTH).expect("length"),
        salt: SALT.into(),
        commitment: chain.commitment(),
        created_at: at(0),
    })
    .await;
    for number in 1..=crashed + 1 {
        let flying = number > crashed;
        seed.flight(&FlightSeed {
            id: flight_bits(number),
            chain: CHAIN,
            number: i32::try_from(number).expect("number"),
            phase: if flying { "in_flight" } else { "crashed" },
            crash_hundredths: chain.crash_hundredths(number),
            boarding_at: boarding_of(number),
            revealed_seed: (!flying).then(|| chain.seed(number).to_hex()),
        })
        .await;
    }
}

/// The operator's player `external` and its terms (15% share).
pub async fn given_player(seed: &mut Seeder, operator: &TestOperator, n: u16, external: &str) -> UserSeed {
    let player = UserSeed {
        operator: bits(operator),
        id: ulid_at(at(0), 500 + n),
        external_user_id: external.into(),
        created_at: at(0),
    };
    seed.user(&player).await;
    player
}

/// The operator's terms, in force from `T0`.
pub async fn given_terms(seed: &mut Seeder, operator: &TestOperator) -> u128 {
    let id = ulid_at(at(0), 900) + bits(operator);
    seed.flight_terms(&TermsSeed {
        operator: bits(operator),
        id,
        share_bps: 1_500,
        effective_from: at(0),
    })
    .await;
    id
}

/// A lost ticket of `player` on flight `number`, bought at `bought` (its id's time).
pub fn lost_ticket(player: &UserSeed, terms: u128, number: u32, n: u16, bought: OffsetDateTime) -> TicketSeed {
    TicketSeed {
        operator: player.operator,
        id: ulid_at(bought, n),
        flight: flight_bits(number),
        user: player.id,
        external_user_id: player.external_user_id.clone(),
        stake: 10_000,
        auto_cash_out: Some(200),
        status: "lost",
        terms,
        share_bps: 1_500,
        cash_out: None,
        payout: None,
        refund_reason: None,
        created_at: bought,
    }
}

/// A seeder with the chain (flights 1 to 3 crashed, 4 in the air), the first operator's
/// terms and player `p-1`.
pub async fn given_game(app: &TestApp) -> (Seeder, Chain, UserSeed, u128) {
    let mut seed = seeder(app).await;
    let chain = Chain::new();
    given_flights(&mut seed, &chain, 3).await;
    let terms = given_terms(&mut seed, &app.operator).await;
    let player = given_player(&mut seed, &app.operator, 1, "p-1").await;
    (seed, chain, player, terms)
}

/// The month the service's clock is in now (`YYYY-MM`), and an instant inside it no later
/// than now: the open settlement period follows the real clock, not the fixtures' dates.
pub fn this_month() -> (String, OffsetDateTime) {
    let now = OffsetDateTime::now_utc();
    let start = now
        .replace_day(1)
        .expect("the first of a month")
        .replace_time(time::Time::MIDNIGHT);
    let period = format!("{:04}-{:02}", now.year(), u8::from(now.month()));
    (period, start + (now - start) / 2)
}
