//! What a simulator operation reports: each step in order, what came of it, and the ids
//! to look up with the operator API.

use std::collections::BTreeMap;

use crate::error::{AppError, ProblemCode};

/// The report of one operation or scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationReport {
    /// The operation or scenario run.
    pub operation: String,
    /// Whether every step completed (a trade ending in manual review completes its step).
    pub completed: bool,
    /// The steps, in order.
    pub steps: Vec<ReportStep>,
}

/// One step of an operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportStep {
    /// What the step did (`launch`, `buy`, `resolve_market`, …).
    pub step: String,
    /// How it ended.
    pub outcome: StepOutcome,
    /// What happened, in words.
    pub detail: String,
    /// Ids and values to look up (`tradeId`, `idempotencyKey`, `status`, `balance`, …).
    pub ids: BTreeMap<String, String>,
}

/// How a step ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepOutcome {
    /// It did what it was asked.
    Completed,
    /// It was refused or failed; the detail says why. Later steps were not run.
    Failed,
}

impl StepOutcome {
    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Completed => "completed",
            Self::Failed => "failed",
        }
    }
}

impl OperationReport {
    /// An empty report of `operation`.
    pub(crate) fn new(operation: &str) -> Self {
        Self {
            operation: operation.to_owned(),
            completed: true,
            steps: Vec::new(),
        }
    }

    /// Adds a completed step.
    pub(crate) fn done<'a>(
        &mut self,
        step: &str,
        detail: impl Into<String>,
        ids: impl IntoIterator<Item = (&'a str, String)>,
    ) {
        self.steps.push(ReportStep {
            step: step.to_owned(),
            outcome: StepOutcome::Completed,
            detail: detail.into(),
            ids: ids.into_iter().map(|(key, value)| (key.to_owned(), value)).collect(),
        });
    }

    /// Adds a failed step for a refusal of a use case; anything else (a failure of the
    /// service itself, or of the caller's credential) is returned instead, to answer the
    /// whole request.
    pub(crate) fn failed(&mut self, step: &str, error: AppError) -> Result<(), AppError> {
        let code = match &error {
            AppError::Conflict { code, .. } => *code,
            AppError::NotFound(_) => ProblemCode::NotFound,
            AppError::Invalid { .. } => ProblemCode::ValidationFailed,
            AppError::RateLimited { .. } => ProblemCode::RateLimited,
            _ => return Err(error),
        };
        self.completed = false;
        self.steps.push(ReportStep {
            step: step.to_owned(),
            outcome: StepOutcome::Failed,
            detail: error.to_string(),
            ids: BTreeMap::from([("code".to_owned(), code.to_string())]),
        });
        Ok(())
    }
}
