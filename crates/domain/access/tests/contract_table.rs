//! The route table against the contract's endpoint table, transcribed row by row from
//! the operator API document, and against the contract's authentication rules.

use std::collections::HashSet;

use opinion_access::{
    CredentialKind, CredentialRule, Grant, HttpMethod, ROUTES, Requirement, RouteId, Scope, ScopeRule,
};

/// The contract's endpoint table: method, path below `/api/operator`, required scopes,
/// and whether staff-session authentication is the only accepted kind.
const CONTRACT: &[(&str, &str, &[&str], bool)] = &[
    ("POST", "/launch", &["launch:write"], false),
    ("GET", "/users", &["users:read"], false),
    ("GET", "/users/portfolio", &["users:read"], false),
    ("GET", "/users/portfolio-view", &["users:read"], false),
    ("GET", "/markets", &["markets:read"], false),
    ("GET", "/markets/trending", &["markets:read"], false),
    ("POST", "/markets/{id}/visibility", &["markets:write"], false),
    ("GET", "/trades", &["trades:read"], false),
    ("GET", "/trades/{tradeId}", &["trades:read"], false),
    ("GET", "/trades/{tradeId}/view", &["trades:read"], false),
    ("GET", "/trades/{marketId}/{externalUserId}", &["trades:read"], false),
    ("GET", "/resolutions", &["redemptions:read"], false),
    ("GET", "/redemptions", &["redemptions:read"], false),
    ("GET", "/balance-operations", &["balance_operations:read"], false),
    ("GET", "/wallet-adapter", &["wallet_adapter:read"], false),
    ("PUT", "/wallet-adapter", &["wallet_adapter:write"], false),
    ("POST", "/wallet-adapter/test", &["wallet_adapter:write"], false),
    ("GET", "/api-keys", &["api_keys:read"], false),
    ("POST", "/api-keys", &["api_keys:write"], false),
    ("POST", "/api-keys/{id}/revoke", &["api_keys:write"], false),
    ("GET", "/webhooks/endpoints", &["webhooks:read"], false),
    ("GET", "/webhooks/deliveries", &["webhooks:read"], false),
    ("POST", "/webhooks/endpoints", &["webhooks:write"], false),
    ("PATCH", "/webhooks/endpoints/{id}", &["webhooks:write"], false),
    ("DELETE", "/webhooks/endpoints/{id}", &["webhooks:write"], false),
    ("POST", "/webhooks/endpoints/{id}/delete", &["webhooks:write"], false),
    ("POST", "/webhooks/deliveries/{id}/replay", &["webhooks:write"], false),
    ("GET", "/simulator/users", &["simulator:read"], false),
    ("GET", "/simulator/users/{id}", &["simulator:read"], false),
    ("GET", "/simulator/wallets/{externalUserId}", &["simulator:read"], false),
    ("POST", "/simulator/users", &["simulator:write"], false),
    ("PATCH", "/simulator/users/{id}", &["simulator:write"], false),
    ("POST", "/simulator/users/{id}/operations", &["simulator:write"], false),
    (
        "PUT",
        "/simulator/wallets/{externalUserId}",
        &["simulator:write"],
        false,
    ),
    ("POST", "/simulator/operations", &["simulator:write"], false),
    ("GET", "/staff", &["staffs:read"], true),
    ("POST", "/staff", &["staffs:write"], true),
    ("PATCH", "/staff/{id}", &["staffs:write"], true),
    ("POST", "/staff/{id}/reset-password", &["staffs:write"], true),
];

fn find(method: &str, path: &str) -> &'static opinion_access::RouteSpec {
    let full = format!("/api/operator{path}");
    ROUTES
        .iter()
        .find(|r| r.method.as_str() == method && r.path == full)
        .unwrap_or_else(|| panic!("the contract's {method} {path} is missing from the route table"))
}

#[test]
fn every_contract_row_is_declared_with_its_scopes_and_credential_kind() {
    for (method, path, scopes, staff_only) in CONTRACT {
        let spec = find(method, path);
        let expected: Vec<Scope> = scopes.iter().map(|s| s.parse().expect("contract scope")).collect();
        let expected_credential = if *staff_only {
            CredentialRule::StaffSessionOnly
        } else {
            CredentialRule::Any
        };
        assert_eq!(
            spec.requirement,
            Requirement::Authenticated {
                credential: expected_credential,
                scopes: ScopeRule::AllOf(expected.leak())
            },
            "{method} {path}"
        );
    }
}

#[test]
fn portfolio_view_link_takes_either_listed_scope() {
    let spec = find("POST", "/users/portfolio-view");
    assert_eq!(
        spec.requirement,
        Requirement::any_of(&[Scope::LaunchWrite, Scope::UsersRead])
    );
}

#[test]
fn no_two_routes_share_method_and_path_and_ids_index_the_table() {
    let mut seen = HashSet::new();
    for (index, spec) in ROUTES.iter().enumerate() {
        assert!(
            seen.insert((spec.method, spec.path)),
            "{} {} declared twice",
            spec.method.as_str(),
            spec.path
        );
        assert_eq!(spec.id as usize, index);
        assert_eq!(spec.id.spec(), spec);
    }
}

#[test]
fn only_staff_routes_take_staff_sessions_only_and_only_they_need_staff_scopes() {
    for spec in ROUTES {
        let Requirement::Authenticated { credential, scopes } = spec.requirement else {
            continue;
        };
        let staff_path = spec.path.starts_with("/api/operator/staff");
        assert_eq!(
            credential == CredentialRule::StaffSessionOnly,
            staff_path && spec.id != RouteId::StaffSessionCreate,
            "{}",
            spec.path
        );
        let needs_staff_scope = spec.requirement.scopes().iter().any(|s| s.is_staff_only());
        assert!(
            !needs_staff_scope || credential == CredentialRule::StaffSessionOnly,
            "{}",
            spec.path
        );
        assert!(matches!(scopes, ScopeRule::AllOf(_) | ScopeRule::AnyOf(_)));
    }
}

