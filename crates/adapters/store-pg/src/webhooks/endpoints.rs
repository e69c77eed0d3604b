//! `WebhookStore`, endpoints: registration, reads, optimistic changes (which may cancel
//! pending deliveries and emit events in the same transaction) and deletion.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_access::OperatorCap;
use opinion_app::model::{EndpointUpdate, WebhookEndpoint};
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, Page, PageRequest, WebhookEndpointId, WebhookEndpointKind};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::caps::{has_room, made_or_full, take_operator};
use crate::db::error::from_diesel;
use crate::db::ids::uuid_of;
use crate::db::keyset_page::keyset_page;
use crate::db::pool::PgStore;
use crate::db::schema::{webhook_deliveries, webhook_endpoints};
use crate::webhooks::outbox::enqueue_events;
use crate::webhooks::rows::EndpointRow;

/// Cancels the endpoint's pending deliveries (except `keep`) at `at`. Run before the
/// endpoint's own row is updated, so every transaction locks deliveries before endpoints.
pub(crate) async fn cancel_pending(
    conn: &mut AsyncPgConnection,
    operator: Uuid,
    endpoint: Uuid,
    keep: Option<Uuid>,
    at: OffsetDateTime,
) -> Result<usize, DieselError> {
    diesel::update(
        webhook_deliveries::table
            .filter(webhook_deliveries::operator_id.eq(operator))
            .filter(webhook_deliveries::endpoint_id.eq(endpoint))
            .filter(webhook_deliveries::status.eq("pending"))
            .filter(webhook_deliveries::id.ne(keep.unwrap_or(Uuid::nil()))),
    )
    .set((
        webhook_deliveries::status.eq("cancelled"),
        webhook_deliveries::next_attempt_at.eq(None::<OffsetDateTime>),
        webhook_deliveries::updated_at.eq(at),
    ))
    .execute(conn)
    .await
}

/// Why an endpoint transaction was rolled back without a database error.
enum Abort {
    Database(DieselError),
    Stale,
}

impl From<DieselError> for Abort {
    fn from(error: DieselError) -> Self {
        Self::Database(error)
    }
}

impl PgStore {
    pub(crate) async fn insert_endpoint_row(&self, endpoint: &WebhookEndpoint) -> Result<(), StoreError> {
        let row = EndpointRow::sealed(endpoint, self.data_key()?)?;
        let operator = row.operator_id;
        let cap = OperatorCap::WebhookEndpoints;
        let mut conn = self.conn().await?;
        let made = conn
            .transaction::<_, DieselError, _>(async |conn| {
                take_operator(conn, operator).await?;
                let kept: i64 = webhook_endpoints::table
                    .filter(webhook_endpoints::operator_id.eq(operator))
                    .filter(webhook_endpoints::deleted_at.is_null())
                    .count()
                    .get_result(conn)
                    .await?;
                if !has_room(cap, kept) {
                    return Ok(false);
                }
                diesel::insert_into(webhook_endpoints::table)
                    .values(&row)
                    .execute(conn)
                    .await?;
                Ok(true)
            })
            .await
            .map_err(from_diesel)?;
        made_or_full(made, cap)
    }

    pub(crate) async fn find_endpoint_row(
        &self,
        operator: OperatorId,
        id: WebhookEndpointId,
    ) -> Result<Option<WebhookEndpoint>, StoreError> {
        let key = self.data_key()?;
        let mut conn = self.conn().await?;
        webhook_endpoints::table
            .find((uuid_of(operator), uuid_of(id)))
            .filter(webhook_endpoints::deleted_at.is_null())
            .select(EndpointRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?
            .map(|row| row.opened(key))
            .transpose()
    }

    pub(crate) async fn list_endpoint_rows(
        &self,
        operator: OperatorId,
        page: PageRequest<WebhookEndpointKind>,
    ) -> Result<Page<WebhookEndpoint, WebhookEndpointKind>, StoreError> {
        let mut query = webhook_endpoints::table
            .filter(webhook_endpoints::operator_id.eq(uuid_of(operator)))
            .filter(webhook_endpoints::deleted_at.is_null())
            .select(EndpointRow::as_select())
            .order(webhook_endpoints::id.desc())
            .into_boxed();
        if let Some(after) = page.after {
            query = query.filter(webhook_endpoints::id.lt(uuid_of(after.position())));
        }
        let key = self.data_key()?;
        let mut conn = self.conn().await?;
        let rows = keyset_page(query, &page).load(&mut conn).await.map_err(from_diesel)?;
        let records = rows
            .into_iter()
            .map(|row| row.opened(key))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Page::from_overfetch(records, page.limit, |endpoint| endpoint.id))
    }

    pub(crate) async fn update_endpoint_row(&self, update: &EndpointUpdate) -> Result<bool, StoreError> {
        let row = EndpointRow::sealed(&update.endpoint, self.data_key()?)?;
        let at = update.endpoint.updated_at;
        let mut conn = self.conn().await?;
        let result = conn
            .transaction::<_, Abort, _>(async |conn| {
                if update.cancel_pending {
                    cancel_pending(conn, row.operator_id, row.id, None, at).await?;
                }
                let target = webhook_endpoints::table
                    .find((row.operator_id, row.id))
                    .filter(webhook_endpoints::deleted_at.is_null())
                    .filter(webhook_endpoints::updated_at.eq(update.expected_updated_at));
                let changed = diesel::update(target).set(&row).execute(conn).await?;
                if changed == 0 {
                    return Err(Abort::Stale);
                }
                if update.reset_health {
                    diesel::update(webhook_endpoints::table.find((row.operator_id, row.id)))
                        .set(webhook_endpoints::failing_since.eq(None::<OffsetDateTime>))
                        .execute(conn)
                        .await?;
                }
                enqueue_events(conn, &update.events).await?;
                Ok(())
            })
            .await;
        match result {
            Ok(()) => Ok(true),
            Err(Abort::Stale) => Ok(false),
            Err(Abort::Database(error)) => Err(from_diesel(error)),
        }
    }

    pub(crate) async fn delete_endpoint_row(
        &self,
        operator: OperatorId,
        id: WebhookEndpointId,
        at: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        let (operator, id) = (uuid_of(operator), uuid_of(id));
        let mut conn = self.conn().await?;
        conn.transaction::<_, DieselError, _>(async |conn| {
            cancel_pending(conn, operator, id, None, at).await?;
            let deleted = diesel::update(
                webhook_endpoints::table
                    .find((operator, id))
                    .filter(webhook_endpoints::deleted_at.is_null()),
            )
            .set((
                webhook_endpoints::deleted_at.eq(at),
                webhook_endpoints::enabled.eq(false),
                webhook_endpoints::disabled_reason.eq("operator"),
                webhook_endpoints::updated_at.eq(at),
            ))
            .execute(conn)
            .await?;
            Ok(deleted == 1)
        })
        .await
        .map_err(from_diesel)
    }
}
