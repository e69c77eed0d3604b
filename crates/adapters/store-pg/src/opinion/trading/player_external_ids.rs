//! The operator's id of a row's player (`users.external_user_id`), read as a correlated
//! subquery in the row's select list instead of a join. A list query then reads one
//! table: the planner walks its keyset index from the cursor and stops at the page, at
//! any depth, and the player is looked up for the page's rows alone. Joined instead, a
//! cursor range the planner underestimates turned a deep page into a hash join and sort
//! of every older row.

use diesel::dsl::auto_type;
use diesel::prelude::*;

use crate::db::schema::{redemptions, trades, users};

/// The external id of a trade's player; the foreign key guarantees there is one.
#[auto_type]
pub(crate) fn of_trade() -> _ {
    users::table
        .filter(users::operator_id.eq(trades::operator_id))
        .filter(users::id.eq(trades::user_id))
        .select(users::external_user_id)
        .single_value()
        .assume_not_null()
}

/// The external id of a redemption's player; the foreign key guarantees there is one.
#[auto_type]
pub(crate) fn of_redemption() -> _ {
    users::table
        .filter(users::operator_id.eq(redemptions::operator_id))
        .filter(users::id.eq(redemptions::user_id))
        .select(users::external_user_id)
        .single_value()
        .assume_not_null()
}
