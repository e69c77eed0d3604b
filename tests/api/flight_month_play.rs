//! A month of flight play (October 2026) for two operators, bulk-seeded straight into the
//! test database: a chain of flights played across the month (crash points derived with
//! the game's own rules), each operator's terms and players, and a few hundred tickets
//! each with a fixed-seed pseudo-random mix of lost, cashed-out, refunded and rejected
//! tickets whose stakes make the share's truncation matter. Tickets sit on the period's
//! first and last millisecond, on September's last and on November's first, and for the
//! first operator on both sides of a mid-month terms change.

use opinion_flight::{ChainLength, Salt, Seed, commitment, crash_point, seed_of_flight};
use opinion_testkit::{ChainSeed, FlightSeed, Seeder, TermsSeed, TicketSeed, UserSeed, ulid_at};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use crate::flight_reads_seed::ticket_id;
use crate::helpers::TestOperator;
use crate::trading_seed::{bits, user};

/// The period played.
pub const OCTOBER: OffsetDateTime = datetime!(2026-10-01 00:00 UTC);
/// The end of the period played (exclusive).
pub const NOVEMBER: OffsetDateTime = datetime!(2026-11-01 00:00 UTC);
/// When the first operator's second terms version takes effect: mid-month, a state the
/// staff command refuses to create (terms change on period boundaries only), seeded so
/// the month holds tickets of two frozen shares.
pub const CHANGE: OffsetDateTime = datetime!(2026-10-16 12:00 UTC);

/// How many flights the month's chain plays.
const FLIGHTS: u32 = 100;
/// The chain's id bits.
const CHAIN: u128 = 0x00a1_1ce0_2026_1000;
/// Its public salt.
const SALT: &str = "flight-month-salt-2026-10";
/// Hours between two boardings in the middle of the month.
const EVERY_HOURS: i64 = 6;
/// Random tickets per operator, on top of the boundary tickets.
const RANDOM_TICKETS: u32 = 320;

/// One operator's commercial terms as seeded: what the recomputation needs besides the
/// ticket export (the due days; the shares are read from each ticket).
#[derive(Debug, Clone, Copy)]
pub struct TermsPlan {
    /// The share before [`CHANGE`] (or all month when there is no change).
    pub share_bps: i32,
    /// The share from [`CHANGE`], if the operator's terms change mid-month.
    pub changed_bps: Option<i32>,
    /// Due days of the version in force before [`CHANGE`].
    pub due_days: i16,
    /// Due days of the version in force from [`CHANGE`].
    pub changed_due_days: i16,
}

impl TermsPlan {
    /// The share frozen by a ticket bought at `bought`.
    pub fn bps_at(&self, bought: OffsetDateTime) -> i32 {
        match self.changed_bps {
            Some(changed) if bought >= CHANGE => changed,
            _ => self.share_bps,
        }
    }

    /// The due days of the version in force at `instant`.
    pub fn due_days_at(&self, instant: OffsetDateTime) -> i16 {
        if self.changed_bps.is_some() && instant >= CHANGE {
            self.changed_due_days
        } else {
            self.due_days
        }
    }
}

/// The first operator: 15.00 %, due in 15 days, then 13.33 % due in 20 days from mid-October.
pub const TERMS_A: TermsPlan = TermsPlan {
    share_bps: 1_500,
    changed_bps: Some(1_333),
    due_days: 15,
    changed_due_days: 20,
};
/// The second operator: 7.25 %, due in 30 days.
pub const TERMS_B: TermsPlan = TermsPlan {
    share_bps: 725,
    changed_bps: None,
    due_days: 30,
    changed_due_days: 30,
};

/// What was seeded for one operator.
pub struct Played {
    /// The `tkt_…` ids of every ticket seeded for the operator.
    pub ticket_ids: Vec<String>,
}

/// A small fixed-seed generator (SplitMix64), so the month is the same on every run.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `low..=high`.
    fn between(&mut self, low: i64, high: i64) -> i64 {
        let span = u64::try_from(high - low + 1).expect("a range");
        low + i64::try_from(self.next() % span).expect("small")
    }
}

