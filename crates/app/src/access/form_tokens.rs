//! The dashboard's defence against cross-site form posts beyond SameSite: every form
//! carries its session's token, derived from the session by HMAC, and every post is
//! checked against it.

use crate::access::{Access, Actor, Principal};

impl Access {
    /// The form token of the caller's session; `None` for an API key, which has no forms.
    pub fn form_token(&self, caller: &Principal) -> Option<String> {
        match caller.actor {
            Actor::Staff { session_id, .. } => Some(self.settings.session_tokens.form_token(session_id)),
            Actor::ApiKey(_) => None,
        }
    }

    /// Whether `presented` is the form token of the caller's session.
    pub fn form_token_matches(&self, caller: &Principal, presented: &str) -> bool {
        match caller.actor {
            Actor::Staff { session_id, .. } => self.settings.session_tokens.form_token_matches(session_id, presented),
            Actor::ApiKey(_) => false,
        }
    }
}
