//! `WebhookStore`, the delivery log: filtered keyset pages of deliveries with their
//! attempts, and the targets attempts are made at.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::{AttemptRecord, DeliveryFilter, DeliveryRecord, StoredEvent};
use opinion_app::ports::StoreError;
use opinion_app::webhooks::store::ReplayTarget;
use opinion_core::{EventId, OperatorId, Page, PageRequest, WebhookDeliveryId, WebhookDeliveryKind};
use uuid::Uuid;

use crate::db::error::from_diesel;
use crate::db::ids::{first_ulid_at, uuid_of};
use crate::db::keyset_page::keyset_page;
use crate::db::pool::PgStore;
use crate::db::schema::{webhook_attempts, webhook_deliveries, webhook_events};
use crate::webhooks::rows::{AttemptRow, DeliveryRow, EventRow};
use crate::webhooks::targets::{load_targets, targets_of};

/// The attempts of `deliveries`, grouped by delivery, oldest first.
async fn attempts_of(
    conn: &mut AsyncPgConnection,
    operator: Uuid,
    deliveries: &[Uuid],
) -> Result<HashMap<Uuid, Vec<AttemptRecord>>, StoreError> {
    let rows: Vec<AttemptRow> = webhook_attempts::table
        .filter(webhook_attempts::operator_id.eq(operator))
        .filter(webhook_attempts::delivery_id.eq_any(deliveries))
        .order((webhook_attempts::delivery_id, webhook_attempts::number))
        .select(AttemptRow::as_select())
        .load(conn)
        .await
        .map_err(from_diesel)?;
    let mut grouped: HashMap<Uuid, Vec<AttemptRecord>> = HashMap::new();
    for row in rows {
        let delivery = row.delivery_id;
        grouped.entry(delivery).or_default().push(row.into_record()?);
    }
    Ok(grouped)
}

impl PgStore {
    pub(crate) async fn list_delivery_rows(
        &self,
        operator: OperatorId,
        filter: &DeliveryFilter,
        page: PageRequest<WebhookDeliveryKind>,
    ) -> Result<Page<DeliveryRecord, WebhookDeliveryKind>, StoreError> {
        let operator = uuid_of(operator);
        let mut query = webhook_deliveries::table
            .filter(webhook_deliveries::operator_id.eq(operator))
            .select(DeliveryRow::as_select())
            .order(webhook_deliveries::id.desc())
            .into_boxed();
        if let Some(after) = page.after {
            query = query.filter(webhook_deliveries::id.lt(uuid_of(after.position())));
        }
        if let Some(endpoint) = filter.endpoint_id {
            query = query.filter(webhook_deliveries::endpoint_id.eq(uuid_of(endpoint)));
        }
        if let Some(event_type) = filter.event_type {
            query = query.filter(webhook_deliveries::event_type.eq(event_type.as_str()));
        }
        if let Some(event_types) = &filter.event_types {
            let names: Vec<&str> = event_types.iter().map(|event_type| event_type.as_str()).collect();
            query = query.filter(webhook_deliveries::event_type.eq_any(names));
        }
        if let Some(status) = filter.status {
            query = query.filter(webhook_deliveries::status.eq(status.as_str()));
        }
        if let Some(from) = filter.created_from {
            query = query
                .filter(webhook_deliveries::id.ge(first_ulid_at(from)))
                .filter(webhook_deliveries::created_at.ge(from));
        }
        if let Some(before) = filter.created_before {
            let next_millisecond = before + time::Duration::milliseconds(1);
            query = query
                .filter(webhook_deliveries::id.lt(first_ulid_at(next_millisecond)))
                .filter(webhook_deliveries::created_at.lt(before));
        }
        let mut conn = self.conn().await?;
        let rows = keyset_page(query, &page).load(&mut conn).await.map_err(from_diesel)?;
        let ids: Vec<Uuid> = rows.iter().map(|row| row.id).collect();
        let mut attempts = attempts_of(&mut conn, operator, &ids).await?;
        let records = rows
            .into_iter()
            .map(|row| {
                let own = attempts.remove(&row.id).unwrap_or_default();
                row.into_record(own)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Page::from_overfetch(records, page.limit, |delivery| delivery.id))
    }

    pub(crate) async fn find_delivery_row(
        &self,
        operator: OperatorId,
        id: WebhookDeliveryId,
    ) -> Result<Option<DeliveryRecord>, StoreError> {
        let (operator, id) = (uuid_of(operator), uuid_of(id));
        let mut conn = self.conn().await?;
        let row = webhook_deliveries::table
            .find((operator, id))
            .select(DeliveryRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let mut attempts = attempts_of(&mut conn, operator, &[id]).await?;
        row.into_record(attempts.remove(&id).unwrap_or_default()).map(Some)
    }

    pub(crate) async fn find_event_row(
        &self,
        operator: OperatorId,
        id: EventId,
    ) -> Result<Option<StoredEvent>, StoreError> {
        let mut conn = self.conn().await?;
        webhook_events::table
            .find((uuid_of(operator), uuid_of(id)))
            .select(EventRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?
            .map(EventRow::into_record)
            .transpose()
    }

    pub(crate) async fn replay_target(
        &self,
        operator: OperatorId,
        id: WebhookDeliveryId,
    ) -> Result<Option<ReplayTarget>, StoreError> {
        let mut conn = self.conn().await?;
        let rows = load_targets(&mut conn, &[uuid_of(operator)], &[uuid_of(id)])
            .await
            .map_err(from_diesel)?;
        let loaded = targets_of(rows, self.data_key()?)?;
        loaded
            .into_iter()
            .next()
            .map(|(target, endpoint_active, rate_limit)| {
                Ok(ReplayTarget {
                    target,
                    endpoint_active,
                    rate_limit,
                })
            })
            .transpose()
    }
}
