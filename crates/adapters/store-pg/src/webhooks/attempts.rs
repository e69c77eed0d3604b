//! `WebhookStore`, recording an attempt: the attempt's log row, the delivery's new state
//! and attempt count in one update (the state only while the worker's claim holds, for a
//! scheduled attempt), the endpoint's failure streak when it changed, and, when the
//! attempt disables the endpoint, its other pending deliveries cancelled and
//! `mini_app.webhook_endpoint.disabled` enqueued: all in one transaction.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, RunQueryDsl};
use opinion_app::model::AttemptReport;
use opinion_app::ports::StoreError;
use opinion_webhook::DeliveryStatus;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::pool::PgStore;
use crate::db::prepared::prepared;
use crate::db::schema::{webhook_attempts, webhook_deliveries, webhook_endpoints};
use crate::webhooks::endpoints::cancel_pending;
use crate::webhooks::outbox::enqueue_events;
use crate::webhooks::rows::AttemptRow;

impl PgStore {
    pub(crate) async fn record_attempt_rows(&self, report: &AttemptReport) -> Result<(), StoreError> {
        let operator = uuid_of(report.operator_id);
        let delivery = uuid_of(report.delivery_id);
        let endpoint = uuid_of(report.endpoint_id);
        let at = report.attempt.started_at;
        let mut conn = self.conn().await?;
        conn.transaction::<_, DieselError, _>(async |conn| {
            let this = webhook_deliveries::table.find((operator, delivery));
            let changed = match report.delivery {
                Some((status, next_attempt_at)) => {
                    let pending = this.filter(webhook_deliveries::status.eq("pending"));
                    let changes = (
                        webhook_deliveries::attempt_count.eq(webhook_deliveries::attempt_count + 1),
                        webhook_deliveries::status.eq(status.as_str()),
                        webhook_deliveries::next_attempt_at.eq(next_attempt_at),
                        webhook_deliveries::lease_token.eq(None::<Uuid>),
                        webhook_deliveries::lease_expires_at.eq(None::<OffsetDateTime>),
                        webhook_deliveries::updated_at.eq(at),
                    );
                    match report.lease {
                        // A scheduled attempt changes its delivery only while its claim holds.
                        Some(lease) => prepared(
                            diesel::update(pending.filter(webhook_deliveries::lease_token.eq(Uuid::from_u128(lease))))
                                .set((
                                    changes,
                                    webhook_deliveries::scheduled_attempts
                                        .eq(webhook_deliveries::scheduled_attempts + 1),
                                ))
                                .returning(webhook_deliveries::attempt_count),
                        )
                        .get_result(conn)
                        .await
                        .optional()?,
                        // A successful replay delivers whatever the delivery's state.
                        None if status == DeliveryStatus::Delivered => prepared(
                            diesel::update(this)
                                .set(changes)
                                .returning(webhook_deliveries::attempt_count),
                        )
                        .get_result(conn)
                        .await
                        .optional()?,
                        None => prepared(
                            diesel::update(pending)
                                .set(changes)
                                .returning(webhook_deliveries::attempt_count),
                        )
                        .get_result(conn)
                        .await
                        .optional()?,
                    }
                }
                None => None,
            };
            // The attempt is counted whether or not it could change its delivery.
            let number: i32 = match changed {
                Some(number) => number,
                None => {
                    prepared(
                        diesel::update(this)
                            .set(webhook_deliveries::attempt_count.eq(webhook_deliveries::attempt_count + 1))
                            .returning(webhook_deliveries::attempt_count),
                    )
                    .get_result(conn)
                    .await?
                }
            };
            prepared(diesel::insert_into(webhook_attempts::table).values(AttemptRow::new(
                operator,
                delivery,
                number,
                &report.attempt,
            )))
            .execute(conn)
            .await?;
            let endpoint_row = webhook_endpoints::table.find((operator, endpoint));
            let Some(disabling) = &report.disable else {
                // Written only when the streak changes: concurrent attempts at a healthy
                // endpoint then never queue on its row's lock.
                prepared(
                    diesel::update(
                        endpoint_row.filter(webhook_endpoints::failing_since.is_distinct_from(report.failing_since)),
                    )
                    .set(webhook_endpoints::failing_since.eq(report.failing_since)),
                )
                .execute(conn)
                .await?;
                return Ok(());
            };
            cancel_pending(conn, operator, endpoint, Some(delivery), disabling.at).await?;
            let disabled = diesel::update(endpoint_row.filter(webhook_endpoints::enabled))
                .set((
                    webhook_endpoints::failing_since.eq(report.failing_since),
                    webhook_endpoints::enabled.eq(false),
                    webhook_endpoints::disabled_reason.eq(disabling.reason.as_str()),
                    webhook_endpoints::updated_at.eq(disabling.at),
                ))
                .execute(conn)
                .await?;
            if disabled == 1 {
                enqueue_events(conn, std::slice::from_ref(&disabling.event)).await?;
            }
            Ok(())
        })
        .await
        .map_err(from_diesel)
    }
}
