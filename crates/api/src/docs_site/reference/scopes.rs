//! The scopes page, from the route table: what each scope opens, and what each route asks.

use std::fmt::Write as _;

use opinion_access::{CredentialRule, ROUTES, Requirement, RouteSpec, Scope, ScopeRule};
use serde_json::Value;

use crate::docs_site::reference::api::route_link;

/// The page's markdown; `document` is the OpenAPI document (for links to the routes).
pub fn page(document: &Value) -> String {
    let mut page = String::from(
        "# Scopes\n\nEvery credential carries scopes; each route asks for some. API keys and staff sessions \
         hold the same scopes, except the two staff scopes, which only staff sessions hold. `*` grants every \
         scope its credential kind may hold. Split keys by workload (a launch key, a reporting key, a webhook \
         admin key) and rotate them independently.\n\n## Scopes and the routes they open\n\n\
         | scope | held by | routes |\n|---|---|---|\n",
    );
    for scope in Scope::ALL {
        let holders = if scope.is_staff_only() {
            "staff sessions only"
        } else {
            "API keys and staff sessions"
        };
        let routes: Vec<String> = ROUTES
            .iter()
            .filter(|spec| spec.requirement.scopes().contains(scope))
            .map(|spec| route_link(document, spec))
            .collect();
        let _ = writeln!(page, "| `{}` | {holders} | {} |", scope.as_str(), routes.join("<br>"));
    }
    page.push_str("\n## What each route asks\n\n| route | credential | scopes |\n|---|---|---|\n");
    for spec in ROUTES {
        let (credential, scopes) = requirement_words(spec);
        let _ = writeln!(page, "| {} | {credential} | {scopes} |", route_link(document, spec));
    }
    page
}

/// What a route asks of a credential, in words: the kind of credential and the scopes.
pub fn requirement_words(spec: &RouteSpec) -> (&'static str, String) {
    let names = |scopes: &[Scope]| {
        scopes
            .iter()
            .map(|scope| format!("`{}`", scope.as_str()))
            .collect::<Vec<_>>()
    };
    match spec.requirement {
        Requirement::Public => ("none (public)", "none".to_owned()),
        Requirement::Authenticated { credential, scopes } => {
            let credential = match credential {
                CredentialRule::Any => "API key or staff session",
                CredentialRule::StaffSessionOnly => "staff session only",
            };
            let scopes = match scopes {
                ScopeRule::None => "none".to_owned(),
                ScopeRule::AllOf([]) => "none (any session of the member)".to_owned(),
                ScopeRule::AllOf(all) => names(all).join(" and "),
                ScopeRule::AnyOf(any) => format!("one of {}", names(any).join(", ")),
            };
            (credential, scopes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::openapi::document;

    #[test]
    fn every_route_and_every_scope_is_on_the_page() {
        let document = serde_json::to_value(document()).expect("the document is JSON");
        let page = page(&document);
        for spec in ROUTES {
            assert!(
                page.contains(&route_link(&document, spec)),
                "{} {}",
                spec.method.as_str(),
                spec.path
            );
        }
        for scope in Scope::ALL {
            assert!(
                page.contains(&format!("| `{}` |", scope.as_str())),
                "{}",
                scope.as_str()
            );
        }
    }
}
