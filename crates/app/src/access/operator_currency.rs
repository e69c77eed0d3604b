//! The currency of an operator's wallets, for the use cases that price or pay in it.

use opinion_core::OperatorId;
use opinion_wallet::Currency;

use crate::access::ports::OperatorStore;
use crate::error::AppError;

/// The currency every amount of `operator`'s pools and players is in. The operator of an
/// authenticated caller or player always exists (its keys and players reference it), so a
/// missing one is an inconsistency of the database: a 500, never a 404 telling the caller
/// that its own operator is unknown.
pub(crate) async fn operator_currency(
    operators: &dyn OperatorStore,
    operator: OperatorId,
) -> Result<Currency, AppError> {
    operators
        .find_operator(operator)
        .await?
        .map(|found| found.currency)
        .ok_or_else(|| AppError::Internal(format!("operator {operator} is missing")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::ports::MockOperatorStore;
    use crate::model::Operator;

    #[tokio::test]
    async fn an_operators_currency_is_read_from_its_record() {
        let mut operators = MockOperatorStore::new();
        operators.expect_find_operator().returning(|id| {
            Ok(Some(Operator {
                id,
                name: "Operator".into(),
                currency: "EUR".parse().expect("currency"),
                created_at: time::OffsetDateTime::UNIX_EPOCH,
            }))
        });
        let currency = operator_currency(&operators, OperatorId::from_u128(1)).await;
        assert_eq!(currency.expect("currency").to_string(), "EUR");
    }

    #[tokio::test]
    async fn a_missing_operator_is_an_internal_error_not_a_404() {
        let mut operators = MockOperatorStore::new();
        operators.expect_find_operator().returning(|_| Ok(None));
        let missing = operator_currency(&operators, OperatorId::from_u128(1)).await;
        assert!(matches!(missing, Err(AppError::Internal(_))), "{missing:?}");
    }
}
