//! The scopes a member may hand out on a form: only those it holds itself (the use case
//! refuses anything beyond the caller, the form just does not offer it).

use opinion_access::{Grant, Scope};
use opinion_app::access::Principal;

/// `(value, label)` of each scope `caller` holds, `*` first when it holds everything;
/// staff scopes only when `staff` (a staff membership, never an API key).
pub fn grantable(caller: &Principal, staff: bool) -> Vec<(String, String)> {
    let all = matches!(caller.grant, Grant::All);
    let wildcard = all.then(|| (Grant::WILDCARD.to_owned(), "* (everything)".to_owned()));
    wildcard
        .into_iter()
        .chain(
            Scope::ALL
                .iter()
                .filter(|scope| staff || !scope.is_staff_only())
                .filter(|scope| caller.grant.holds(caller.kind(), **scope))
                .map(|scope| (scope.as_str().to_owned(), scope.as_str().to_owned())),
        )
        .collect()
}

/// A grant as one line: `*` or its scopes.
pub fn listed(grant: &Grant) -> String {
    grant.to_strings().join(", ")
}
