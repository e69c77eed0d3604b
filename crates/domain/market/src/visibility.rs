//! Which markets an operator's players are offered: the operator's visibility mode
//! combined with its per-market choices. One rule, here, for every read, the hosted app,
//! trading and the visibility events.
//!
//! - `blocklist` (the default): a market is shown until the operator hides it;
//! - `allowlist`: a market is hidden until the operator shows it, so a new market
//!   reaches no player before the operator allows it (phased or regulated launches);
//! - `all`: every market is shown; the per-market choices are kept, not applied, and
//!   count again as soon as the operator returns to a list mode.

use opinion_core::wire_enum;

wire_enum!(
    /// How an operator's per-market choices decide what its players are offered.
    #[derive(Default)]
    VisibilityMode, "visibility mode" {
        /// Every market is shown; the choices are kept but not applied.
        All = "all",
        /// Only the markets the operator showed are offered.
        Allowlist = "allowlist",
        /// Every market is offered but those the operator hid.
        #[default]
        Blocklist = "blocklist",
    }
);

wire_enum!(
    /// What an operator said of one market with the per-market switch.
    MarketChoice, "market choice" {
        /// Nothing yet: the mode decides.
        Unset = "unset",
        /// Shown: on the allowlist.
        Shown = "shown",
        /// Hidden: on the blocklist.
        Hidden = "hidden",
    }
);

impl MarketChoice {
    /// The choice the per-market switch records for `visible`.
    pub const fn from_visible(visible: bool) -> Self {
        if visible { Self::Shown } else { Self::Hidden }
    }
}

impl VisibilityMode {
    /// Whether a market with `choice` is offered to the operator's players.
    pub const fn shows(self, choice: MarketChoice) -> bool {
        match self {
            Self::All => true,
            Self::Allowlist => matches!(choice, MarketChoice::Shown),
            Self::Blocklist => !matches!(choice, MarketChoice::Hidden),
        }
    }

    /// The choices whose markets are offered, for a store to filter by.
    pub fn shown_choices(self) -> Vec<MarketChoice> {
        MarketChoice::ALL
            .iter()
            .copied()
            .filter(|choice| self.shows(*choice))
            .collect()
    }

    /// The choices whose markets are not offered.
    pub fn hidden_choices(self) -> Vec<MarketChoice> {
        MarketChoice::ALL
            .iter()
            .copied()
            .filter(|choice| !self.shows(*choice))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{MarketChoice, VisibilityMode};

    /// The choice left by a sequence of per-market switches (`true` shows).
    fn after(switches: &[bool]) -> MarketChoice {
        switches
            .last()
            .map_or(MarketChoice::Unset, |visible| MarketChoice::from_visible(*visible))
    }

    #[test]
    fn a_new_market_is_hidden_in_allowlist_mode_and_shown_otherwise() {
        assert!(!VisibilityMode::Allowlist.shows(MarketChoice::Unset));
        assert!(VisibilityMode::Blocklist.shows(MarketChoice::Unset));
        assert!(VisibilityMode::All.shows(MarketChoice::Unset));
    }

    #[test]
    fn the_default_mode_keeps_the_per_market_switch_as_it_always_was() {
        let mode = VisibilityMode::default();
        assert_eq!(mode, VisibilityMode::Blocklist);
        assert!(mode.shows(MarketChoice::Unset));
        assert!(mode.shows(MarketChoice::Shown));
        assert!(!mode.shows(MarketChoice::Hidden));
    }

    #[test]
    fn the_filters_split_the_choices() {
        for mode in VisibilityMode::ALL {
            let mut both = mode.shown_choices();
            both.extend(mode.hidden_choices());
            both.sort_by_key(|choice| choice.as_str());
            let mut all = MarketChoice::ALL.to_vec();
            all.sort_by_key(|choice| choice.as_str());
            assert_eq!(both, all, "{mode}");
        }
        assert_eq!(VisibilityMode::Allowlist.shown_choices(), [MarketChoice::Shown]);
        assert_eq!(VisibilityMode::Blocklist.hidden_choices(), [MarketChoice::Hidden]);
        assert!(VisibilityMode::All.hidden_choices().is_empty());
    }

    proptest! {
        /// In a list mode the last switch decides and an untouched market follows the
        /// mode; in `all` mode every market is shown whatever the switches said.
        #[test]
        fn the_last_switch_decides_in_a_list_mode(switches in prop::collection::vec(any::<bool>(), 0..8)) {
            let choice = after(&switches);
            for mode in VisibilityMode::ALL {
                let expected = match (mode, switches.last()) {
                    (VisibilityMode::All, _) => true,
                    (_, Some(visible)) => *visible,
                    (VisibilityMode::Allowlist, None) => false,
                    (VisibilityMode::Blocklist, None) => true,
                };
                prop_assert_eq!(mode.shows(choice), expected, "{} after {:?}", mode, switches);
                prop_assert_eq!(mode.shown_choices().contains(&choice), expected);
            }
        }
    }
}
