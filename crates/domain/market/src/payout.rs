//! What a resolved market pays each player.
//!
//! YES or NO: every share of the winning outcome pays one minor unit; losing shares pay
//! nothing. VOID: the market never happened, so each player gets back their net cost —
//! everything they paid in minus everything they took out — but never less than zero: a
//! player who already took out more than they put in (by selling at a profit) is owed
//! nothing, and clawing the excess back is not something a payout can do.
//!
//! VOID refunds are not covered by the `b·ln 2` bound on the maker's loss: after them the
//! maker is down exactly what the players with a negative net cost took out. A player who
//! bought early and sold to later buyers keeps that profit while those buyers get their
//! money back, and repeated rounds of this are unbounded.

use crate::{Outcome, Position, Resolution};

/// Minor units `position` is paid when its market resolves as `resolution`.
pub fn redemption(position: &Position, resolution: Resolution) -> i64 {
    match resolution {
        Resolution::Yes => position.holding(Outcome::Yes).shares,
        Resolution::No => position.holding(Outcome::No).shares,
        Resolution::Void => position.net_cost().max(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Holding;

    fn position(yes: i64, no: i64, realized_pnl: i64) -> Position {
        let holding = |shares| Holding {
            shares,
            cost_basis: shares / 2,
        };
        Position::from_parts(holding(yes), holding(no), realized_pnl).unwrap()
    }

    #[test]
    fn winners_are_paid_one_minor_unit_per_share() {
        let p = position(100, 40, 0);
        assert_eq!(redemption(&p, Resolution::Yes), 100);
        assert_eq!(redemption(&p, Resolution::No), 40);
        assert_eq!(redemption(&Position::default(), Resolution::Yes), 0);
    }

    #[test]
    fn void_refunds_net_cost() {
        // Basis 50 + 20, realized −5: paid in 75 more than taken out.
        assert_eq!(redemption(&position(100, 40, -5), Resolution::Void), 75);
    }

    #[test]
    fn void_never_charges_a_player_who_took_out_more() {
        // Basis 5, realized +30: net cost −25.
        let p = position(10, 0, 30);
        assert_eq!(p.net_cost(), -25);
        assert_eq!(redemption(&p, Resolution::Void), 0);
    }
}
