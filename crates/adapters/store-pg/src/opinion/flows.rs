//! Opinion's wallet flows as stored. `wallet_operations` holds the flight product's
//! operations too; every Opinion read and sweep names these flows, so none of them
//! touches an operation whose consequence is the flight product's.

use opinion_wallet::WalletFlow;

/// The stored names of Opinion's flows.
pub(crate) const OPINION_FLOWS: [&str; 4] = [
    WalletFlow::Buy.as_str(),
    WalletFlow::Sell.as_str(),
    WalletFlow::BuyCompensation.as_str(),
    WalletFlow::Redemption.as_str(),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn they_are_the_domains_opinion_flows() {
        assert_eq!(OPINION_FLOWS, WalletFlow::OPINION.map(WalletFlow::as_str));
    }
}
