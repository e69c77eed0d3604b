//! An event in the outbox with one pending delivery to an existing endpoint, for reads
//! of the delivery log whose events the running service does not emit by itself.

use diesel::sql_query;
use diesel::sql_types::{Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;

use crate::seed::{Seeder, uuid};

/// An event and its pending delivery.
#[derive(Debug, Clone)]
pub struct DeliverySeed {
    /// The `operator_id` column of both.
    pub operator: u128,
    /// The endpoint's id bits.
    pub endpoint: u128,
    /// The event's id bits.
    pub event: u128,
    /// The delivery's id bits.
    pub delivery: u128,
    /// The event's type (`mini_app.flight.ticket.lost`, …).
    pub event_type: &'static str,
    /// When both were created; the delivery is due then.
    pub created_at: OffsetDateTime,
}

impl Seeder {
    /// Inserts an event (empty data) and its pending delivery.
    pub async fn event_delivery(&mut self, seed: &DeliverySeed) -> &mut Self {
        sql_query(
            "INSERT INTO webhook_events (operator_id, id, event_type, data, created_at) VALUES ($1, $2, $3, '{}', $4)",
        )
        .bind::<SqlUuid, _>(uuid(seed.operator))
        .bind::<SqlUuid, _>(uuid(seed.event))
        .bind::<Text, _>(seed.event_type)
        .bind::<Timestamptz, _>(seed.created_at)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting event {seed:?}: {err}"));
        sql_query(
            "INSERT INTO webhook_deliveries (operator_id, id, endpoint_id, event_id, event_type, status, \
             next_attempt_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6, $6)",
        )
        .bind::<SqlUuid, _>(uuid(seed.operator))
        .bind::<SqlUuid, _>(uuid(seed.delivery))
        .bind::<SqlUuid, _>(uuid(seed.endpoint))
        .bind::<SqlUuid, _>(uuid(seed.event))
        .bind::<Text, _>(seed.event_type)
        .bind::<Timestamptz, _>(seed.created_at)
        .execute(&mut self.conn)
        .await
        .unwrap_or_else(|err| panic!("inserting delivery {seed:?}: {err}"));
        self
    }
}
