//! `LaunchSettingsStore` for PostgreSQL: an operator's frame origins in its
//! `launch_settings` row, its hosts one row each in `launch_hosts`, keyed by host so a
//! request's host finds its operator with one indexed read; the operator's brand
//! (`branding.rs`).

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use opinion_app::model::{LaunchSettings, LaunchSite, OperatorBranding};
use opinion_app::players::ports::{LaunchSettingsStore, LaunchSettingsWrite};
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;
use opinion_launch::{Branding, FrameOrigin, FrameOrigins, LaunchHost, LaunchHosts};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::{corrupt, from_diesel};
use crate::db::ids::{id_of, uuid_of};
use crate::db::pool::PgStore;
use crate::db::schema::{launch_hosts, launch_settings};
use crate::players::branding;

#[async_trait]
impl LaunchSettingsStore for PgStore {
    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn find_launch_settings(&self, operator: OperatorId) -> Result<Option<LaunchSettings>, StoreError> {
        let op = uuid_of(operator);
        let mut conn = self.conn().await?;
        let found: Option<(Vec<String>, OffsetDateTime)> = launch_settings::table
            .find(op)
            .select((launch_settings::frame_origins, launch_settings::updated_at))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        let Some((origins, updated_at)) = found else {
            return Ok(None);
        };
        let hosts: Vec<String> = launch_hosts::table
            .filter(launch_hosts::operator_id.eq(op))
            .order(launch_hosts::position)
            .select(launch_hosts::host)
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(Some(LaunchSettings {
            operator_id: operator,
            hosts: LaunchHosts::from_checked(checked(op, &hosts, LaunchHost::parse)?),
            frame_origins: frame_origins_of(op, &origins)?,
            updated_at: Some(updated_at),
        }))
    }

    #[tracing::instrument(skip_all, fields(operator_id = %settings.operator_id))]
    async fn replace_launch_settings(
        &self,
        settings: &LaunchSettings,
        at: OffsetDateTime,
    ) -> Result<LaunchSettingsWrite, StoreError> {
        let op = uuid_of(settings.operator_id);
        let hosts: Vec<&str> = settings.hosts.as_slice().iter().map(LaunchHost::as_str).collect();
        let origins: Vec<&str> = settings
            .frame_origins
            .as_slice()
            .iter()
            .map(FrameOrigin::as_str)
            .collect();
        let mut conn = self.conn().await?;
        conn.transaction::<_, DieselError, _>(async |conn| {
            if let Some(taken) = host_of_another_operator(conn, op, &hosts).await? {
                return Ok(Err(taken));
            }
            diesel::insert_into(launch_settings::table)
                .values((
                    launch_settings::operator_id.eq(op),
                    launch_settings::frame_origins.eq(&origins),
                    launch_settings::updated_at.eq(at),
                ))
                .on_conflict(launch_settings::operator_id)
                .do_update()
                .set((
                    launch_settings::frame_origins.eq(&origins),
                    launch_settings::updated_at.eq(at),
                ))
                .execute(conn)
                .await?;
            diesel::delete(launch_hosts::table.filter(launch_hosts::operator_id.eq(op)))
                .execute(conn)
                .await?;
            let rows: Vec<_> = hosts
                .iter()
                .zip(0_i16..)
                .map(|(host, position)| {
                    (
                        launch_hosts::host.eq(*host),
                        launch_hosts::operator_id.eq(op),
                        launch_hosts::position.eq(position),
                    )
                })
                .collect();
            diesel::insert_into(launch_hosts::table)
                .values(&rows)
                .execute(conn)
                .await?;
            Ok(Ok(()))
        })
        .await
        .map_err(from_diesel)?
        .map_or_else(
            |taken| {
                LaunchHost::parse(&taken)
                    .map(LaunchSettingsWrite::HostTaken)
                    .map_err(|problem| corrupt("launch_hosts", op, &problem))
            },
            |()| Ok(LaunchSettingsWrite::Saved),
        )
    }

    #[tracing::instrument(skip_all, fields(host = %host))]
    async fn find_launch_site(&self, host: &LaunchHost) -> Result<Option<LaunchSite>, StoreError> {
        let mut conn = self.conn().await?;
        let found: Option<(Uuid, Vec<String>)> = launch_hosts::table
            .inner_join(launch_settings::table.on(launch_settings::operator_id.eq(launch_hosts::operator_id)))
            .filter(launch_hosts::host.eq(host.as_str()))
            .select((launch_hosts::operator_id, launch_settings::frame_origins))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        found
            .map(|(op, origins)| {
                Ok(LaunchSite {
                    operator_id: id_of(op),
                    frame_origins: frame_origins_of(op, &origins)?,
                })
            })
            .transpose()
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn find_branding(&self, operator: OperatorId) -> Result<Option<OperatorBranding>, StoreError> {
        branding::find(&mut *self.conn().await?, operator).await
    }

    #[tracing::instrument(skip_all, fields(operator_id = %operator))]
    async fn replace_branding(
        &self,
        operator: OperatorId,
        brand: &Branding,
        at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        branding::replace(&mut *self.conn().await?, operator, brand, at).await
    }
}

/// The first of `hosts` that another operator already has, looked up inside the
/// replacing transaction. A concurrent claim of the same host still loses to the
/// primary key, as a `Duplicate`.
async fn host_of_another_operator(
    conn: &mut AsyncPgConnection,
    op: Uuid,
    hosts: &[&str],
) -> Result<Option<String>, DieselError> {
    if hosts.is_empty() {
        return Ok(None);
    }
    launch_hosts::table
        .filter(launch_hosts::host.eq_any(hosts))
        .filter(launch_hosts::operator_id.ne(op))
        .select(launch_hosts::host)
        .first(conn)
        .await
        .optional()
}

fn frame_origins_of(op: Uuid, origins: &[String]) -> Result<FrameOrigins, StoreError> {
    Ok(FrameOrigins::from_checked(checked(op, origins, FrameOrigin::parse)?))
}

/// Stored texts parsed back by the domain; one it refuses is a corrupt row.
fn checked<T, E: std::fmt::Display>(
    op: Uuid,
    texts: &[String],
    parse: impl Fn(&str) -> Result<T, E>,
) -> Result<Vec<T>, StoreError> {
    texts
        .iter()
        .map(|text| parse(text).map_err(|problem| corrupt("launch_settings", op, &problem)))
        .collect()
}
