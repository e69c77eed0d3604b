//! Creating a capped thing of an operator ([`OperatorCap`]): count and insert in one
//! transaction that first takes the operator's row, so two creations of one operator
//! take turns and can never pass the cap together. `FOR NO KEY UPDATE` leaves the row's
//! key-share locks alone, so every other write that references the operator goes on.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use opinion_access::OperatorCap;
use opinion_app::ports::StoreError;
use uuid::Uuid;

use crate::db::schema::operators;

/// Takes the operator's row until the transaction ends.
pub(crate) async fn take_operator(conn: &mut AsyncPgConnection, operator: Uuid) -> Result<(), DieselError> {
    operators::table
        .find(operator)
        .select(operators::id)
        .for_no_key_update()
        .first::<Uuid>(conn)
        .await
        .map(drop)
}

/// Whether one more fits beside the `held` ones.
pub(crate) fn has_room(cap: OperatorCap, held: i64) -> bool {
    held < i64::from(cap.limit())
}

/// The answer to a creation that was made (`true`) or found the cap full.
pub(crate) fn made_or_full(made: bool, cap: OperatorCap) -> Result<(), StoreError> {
    if made { Ok(()) } else { Err(StoreError::CapReached(cap)) }
}
