//! The confirmation step of a destructive action (revoking a key, deleting or disabling an
//! endpoint, disabling a member, resetting a password, rotating a secret): the action's
//! button leads to a page asking the question, whose form performs it and whose other
//! choice leads back. Rendered on the server, so it works without script and a stray
//! click changes nothing.

use maud::{Markup, html};

use crate::dashboard::form::token_field;
use crate::dashboard::layout::document;
use crate::dashboard::session::SignedIn;

/// What a confirmation page asks and where its answer goes.
pub struct Confirmation<'a> {
    /// The section the page belongs to (its navigation entry).
    pub section: &'a str,
    /// The question, naming what is acted on, e.g. "Revoke the key “reporting”?".
    pub question: String,
    /// What follows once confirmed.
    pub consequence: &'a str,
    /// Where the confirming form posts: the action itself.
    pub action: String,
    /// The confirming button's text.
    pub confirm: &'a str,
    /// Where "Cancel" leads: the page the action was chosen on.
    pub cancel: String,
}

impl Confirmation<'_> {
    /// The page asking the question; `fields` are the action's own inputs, if it has any.
    pub fn page(&self, member: &SignedIn, fields: Markup) -> Markup {
        let content = html! {
            section.card.danger-zone.confirm {
                h2 { (self.question) }
                p.muted { (self.consequence) }
                form method="post" action=(self.action) {
                    (token_field(&member.form_token))
                    (fields)
                    div.choices-inline {
                        button.danger type="submit" { (self.confirm) }
                        a.cancel href=(self.cancel) { "Cancel" }
                    }
                }
            }
        };
        document(member, self.section, self.confirm, content)
    }
}
