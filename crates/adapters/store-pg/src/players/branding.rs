//! The operator's brand for PostgreSQL: one `operator_branding` row, replaced whole by an
//! upsert, read back through the domain's checks.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_app::model::OperatorBranding;
use opinion_app::ports::StoreError;
use opinion_core::OperatorId;
use opinion_launch::Branding;
use time::OffsetDateTime;

use crate::db::error::{corrupt, from_diesel};
use crate::db::ids::uuid_of;
use crate::db::schema::operator_branding as table;

/// One stored brand.
#[derive(Queryable)]
struct BrandingRow {
    name: String,
    logo_url: Option<String>,
    primary_color: String,
    accent_color: String,
    default_language: String,
    updated_at: OffsetDateTime,
}

/// The operator's brand, if it set one.
pub(crate) async fn find(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
) -> Result<Option<OperatorBranding>, StoreError> {
    let op = uuid_of(operator);
    let row: Option<BrandingRow> = table::table
        .find(op)
        .select((
            table::name,
            table::logo_url,
            table::primary_color,
            table::accent_color,
            table::default_language,
            table::updated_at,
        ))
        .first(conn)
        .await
        .optional()
        .map_err(from_diesel)?;
    row.map(|row| {
        let branding = Branding::parse(
            &row.name,
            row.logo_url.as_deref(),
            &row.primary_color,
            &row.accent_color,
            &row.default_language,
        )
        .map_err(|problem| corrupt("operator_branding", op, &problem))?;
        Ok(OperatorBranding {
            operator_id: operator,
            branding,
            updated_at: Some(row.updated_at),
        })
    })
    .transpose()
}

/// Writes the operator's brand over the old one, as changed `at`.
pub(crate) async fn replace(
    conn: &mut AsyncPgConnection,
    operator: OperatorId,
    brand: &Branding,
    at: OffsetDateTime,
) -> Result<(), StoreError> {
    let values = (
        table::name.eq(brand.name.as_str()),
        table::logo_url.eq(brand.logo_url.as_ref().map(|logo| logo.as_str())),
        table::primary_color.eq(brand.primary_color.to_string()),
        table::accent_color.eq(brand.accent_color.to_string()),
        table::default_language.eq(brand.default_language.as_str()),
        table::updated_at.eq(at),
    );
    diesel::insert_into(table::table)
        .values((table::operator_id.eq(uuid_of(operator)), values.clone()))
        .on_conflict(table::operator_id)
        .do_update()
        .set(values)
        .execute(conn)
        .await
        .map_err(from_diesel)?;
    Ok(())
}