/// The month's chain: crash points derived from a fixed terminal seed.
struct MonthChain {
    terminal: Seed,
    length: ChainLength,
    salt: Salt,
}

impl MonthChain {
    fn new() -> Self {
        Self {
            terminal: Seed::from_bytes(*b"a month of flights, October 2026"),
            length: ChainLength::new(FLIGHTS).expect("a chain length"),
            salt: Salt::new(SALT).expect("a salt"),
        }
    }

    fn seed(&self, number: u32) -> Seed {
        seed_of_flight(&self.terminal, self.length, number).expect("a flight of the chain")
    }

    fn crash(&self, number: u32) -> i64 {
        i64::try_from(crash_point(&self.seed(number), &self.salt).hundredths()).expect("hundredths")
    }
}

/// When flight `number` boards: flight 1 just before October (it carries September's last
/// ticket and October's first), the last flight just before November (October's last
/// ticket and November's first), the others every six hours, three seconds before the
/// hour, so one boards across [`CHANGE`].
fn boarding_of(number: u32) -> OffsetDateTime {
    match number {
        1 => OCTOBER - Duration::seconds(3),
        FLIGHTS => NOVEMBER - Duration::seconds(3),
        n => OCTOBER + Duration::hours(EVERY_HOURS * i64::from(n - 1)) - Duration::seconds(3),
    }
}

fn flight_bits(number: u32) -> u128 {
    ulid_at(boarding_of(number), u16::try_from(number).expect("small"))
}

/// The month's flights, every one crashed.
pub async fn given_month_of_flights(seed: &mut Seeder) {
    let chain = MonthChain::new();
    seed.flight_chain(&ChainSeed {
        id: CHAIN,
        length: i32::try_from(FLIGHTS).expect("length"),
        salt: SALT.into(),
        commitment: commitment(&chain.terminal, chain.length).to_hex(),
        created_at: datetime!(2026-09-01 00:00 UTC),
    })
    .await;
    for number in 1..=FLIGHTS {
        seed.flight(&FlightSeed {
            id: flight_bits(number),
            chain: CHAIN,
            number: i32::try_from(number).expect("number"),
            phase: "crashed",
            crash_hundredths: chain.crash(number),
            boarding_at: boarding_of(number),
            revealed_seed: Some(chain.seed(number).to_hex()),
        })
        .await;
    }
}