#[test]
fn only_the_document_staff_login_the_published_chains_and_the_statement_keys_are_public() {
    let public: Vec<RouteId> = ROUTES
        .iter()
        .filter(|r| r.requirement.is_public())
        .map(|r| r.id)
        .collect();
    assert_eq!(
        public,
        [
            RouteId::OpenApiDocument,
            RouteId::StaffSessionCreate,
            RouteId::PublicFlightChainsList,
            RouteId::PublicFlightChainGet,
            RouteId::StatementKeys,
        ]
    );
    for spec in ROUTES.iter().filter(|r| r.path.starts_with("/api/public/")) {
        assert!(spec.requirement.is_public(), "{}", spec.path);
        assert_eq!(spec.method, HttpMethod::Get, "{}", spec.path);
    }
}

#[test]
fn flight_routes_are_reads_under_flight_and_need_their_compound_scopes() {
    let flight: Vec<_> = ROUTES
        .iter()
        .filter(|r| r.path.starts_with("/api/operator/flight/"))
        .collect();
    assert_eq!(flight.len(), 19, "with a ticket's proof");
    for spec in &flight {
        assert_eq!(spec.method, HttpMethod::Get, "{}", spec.path);
        let scopes = spec.requirement.scopes();
        let resource = spec.path.trim_start_matches("/api/operator/flight/");
        let expected: &[Scope] = match resource.split('/').next() {
            Some("overview" | "flights") => &[Scope::FlightRead],
            Some("tickets") => &[Scope::FlightRead, Scope::FlightTermsRead],
            Some("wallet-operations") => &[Scope::FlightRead, Scope::BalanceOperationsRead],
            Some("webhook-deliveries") => &[Scope::FlightRead, Scope::WebhooksRead],
            Some("terms") => &[Scope::FlightTermsRead],
            Some("settlement-reports" | "payments" | "statement-corrections") => &[Scope::FlightSettlementsRead],
            other => panic!("unexpected flight resource {other:?}"),
        };
        assert_eq!(scopes, expected, "{}", spec.path);
        assert!(matches!(
            spec.requirement,
            Requirement::Authenticated {
                scopes: ScopeRule::AllOf(_),
                ..
            }
        ));
    }
}

#[test]
fn the_recommended_flight_reporting_key_reaches_tickets_only_with_terms() {
    let base = Grant::parse(&["flight:read"]).expect("valid");
    let with_terms = Grant::parse(&["flight:read", "flight_terms:read"]).expect("valid");
    let tickets = RouteId::FlightTicketsList.spec().requirement;
    assert!(tickets.check(CredentialKind::ApiKey, &base).is_err());
    assert!(tickets.check(CredentialKind::ApiKey, &with_terms).is_ok());
    assert!(
        RouteId::FlightOverview
            .spec()
            .requirement
            .check(CredentialKind::ApiKey, &base)
            .is_ok()
    );
}

#[test]
fn launch_settings_are_an_addition_read_and_written_with_launch_write() {
    for (id, method) in [
        (RouteId::LaunchSettingsGet, HttpMethod::Get),
        (RouteId::LaunchSettingsPut, HttpMethod::Put),
    ] {
        let spec = id.spec();
        assert_eq!((spec.method, spec.path), (method, "/api/operator/launch-settings"));
        assert_eq!(spec.requirement, Requirement::all_of(&[Scope::LaunchWrite]));
        assert!(
            !CONTRACT.iter().any(|(_, path, _, _)| *path == "/launch-settings"),
            "not a row of the contract's table"
        );
    }
    let reporting = Grant::parse(&["users:read", "trades:read"]).expect("valid");
    assert!(
        RouteId::LaunchSettingsGet
            .spec()
            .requirement
            .check(CredentialKind::ApiKey, &reporting)
            .is_err()
    );
}

#[test]
fn branding_is_an_addition_read_and_written_with_launch_write() {
    for (id, method) in [
        (RouteId::BrandingGet, HttpMethod::Get),
        (RouteId::BrandingPut, HttpMethod::Put),
    ] {
        let spec = id.spec();
        assert_eq!((spec.method, spec.path), (method, "/api/operator/branding"));
        assert_eq!(spec.requirement, Requirement::all_of(&[Scope::LaunchWrite]));
        assert!(!CONTRACT.iter().any(|(_, path, _, _)| *path == "/branding"));
    }
    let reporting = Grant::parse(&["users:read", "markets:write"]).expect("valid");
    assert!(
        RouteId::BrandingPut
            .spec()
            .requirement
            .check(CredentialKind::ApiKey, &reporting)
            .is_err()
    );
}

#[test]
fn changing_ones_own_password_is_an_addition_for_any_staff_session_and_no_api_key() {
    let spec = RouteId::StaffOwnPasswordChange.spec();
    assert_eq!(
        (spec.method, spec.path),
        (HttpMethod::Post, "/api/operator/staff/me/password")
    );
    assert!(!CONTRACT.iter().any(|(_, path, _, _)| path.starts_with("/staff/me")));
    let reader = Grant::parse(&["users:read"]).expect("valid");
    assert!(spec.requirement.check(CredentialKind::StaffSession, &reader).is_ok());
    assert!(spec.requirement.check(CredentialKind::ApiKey, &Grant::All).is_err());
}
