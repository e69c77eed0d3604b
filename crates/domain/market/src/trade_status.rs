//! Where a trade and a redemption are in their life, as stored and shown to operators.
//!
//! A trade is `pending` while its wallet call is in flight, `manual_review` when the
//! wallet's answer was ambiguous (only platform staff settle it), and ends `executed` or
//! `failed`. A redemption is `pending` until the wallet credits it, `manual_review` on an
//! ambiguous answer, and ends `paid` or `refused` (a definite refusal: money is still owed
//! and staff must arrange it with the operator).

use opinion_core::wire_enum;

wire_enum!(
    /// A trade's state.
    TradeStatus, "trade status" {
        /// The wallet call is in flight.
        Pending = "pending",
        /// The wallet's answer was ambiguous; platform staff settle it.
        ManualReview = "manual_review",
        /// Done: shares and money moved.
        Executed = "executed",
        /// Done: nothing moved for the player (a debit taken was given back).
        Failed = "failed",
    }
);

wire_enum!(
    /// A redemption's state.
    RedemptionStatus, "redemption status" {
        /// Waiting for the wallet to credit it.
        Pending = "pending",
        /// The wallet's answer was ambiguous; platform staff settle it.
        ManualReview = "manual_review",
        /// Credited.
        Paid = "paid",
        /// The wallet definitely refused the credit; the money is still owed.
        Refused = "refused",
    }
);

wire_enum!(
    /// How a player sized an order: a share count, or an amount to spend (buys only).
    OrderKind, "order kind" {
        /// A number of shares.
        Shares = "shares",
        /// An amount of minor units to spend.
        Amount = "amount",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_stable() {
        let trades: Vec<_> = TradeStatus::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(trades, ["pending", "manual_review", "executed", "failed"]);
        let redemptions: Vec<_> = RedemptionStatus::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(redemptions, ["pending", "manual_review", "paid", "refused"]);
        for status in TradeStatus::ALL {
            assert_eq!(status.as_str().parse::<TradeStatus>(), Ok(*status));
        }
        assert!("Executed".parse::<TradeStatus>().is_err());
        assert_eq!("amount".parse::<OrderKind>(), Ok(OrderKind::Amount));
    }
}