/// One operator's month: its terms, players and tickets (every boundary ticket a report
/// line). `first_n` keeps ids of the two operators apart; `dice` is the operator's fixed
/// seed.
pub async fn given_month_of_play(
    seed: &mut Seeder,
    operator: &TestOperator,
    terms: TermsPlan,
    players: &[&str],
    first_n: u16,
    dice: u64,
) -> Played {
    let chain = MonthChain::new();
    let before = ulid_at(datetime!(2026-09-01 00:00 UTC), first_n) + bits(operator);
    seed.flight_terms_due(
        &TermsSeed {
            operator: bits(operator),
            id: before,
            share_bps: terms.share_bps,
            effective_from: datetime!(2026-09-01 00:00 UTC),
        },
        terms.due_days,
    )
    .await;
    let after = match terms.changed_bps {
        Some(changed) => {
            let id = ulid_at(CHANGE, first_n) + bits(operator);
            let version = TermsSeed {
                operator: bits(operator),
                id,
                share_bps: changed,
                effective_from: CHANGE,
            };
            seed.flight_terms_due(&version, terms.changed_due_days).await;
            id
        }
        None => before,
    };
    let users: Vec<UserSeed> = players
        .iter()
        .zip(first_n..)
        .map(|(external, n)| user(operator, n, external, datetime!(2026-09-01 00:00 UTC)))
        .collect();
    for player in &users {
        seed.user(player).await;
    }

    let mut dice = Dice(dice);
    let mut n = first_n;
    let mut ticket_ids = Vec::new();
    let mut place = |number: u32, bought: OffsetDateTime, player: &UserSeed, dice: &mut Dice| {
        n += 1;
        let id = ulid_at(bought, n);
        ticket_ids.push(ticket_id(id));
        let bps = terms.bps_at(bought);
        ticket(
            id,
            number,
            bought,
            player,
            (bps, if bought >= CHANGE { after } else { before }),
            chain.crash(number),
            dice,
        )
    };
    let mut tickets = Vec::new();
    let boundaries = [
        (1, OCTOBER - Duration::milliseconds(1)),
        (1, OCTOBER),
        (FLIGHTS, NOVEMBER - Duration::milliseconds(1)),
        (FLIGHTS, NOVEMBER),
    ];
    for (i, (number, bought)) in boundaries.into_iter().enumerate() {
        let mut edge = place(number, bought, &users[i % users.len()], &mut dice);
        if edge.status == "rejected" {
            edge.status = "lost";
        }
        tickets.push(edge);
    }
    if terms.changed_bps.is_some() {
        let across = (1..FLIGHTS)
            .find(|number| boarding_of(*number) < CHANGE && CHANGE < boarding_of(*number) + Duration::seconds(5))
            .expect("a flight boarding across the change");
        for (i, bought) in [CHANGE - Duration::milliseconds(1), CHANGE].into_iter().enumerate() {
            tickets.push(place(across, bought, &users[i], &mut dice));
        }
    }
    for _ in 0..RANDOM_TICKETS {
        let number = u32::try_from(dice.between(2, i64::from(FLIGHTS) - 1)).expect("a flight");
        let bought = boarding_of(number) + Duration::milliseconds(dice.between(0, 4_999));
        let player = &users[usize::try_from(dice.next() % users.len() as u64).expect("small")];
        tickets.push(place(number, bought, player, &mut dice));
    }
    for ticket in &tickets {
        seed.flight_ticket(ticket).await;
    }
    Played { ticket_ids }
}

/// A stake whose share rarely comes out whole: mostly odd amounts, some large, a few round.
fn stake(dice: &mut Dice) -> i64 {
    match dice.between(0, 99) {
        0..=4 => 10_000,
        5..=74 => dice.between(1_000, 99_999),
        _ => dice.between(100_000, 2_500_000),
    }
}

/// One ticket: refunded (about 6 %), refunding (2 %), rejected (2 %), cashed out (45 %,
/// when the flight's crash allows one) or lost.
fn ticket(
    id: u128,
    number: u32,
    bought: OffsetDateTime,
    player: &UserSeed,
    (share_bps, terms): (i32, u128),
    crash: i64,
    dice: &mut Dice,
) -> TicketSeed {
    let stake = stake(dice);
    let roll = dice.between(0, 99);
    let mut seeded = TicketSeed {
        operator: player.operator,
        id,
        flight: flight_bits(number),
        user: player.id,
        external_user_id: player.external_user_id.clone(),
        stake,
        auto_cash_out: None,
        status: "lost",
        terms,
        share_bps,
        cash_out: None,
        payout: None,
        refund_reason: None,
        created_at: bought,
    };
    match roll {
        0..=5 => {
            seeded.status = "refunded";
            seeded.refund_reason = Some(if roll % 2 == 0 {
                "flight_cancelled"
            } else {
                "boarding_closed"
            });
        }
        6..=7 => {
            seeded.status = "refunding";
            seeded.refund_reason = Some("flight_cancelled");
        }
        8..=9 => seeded.status = "rejected",
        10..=54 if crash >= 101 => {
            let multiplier = dice.between(101, crash.min(1_500));
            seeded.status = "cashed_out";
            seeded.auto_cash_out = (roll % 2 == 0).then_some(multiplier);
            seeded.cash_out = Some(multiplier);
            seeded.payout = Some(stake * multiplier / 100);
        }
        _ => seeded.auto_cash_out = (roll % 3 == 0).then_some(crash + dice.between(1, 300)),
    }
    seeded
}
