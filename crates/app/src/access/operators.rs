//! Operator use cases, for platform staff (the `opinion admin` command).

use opinion_access::Grant;
use opinion_core::{Label, OperatorId};
use opinion_wallet::Currency;

use crate::access::Access;
use crate::access::CreatedApiKey;
use crate::error::AppError;
use crate::model::Operator;

/// A created operator and its first, full-access API key.
#[derive(Debug, Clone)]
pub struct CreatedOperator {
    pub operator: Operator,
    /// Its first key (`*`), shown once.
    pub first_key: CreatedApiKey,
}

impl Access {
    /// Creates an operator, whose players' wallets hold `currency` (ISO 4217), with a first
    /// API key holding `*`, atomically.
    #[tracing::instrument(skip_all)]
    pub async fn create_operator(&self, name: &str, currency: &str) -> Result<CreatedOperator, AppError> {
        let name = Label::parse(name).map_err(|e| AppError::invalid("name", e))?;
        let currency: Currency = currency.parse().map_err(|e| AppError::invalid("currency", e))?;
        let now = self.ports.clock.now();
        let operator = Operator {
            id: OperatorId::from_ulid(self.ports.random.ulid()),
            name: name.into_string(),
            currency,
            created_at: now,
        };
        let key_name = Label::parse("initial full-access key").map_err(|e| AppError::Internal(e.to_string()))?;
        let first_key = self.new_api_key(operator.id, key_name, Grant::All, None, now);
        self.ports
            .operators
            .insert_operator(&operator, &first_key.record, &first_key.secret.hash())
            .await?;
        tracing::info!(operator_id = %operator.id, "operator created");
        Ok(CreatedOperator { operator, first_key })
    }

    /// Reads an operator.
    pub async fn find_operator(&self, id: OperatorId) -> Result<Operator, AppError> {
        self.ports
            .operators
            .find_operator(id)
            .await?
            .ok_or(AppError::NotFound("operator"))
    }
}
