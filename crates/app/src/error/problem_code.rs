//! Every stable `code` a problem body can carry, in one list. Clients branch on these
//! strings, so a code is never renamed or reused; `docs/decisions.md` lists the same
//! codes and a test holds the two lists together.

use std::fmt;

macro_rules! problem_codes {
    ($($variant:ident => $text:literal: $meaning:literal),+ $(,)?) => {
        /// A public problem code: the `code` member of an RFC 9457 body and the tail of
        /// its `type` (`urn:opinion:problem:<code>`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ProblemCode {
            $(#[doc = concat!("`", $text, "`: ", $meaning)] $variant,)+
        }

        impl ProblemCode {
            /// Every code, in the order `docs/decisions.md` lists them.
            pub const ALL: &'static [ProblemCode] = &[$(ProblemCode::$variant,)+];

            /// The code on the wire.
            pub const fn as_str(self) -> &'static str {
                match self { $(ProblemCode::$variant => $text,)+ }
            }

            /// When a client meets the code, in one sentence (the list in `docs/decisions.md`).
            pub const fn meaning(self) -> &'static str {
                match self { $(ProblemCode::$variant => $meaning,)+ }
            }
        }
    };
}

problem_codes! {
    CredentialMissing => "credential_missing": "no credential was sent.",
    CredentialMalformed => "credential_malformed": "the Authorization header is not a bearer credential.",
    ApiKeyChecksumMismatch => "api_key_checksum_mismatch": "the key's checksum fails: a typo or a truncated copy.",
    ApiKeyWrongEnvironment => "api_key_wrong_environment": "the key was issued by another environment.",
    ApiKeyUnknown => "api_key_unknown": "no key has this secret.",
    ApiKeyRevoked => "api_key_revoked": "the key was revoked.",
    ApiKeyExpired => "api_key_expired": "the key has expired.",
    SessionInvalid => "session_invalid": "the session token is not one of ours.",
    SessionEnded => "session_ended": "the session expired or was logged out.",
    StaffDisabled => "staff_disabled": "the staff member was disabled.",
    LoginFailed => "login_failed": "the e-mail or password is wrong.",
    MetricsTokenInvalid => "metrics_token_invalid": "the bearer token sent to `/metrics` is not the configured one.",
    LaunchTokenInvalid => "launch_token_invalid": "the launch token is not one of ours.",
    LaunchTokenUsedOrExpired => "launch_token_used_or_expired": "the launch token was used already or has expired.",
    LaunchHostMismatch => "launch_host_mismatch": "the launch token or player session is another operator's than this launch host's.",
    ViewLinkInvalid => "view_link_invalid": "the view link is not one of ours.",
    ViewLinkExpired => "view_link_expired": "the view link has expired.",
    StaffSessionRequired => "staff_session_required": "the route accepts staff sessions only.",
    InsufficientScope => "insufficient_scope": "the credential lacks a scope the route needs.",
    ScopeEscalation => "scope_escalation": "a credential tried to grant scopes it does not hold.",
    StaffScopeNotAssignable => "staff_scope_not_assignable": "staff scopes were asked for an API key.",
    ValidationFailed => "validation_failed": "a field of the request is invalid; `field` names it.",
    InvalidBody => "invalid_body": "the JSON body does not have the expected shape.",
    MalformedJson => "malformed_json": "the body is not well-formed JSON.",
    InvalidQuery => "invalid_query": "a query parameter is unknown or invalid.",
    InvalidId => "invalid_id": "a path id is not an id of the expected kind.",
    InvalidCursor => "invalid_cursor": "the page cursor is not one this list handed out.",
    InvalidLimit => "invalid_limit": "the page size is out of bounds.",
    PayloadTooLarge => "payload_too_large": "the body is larger than the route accepts.",
    UnsupportedMediaType => "unsupported_media_type": "the body is not sent as JSON.",
    NotFound => "not_found": "the named thing does not exist for this operator.",
    RouteNotFound => "route_not_found": "no route has this path.",
    MethodNotAllowed => "method_not_allowed": "the path exists with other methods (see `Allow`).",
    NotAvailableInProduction => "not_available_in_production": "the simulator exists only in development and staging.",
    RateLimited => "rate_limited": "a rate limit applies; retry after `Retry-After` seconds.",
    Conflict => "conflict": "a record with these unique values already exists.",
    ConcurrentChange => "concurrent_change": "the record changed while the request was processed; try again.",
    ChangedMeanwhile => "changed_meanwhile": "the record changed since it was read; read it again.",
    StaffEmailTaken => "staff_email_taken": "another staff member of the operator has this e-mail.",
    CapReached => "cap_reached": "the operator already has as many endpoints, active keys or enabled members as it may.",
    CurrentPasswordWrong => "current_password_wrong": "the current password sent to change one's own password is wrong.",
    PlaygroundReadOnly => "playground_read_only": "the docs' playground console sends reads only in production until the operator turns it on.",
    ProductNotEnabled => "product_not_enabled": "the product is not enabled for the operator.",
    WrongProduct => "wrong_product": "the player session was opened for another product; launch the player into this one.",
    LaunchHostTaken => "launch_host_taken": "a launch host is already another operator's.",
    WalletAdapterNotConfigured => "wallet_adapter_not_configured": "the operator has not configured its wallet adapter.",
    MarketNotOpen => "market_not_open": "the market does not take orders now.",
    LimitNotMet => "limit_not_met": "the price moved past the order's limit.",
    InsufficientShares => "insufficient_shares": "the player holds fewer shares than the sale names.",
    TradeInProgress => "trade_in_progress": "another order of the player on the market is in progress.",
    ClientOrderIdReused => "client_order_id_reused": "the client order id was used for another order.",
    NothingToCredit => "nothing_to_credit": "the sale would pay nothing after the fee.",
    BoardingClosed => "boarding_closed": "no flight is boarding: tickets are bought while a flight boards.",
    TicketCapReached => "ticket_cap_reached": "the player already holds the most tickets allowed on this flight.",
    ClientTicketIdReused => "client_ticket_id_reused": "the client ticket id was used for another ticket.",
    TicketNotActive => "ticket_not_active": "the ticket is not flying, so it cannot be cashed out.",
    CashOutTooEarly => "cash_out_too_early": "the multiplier has not reached the lowest cash-out, 1.01x, yet.",
    FlightCrashed => "flight_crashed": "the flight crashed before the cash-out was decided: the ticket lost.",
    ProductionAuthorizationMissing => "production_authorization_missing": "in production, the operator holds no valid production authorization for the product.",
    MarketStatus => "market_status": "the market's status does not allow the change.",
    OpenTrades => "open_trades": "trades on the market are still pending or in review.",
    NotInReview => "not_in_review": "the wallet operation is not waiting for review.",
    ProductMismatch => "product_mismatch": "the record belongs to another product, whose own tools handle it.",
    TermsScheduleFull => "terms_schedule_full": "the operator already has the most scheduled terms versions allowed.",
    TermsNotCancellable => "terms_not_cancellable": "the terms version took effect or was cancelled already.",
    StatementKeyRetired => "statement_key_retired": "the statement key was retired; a retired key never becomes current again.",
    StatementKeyNotCurrent => "statement_key_not_current": "this instance's statement signing key is not the current one.",
    ReportNotFinalized => "report_not_finalized": "the settlement report is open: only a finalized report has a signed statement.",
    PaymentExceedsDue => "payment_exceeds_due": "the payment is more than remains due on the report in its direction.",
    PaymentReferenceTaken => "payment_reference_taken": "a payment with this bank or transfer reference is already recorded for the operator.",
    ProofNotAvailable => "proof_not_available": "the ticket's settlement report is not finalized yet, so the ticket has no inclusion proof.",
    WebhookEndpointChanged => "webhook_endpoint_changed": "the endpoint changed since it was read.",
    WebhookEndpointDisabled => "webhook_endpoint_disabled": "the endpoint is disabled; enable it first.",
    SimulatedUserExists => "simulated_user_exists": "a simulated user has this external user id.",
    NoSimulatedUsers => "no_simulated_users": "the scenario needs simulated users; create one first.",
    NotASimulatorMarket => "not_a_simulator_market": "only markets the operator's simulator created can be resolved through it.",
    MarketTradedByOthers => "market_traded_by_others": "other operators traded the market, so the simulator may not resolve it.",
    SimulatedUserNotIdr => "simulated_user_not_idr": "flight operations need a simulated user whose wallet is in IDR.",
    InternalError => "internal_error": "the service failed; quote the request id to support.",
    NotReady => "not_ready": "the service cannot reach its database.",
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::ProblemCode;

    /// The `| `code` | meaning |` rows of the "Problem codes" section of the decisions.
    fn documented_codes() -> Vec<(String, String)> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/decisions.md");
        let text = std::fs::read_to_string(path).expect("docs/decisions.md is readable");
        let section = text
            .split("\n## ")
            .find(|section| section.starts_with("Problem codes"))
            .expect("docs/decisions.md has a `## Problem codes` section");
        section
            .lines()
            .filter_map(|line| line.strip_prefix("| `"))
            .filter_map(|row| row.split_once("` | "))
            .map(|(code, rest)| (code.to_owned(), rest.trim_end_matches(" |").to_owned()))
            .collect()
    }

    #[test]
    fn the_decisions_list_the_same_codes_in_the_same_order_with_the_same_meaning() {
        let in_code: Vec<(String, String)> = ProblemCode::ALL
            .iter()
            .map(|code| (code.as_str().to_owned(), code.meaning().to_owned()))
            .collect();
        let documented = documented_codes();
        for (code, meaning) in &in_code {
            let row = documented.iter().find(|(text, _)| text == code);
            assert!(row.is_some(), "`{code}` is missing from docs/decisions.md");
            assert_eq!(
                row.map(|(_, m)| m),
                Some(meaning),
                "`{code}` means something else in the docs"
            );
        }
        for (text, _) in &documented {
            assert!(
                ProblemCode::ALL.iter().any(|code| code.as_str() == text),
                "docs/decisions.md lists `{text}`, which the code does not have"
            );
        }
        assert_eq!(documented, in_code, "the docs list the codes in another order");
    }

    #[test]
    fn codes_are_unique_lowercase_snake_case() {
        let texts: BTreeSet<&str> = ProblemCode::ALL.iter().map(|code| code.as_str()).collect();
        assert_eq!(texts.len(), ProblemCode::ALL.len(), "a code is listed twice");
        for text in texts {
            assert!(
                text.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "`{text}` is not lowercase snake_case"
            );
        }
    }
}
