//! A staff member changes their own password: the current one proves it is them (and
//! counts against the login throttle like a login), the new one meets the policy, and
//! every other session of theirs ends, so a session someone else opened with the old
//! password does not outlive it. The session the change is made in stays.

use std::net::IpAddr;

use opinion_access::Password;

use crate::access::login_throttling::throttle_keys;
use crate::access::{Access, Actor, Principal};
use crate::error::{AppError, ProblemCode};
use crate::model::StaffMember;

/// What a member sends to change their password.
#[derive(Clone)]
pub struct OwnPasswordChange {
    /// The password now in force.
    pub current_password: String,
    /// The password to set.
    pub new_password: String,
}

impl Access {
    /// Changes the caller's own password from the client at `address`.
    #[tracing::instrument(skip_all, fields(operator_id = %caller.operator_id))]
    pub async fn change_own_password(
        &self,
        caller: &Principal,
        change: OwnPasswordChange,
        address: Option<IpAddr>,
    ) -> Result<StaffMember, AppError> {
        let Actor::Staff { staff_id, session_id } = caller.actor else {
            return Err(AppError::invalid("credential", "only a staff member has a password"));
        };
        let new_password = Password::new(change.new_password).map_err(|e| AppError::invalid("newPassword", e))?;
        if new_password.expose() == change.current_password {
            return Err(AppError::invalid(
                "newPassword",
                "must differ from the current password",
            ));
        }
        let (member, stored) = self
            .ports
            .staff
            .find_staff_password(caller.operator_id, staff_id)
            .await?
            .ok_or(AppError::NotFound("staff member"))?;
        let keys = throttle_keys(member.email.as_str(), address);
        self.admit_password_attempt(&keys).await?;
        if !self.passwords.verify(&change.current_password, Some(stored)).await? {
            tracing::info!(staff_id = %staff_id, "own password change refused: wrong current password");
            return Err(AppError::Conflict {
                code: ProblemCode::CurrentPasswordWrong,
                detail: "the current password is wrong".into(),
            });
        }
        self.password_attempt_succeeded(&keys).await?;
        let hash = self
            .passwords
            .hash(&new_password, self.ports.random.secret_bytes())
            .await?;
        let now = self.ports.clock.now();
        let member = self
            .ports
            .staff
            .change_own_password(caller.operator_id, staff_id, &hash, session_id, now)
            .await?
            .ok_or(AppError::NotFound("staff member"))?;
        tracing::info!(staff_id = %staff_id, session_id = %session_id, "own password changed; other sessions ended");
        Ok(member)
    }
}
