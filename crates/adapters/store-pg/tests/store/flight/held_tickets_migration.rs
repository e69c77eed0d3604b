//! The migration that introduced the tickets each player holds fills them from the
//! tickets already sold: each player's latest flight, its tickets there but the rejected
//! ones; and its reversal puts the player's index back.

use diesel::QueryableByName;
use diesel::sql_types::{SmallInt, Text};
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use opinion_testkit::TestDatabase;

use super::*;

/// The workspace's migrations, as the store embeds them.
const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../../migrations");

/// The migration under test.
const HELD_TICKETS: &str = "20261206000150";

/// One operator with players `a`, `b` and `c`, its terms and a chain; flight 1 crashed
/// and flight 2 boarding. Player `a` holds two tickets on flight 1, then one ticket and
/// one rejected on flight 2; player `b` three on flight 1 only; player `c` none.
const SEED: &str = "
    INSERT INTO operators (id, name, created_at, currency)
    VALUES ('00000000-0000-0000-0000-000000000001', 'Operator', now(), 'IDR');
    INSERT INTO users (operator_id, id, external_user_id, created_at, last_launched_at)
    SELECT '00000000-0000-0000-0000-000000000001', gen_random_uuid(), p, now(), now()
    FROM unnest(ARRAY['a', 'b', 'c']) p;
    INSERT INTO flight_terms (operator_id, id, effective_from, share_bps, min_stake, max_stake, max_payout,
                              tickets_per_flight, settlement_period, payment_due_days, created_at, created_by)
    SELECT id, id, now(), 1000, 1000, 100000, 1000000, 10, 'calendar_month', 14, now(), 'staff' FROM operators;
    INSERT INTO flight_chains (id, terminal_seed_sealed, length, salt, commitment, created_at)
    VALUES (gen_random_uuid(), 'v1.AAAA', 100, 'salt', repeat('a', 64), now());
    INSERT INTO flights (id, chain_id, number, phase, crash_hundredths, boarding_at, take_off_at, crash_at,
                         revealed_seed, crashed_at)
    SELECT gen_random_uuid(), id, 1, 'crashed', 250, now() - interval '2 minutes',
           now() - interval '110 seconds', now() - interval '100 seconds', repeat('b', 64),
           now() - interval '100 seconds'
    FROM flight_chains;
    INSERT INTO flights (id, chain_id, number, phase, crash_hundredths, boarding_at, take_off_at, crash_at)
    SELECT gen_random_uuid(), id, 2, 'boarding', 250, now(), now() + interval '10 seconds',
           now() + interval '20 seconds'
    FROM flight_chains;
    INSERT INTO flight_tickets (operator_id, id, flight_id, user_id, external_user_id, client_ticket_id,
                                stake, status, terms_id, share_bps, max_payout, purchase_operation_id,
                                created_at, updated_at)
    SELECT u.operator_id, gen_random_uuid(), f.id, u.id, u.external_user_id, gen_random_uuid()::text,
           1000, sold.status, u.operator_id, 1000, 1000000, gen_random_uuid(), now(), now()
    FROM (VALUES ('a', 1, 'lost'), ('a', 1, 'lost'), ('a', 2, 'active'), ('a', 2, 'rejected'),
                 ('b', 1, 'lost'), ('b', 1, 'lost'), ('b', 1, 'lost')) sold (player, flight, status)
    JOIN users u ON u.external_user_id = sold.player
    JOIN flights f ON f.number = sold.flight;
";

/// A player's row of tickets held.
#[derive(QueryableByName, Debug, PartialEq)]
struct Held {
    #[diesel(sql_type = Text)]
    player: String,
    #[diesel(sql_type = SmallInt)]
    flight: i16,
    #[diesel(sql_type = SmallInt)]
    held: i16,
}

/// Reverts the migrations down to before the one under test (`true`), or runs the
/// pending ones again (`false`).
async fn migrate(url: &str, revert: bool) {
    let url = url.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut conn =
            <AsyncConnectionWrapper<AsyncPgConnection> as diesel::Connection>::establish(&url).expect("connect");
        if revert {
            while conn
                .applied_migrations()
                .expect("applied")
                .iter()
                .any(|version| version.to_string() == HELD_TICKETS)
            {
                conn.revert_last_migration(MIGRATIONS).expect("revert");
            }
        } else {
            conn.run_pending_migrations(MIGRATIONS).expect("migrate");
        }
    })
    .await
    .expect("migration task");
}

#[tokio::test]
async fn the_tickets_held_are_filled_from_each_players_latest_flight() {
    let db = TestDatabase::create().await;
    migrate(db.url(), true).await;
    let mut conn = AsyncPgConnection::establish(db.url()).await.expect("connect");
    conn.batch_execute(SEED).await.expect("seed");
    let player_index = count(
        &db,
        "SELECT count(*) AS count FROM pg_indexes WHERE indexname = 'flight_tickets_of_player'",
    )
    .await;

    migrate(db.url(), false).await;

    let held: Vec<Held> = diesel::sql_query(
        "SELECT u.external_user_id AS player, f.number::smallint AS flight, h.held \
         FROM flight_held_tickets h JOIN users u ON u.operator_id = h.operator_id AND u.id = h.user_id \
         JOIN flights f ON f.id = h.flight_id ORDER BY 1",
    )
    .load(&mut conn)
    .await
    .expect("held");
    assert_eq!(player_index, 1, "reverting puts the player's index back");
    assert_eq!(
        held,
        [
            Held {
                player: "a".into(),
                flight: 2,
                held: 1
            },
            Held {
                player: "b".into(),
                flight: 1,
                held: 3
            },
        ]
    );
}
