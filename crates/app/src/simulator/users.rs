//! Simulated users and their wallets: create, list, read, change; read and set a
//! wallet's balance and read its log.

use opinion_core::{ExternalUserId, Label, Page, PageRequest, SimulatorLogKind, SimulatorUserId, SimulatorUserKind};
use opinion_wallet::Currency;

use crate::access::Principal;
use crate::access::operator_currency;
use crate::error::{AppError, ProblemCode};
use crate::model::{SimulatedUser, WalletLogEntry};
use crate::ports::{ChangedRecord, StoreError, UniqueKey};
use crate::simulator::Simulator;

/// The largest balance a simulated wallet holds, in minor units.
pub const MAX_BALANCE: i64 = 1_000_000_000_000_000;

/// How often a change is tried again after losing a race.
const ATTEMPTS: usize = 3;

/// A simulated user to create.
#[derive(Debug, Clone, Default)]
pub struct NewSimulatedUser {
    /// The operator's id of the player.
    pub external_user_id: String,
    /// A name to launch it with.
    pub display_name: Option<String>,
    /// Its wallet's currency; the operator's when absent.
    pub currency: Option<String>,
    /// Its starting balance in minor units (0 to 10^15); 0 when absent.
    pub starting_balance: Option<i64>,
}

/// A change of a simulated user; absent fields keep their value.
#[derive(Debug, Clone, Default)]
pub struct SimulatedUserChange {
    /// A new display name.
    pub display_name: Option<String>,
    /// Disable (its wallet refuses it `user_blocked`) or enable it.
    pub disabled: Option<bool>,
}

fn check_balance(field: &'static str, balance: i64) -> Result<i64, AppError> {
    if (0..=MAX_BALANCE).contains(&balance) {
        Ok(balance)
    } else {
        Err(AppError::invalid(field, "must be between 0 and 10^15 minor units"))
    }
}

fn check_display_name(name: Option<String>) -> Result<Option<String>, AppError> {
    name.map(|name| Label::parse(&name).map(Label::into_string))
        .transpose()
        .map_err(|e| AppError::invalid("displayName", e))
}

impl Simulator {
    /// Creates a simulated user of the caller's operator.
    pub async fn create_user(&self, caller: &Principal, new: NewSimulatedUser) -> Result<SimulatedUser, AppError> {
        let external =
            ExternalUserId::parse(&new.external_user_id).map_err(|e| AppError::invalid("externalUserId", e))?;
        let display_name = check_display_name(new.display_name)?;
        let currency: Currency = match new.currency {
            Some(code) => code.parse().map_err(|e| AppError::invalid("currency", e))?,
            None => operator_currency(self.ports.operators.as_ref(), caller.operator_id).await?,
        };
        let balance = check_balance("startingBalance", new.starting_balance.unwrap_or(0))?;
        let now = self.ports.clock.now();
        let user = SimulatedUser {
            id: SimulatorUserId::from_ulid(self.ports.random.ulid()),
            operator_id: caller.operator_id,
            external_user_id: external.into_string(),
            display_name,
            currency,
            starting_balance: balance,
            balance,
            disabled: false,
            faults: Vec::new(),
            revision: 1,
            created_at: now,
            updated_at: now,
        };
        match self.ports.store.insert_simulated_user(&user).await {
            Err(StoreError::Duplicate(UniqueKey::SimulatedUser)) => Err(AppError::Conflict {
                code: ProblemCode::SimulatedUserExists,
                detail: format!("a simulated user `{}` exists already", user.external_user_id),
            }),
            other => other.map(|()| user).map_err(AppError::from),
        }
    }

    /// The caller's operator's simulated users, newest first.
    pub async fn list_users(
        &self,
        caller: &Principal,
        page: PageRequest<SimulatorUserKind>,
    ) -> Result<Page<SimulatedUser, SimulatorUserKind>, AppError> {
        Ok(self.ports.store.list_simulated_users(caller.operator_id, page).await?)
    }

    /// One simulated user of the caller's operator.
    pub async fn user(&self, caller: &Principal, id: SimulatorUserId) -> Result<SimulatedUser, AppError> {
        self.ports
            .store
            .find_simulated_user(caller.operator_id, id)
            .await?
            .ok_or(AppError::NotFound("simulated user"))
    }

    /// Changes a simulated user.
    pub async fn update_user(
        &self,
        caller: &Principal,
        id: SimulatorUserId,
        change: SimulatedUserChange,
    ) -> Result<SimulatedUser, AppError> {
        let display_name = check_display_name(change.display_name)?;
        self.change_user(
            caller,
            |user| {
                if let Some(name) = &display_name {
                    user.display_name = Some(name.clone());
                }
                if let Some(disabled) = change.disabled {
                    user.disabled = disabled;
                }
                Ok(())
            },
            UserRef::Id(id),
        )
        .await
    }

    /// A simulated user's wallet, by the operator's id of the player.
    pub async fn wallet(&self, caller: &Principal, external_user_id: &str) -> Result<SimulatedUser, AppError> {
        self.ports
            .store
            .find_simulated_user_by_external(caller.operator_id, external_user_id)
            .await?
            .ok_or(AppError::NotFound("simulated wallet"))
    }

    /// Sets a simulated user's wallet balance.
    pub async fn set_wallet_balance(
        &self,
        caller: &Principal,
        external_user_id: &str,
        balance: i64,
    ) -> Result<SimulatedUser, AppError> {
        let balance = check_balance("balance", balance)?;
        self.change_user(
            caller,
            |user| {
                user.balance = balance;
                Ok(())
            },
            UserRef::External(external_user_id),
        )
        .await
    }

    /// The newest entries of a simulated wallet's log.
    pub async fn wallet_log(
        &self,
        caller: &Principal,
        external_user_id: &str,
        page: PageRequest<SimulatorLogKind>,
    ) -> Result<Page<WalletLogEntry, SimulatorLogKind>, AppError> {
        Ok(self
            .ports
            .store
            .wallet_log(caller.operator_id, external_user_id, page)
            .await?)
    }

    /// Applies `change` to a user over the revision it read, trying again on a race.
    pub(crate) async fn change_user(
        &self,
        caller: &Principal,
        change: impl Fn(&mut SimulatedUser) -> Result<(), AppError>,
        which: UserRef<'_>,
    ) -> Result<SimulatedUser, AppError> {
        for _ in 0..ATTEMPTS {
            let mut user = match which {
                UserRef::Id(id) => self.user(caller, id).await?,
                UserRef::External(external) => self.wallet(caller, external).await?,
            };
            let expected = user.revision;
            change(&mut user)?;
            user.revision = expected.saturating_add(1);
            user.updated_at = self.ports.clock.now();
            if self.ports.store.update_simulated_user(&user, expected).await? {
                return Ok(user);
            }
        }
        Err(StoreError::Conflict(ChangedRecord::SimulatedUser).into())
    }
}

/// Which user a change names.
#[derive(Debug, Clone, Copy)]
pub(crate) enum UserRef<'a> {
    /// By id.
    Id(SimulatorUserId),
    /// By the operator's id of the player.
    External(&'a str),
}
