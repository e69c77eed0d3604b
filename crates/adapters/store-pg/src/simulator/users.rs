//! Simulated users of the staging simulator: one row per user, its wallet balance and
//! its queue of faults in the same row, changed only over the revision read.

use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};
use opinion_app::model::{SimulatedFault, SimulatedUser};
use opinion_app::ports::StoreError;
use opinion_core::{OperatorId, Page, PageRequest, SimulatorUserId, SimulatorUserKind};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::error::{corrupt, from_diesel, parsed};
use crate::db::ids::{id_of, uuid_of};
use crate::db::keyset_page::keyset_page;
use crate::db::pool::PgStore;
use crate::db::schema::simulator_users;

/// A `simulator_users` row, read and written whole.
#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = simulator_users, check_for_backend(diesel::pg::Pg), treat_none_as_null = true)]
pub(crate) struct SimulatedUserRow {
    operator_id: Uuid,
    id: Uuid,
    external_user_id: String,
    display_name: Option<String>,
    currency: String,
    starting_balance: i64,
    balance: i64,
    disabled: bool,
    faults: serde_json::Value,
    revision: i64,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

impl SimulatedUserRow {
    fn from_record(user: &SimulatedUser) -> Result<Self, StoreError> {
        let faults =
            serde_json::to_value(&user.faults).map_err(|e| corrupt("simulator_users", uuid_of(user.id), &e))?;
        Ok(Self {
            operator_id: uuid_of(user.operator_id),
            id: uuid_of(user.id),
            external_user_id: user.external_user_id.clone(),
            display_name: user.display_name.clone(),
            currency: user.currency.as_str().to_owned(),
            starting_balance: user.starting_balance,
            balance: user.balance,
            disabled: user.disabled,
            faults,
            revision: user.revision,
            created_at: user.created_at,
            updated_at: user.updated_at,
        })
    }

    pub(crate) fn into_record(self) -> Result<SimulatedUser, StoreError> {
        let bad = |problem: &dyn std::fmt::Display| corrupt("simulator_users", self.id, problem);
        let faults: Vec<SimulatedFault> = serde_json::from_value(self.faults.clone()).map_err(|e| bad(&e))?;
        Ok(SimulatedUser {
            id: id_of(self.id),
            operator_id: id_of(self.operator_id),
            currency: parsed("simulator_users", self.id, &self.currency)?,
            external_user_id: self.external_user_id,
            display_name: self.display_name,
            starting_balance: self.starting_balance,
            balance: self.balance,
            disabled: self.disabled,
            faults,
            revision: self.revision,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

impl PgStore {
    /// Takes the first queued fault of the player in one statement-pair transaction.
    pub(crate) async fn pop_fault(
        &self,
        operator: OperatorId,
        external_user_id: &str,
    ) -> Result<Option<SimulatedFault>, StoreError> {
        let mut conn = self.conn().await?;
        let operator = uuid_of(operator);
        let external = external_user_id.to_owned();
        let faults: Option<serde_json::Value> = conn
            .transaction::<_, diesel::result::Error, _>(async |conn| {
                let row = simulator_users::table
                    .filter(simulator_users::operator_id.eq(operator))
                    .filter(simulator_users::external_user_id.eq(&external))
                    .select((simulator_users::id, simulator_users::faults))
                    .for_update()
                    .first::<(Uuid, serde_json::Value)>(conn)
                    .await
                    .optional()?;
                let Some((id, serde_json::Value::Array(mut queue))) = row else {
                    return Ok(None);
                };
                if queue.is_empty() {
                    return Ok(None);
                }
                let first = queue.remove(0);
                diesel::update(simulator_users::table.find((operator, id)))
                    .set((
                        simulator_users::faults.eq(serde_json::Value::Array(queue)),
                        simulator_users::revision.eq(simulator_users::revision + 1),
                    ))
                    .execute(conn)
                    .await?;
                Ok(Some(first))
            })
            .await
            .map_err(from_diesel)?;
        faults
            .map(|fault| serde_json::from_value(fault).map_err(|e| corrupt("simulator_users", operator, &e)))
            .transpose()
    }

    /// The simulated users of `operator`, newest first.
    pub(crate) async fn simulated_users_page(
        &self,
        operator: OperatorId,
        page: PageRequest<SimulatorUserKind>,
    ) -> Result<Page<SimulatedUser, SimulatorUserKind>, StoreError> {
        let mut query = simulator_users::table
            .filter(simulator_users::operator_id.eq(uuid_of(operator)))
            .select(SimulatedUserRow::as_select())
            .order(simulator_users::id.desc())
            .into_boxed();
        if let Some(after) = page.after {
            query = query.filter(simulator_users::id.lt(uuid_of(after.position())));
        }
        let mut conn = self.conn().await?;
        let rows = keyset_page(query, &page).load(&mut conn).await.map_err(from_diesel)?;
        let users = rows
            .into_iter()
            .map(SimulatedUserRow::into_record)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Page::from_overfetch(users, page.limit, |user| user.id))
    }

    /// Inserts a simulated user.
    pub(crate) async fn insert_simulated(&self, user: &SimulatedUser) -> Result<(), StoreError> {
        let row = SimulatedUserRow::from_record(user)?;
        let mut conn = self.conn().await?;
        diesel::insert_into(simulator_users::table)
            .values(&row)
            .execute(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(())
    }

    /// One simulated user, by id or by the operator's id of the player.
    pub(crate) async fn find_simulated(
        &self,
        operator: OperatorId,
        which: Result<SimulatorUserId, &str>,
    ) -> Result<Option<SimulatedUser>, StoreError> {
        let mut query = simulator_users::table
            .filter(simulator_users::operator_id.eq(uuid_of(operator)))
            .select(SimulatedUserRow::as_select())
            .into_boxed();
        query = match which {
            Ok(id) => query.filter(simulator_users::id.eq(uuid_of(id))),
            Err(external) => query.filter(simulator_users::external_user_id.eq(external.to_owned())),
        };
        let mut conn = self.conn().await?;
        let row = query.first(&mut conn).await.optional().map_err(from_diesel)?;
        row.map(SimulatedUserRow::into_record).transpose()
    }

    /// Writes a simulated user over the revision `expected`.
    pub(crate) async fn update_simulated(&self, user: &SimulatedUser, expected: i64) -> Result<bool, StoreError> {
        let row = SimulatedUserRow::from_record(user)?;
        let mut conn = self.conn().await?;
        let written = diesel::update(
            simulator_users::table
                .find((row.operator_id, row.id))
                .filter(simulator_users::revision.eq(expected)),
        )
        .set(&row)
        .execute(&mut conn)
        .await
        .map_err(from_diesel)?;
        Ok(written == 1)
    }
}
