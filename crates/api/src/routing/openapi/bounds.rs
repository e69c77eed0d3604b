//! The bounds the service enforces, laid on the document from the domain's own constants
//! (utoipa's attributes take only literals, which would drift from the rules): page
//! limits, prefixed ids, times, a player's id, and the fields of request bodies. A test
//! holds every entry below to a parameter or property of the document, so a renamed field
//! cannot silently lose its bound.

use opinion_access::{Password, PlaygroundConsole, RouteId, Scope, StaffEmail};
use opinion_app::flight::{CLIENT_TICKET_ID_MAX_LEN, CLIENT_TICKET_ID_PATTERN};
use opinion_app::opinion::reads::ports::MarketStage;
use opinion_app::opinion::reads::{MarketQuery, PortfolioLinks, RESOLUTIONS};
use opinion_app::simulator::MAX_CLOSE_IN_MINUTES;
use opinion_app::simulator::{MAX_BALANCE, MAX_BATCH, MAX_FAULTS, MAX_TARGET, Scenario, UserOperation};
use opinion_app::wallet::MAX_TEST_AMOUNT;
use opinion_app::webhooks::MAX_DESCRIPTION_CHARS;
use opinion_core::{
    ApiKeyKind, ExternalUserId, FlightChainKind, FlightKind, IdKind, Label, MarketKind, PageLimit,
    SettlementReportKind, SimulatorUserKind, StaffKind, TicketKind, TradeKind, WebhookDeliveryKind,
    WebhookEndpointKind,
};
use opinion_flight::{Multiplier, Rupiah, TicketStatus};
use opinion_launch::{
    BrandColor, BrandName, FrameOrigin, FrameOrigins, Language, LaunchHost, LaunchHosts, Locale, LogoUrl,
};
use opinion_market::{
    FeeRate, Liquidity, Outcome, RedemptionStatus, Side, TradeStatus, TrendingWindow, VisibilityMode,
};
use opinion_wallet::{AdapterTimeout, Currency, OperationState, WalletFlow};
use opinion_webhook::{DeliveryStatus, EventType, SigningSecret};
use serde_json::Value;
use utoipa::Number;
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::schema::{ArrayItems, Object, Schema, SchemaFormat, SchemaType, Type};
use utoipa::openapi::{OpenApi, RefOr, Required};

use crate::routing::openapi::digits;
use crate::shared::minor_units::MINOR_UNITS_PATTERN;
use crate::simulator::users::dto::MAX_DELAY_MS;

/// What one parameter or property may hold.
#[derive(Debug, Clone)]
pub enum Bound {
    /// An integer from `min` to `max`.
    Range { min: i64, max: i64 },
    /// A text of `min` to `max` characters matching `pattern`, if any.
    Text {
        min: usize,
        max: usize,
        pattern: Option<String>,
    },
    /// A prefixed id (or one of several kinds), by its exact shape.
    Pattern(String),
    /// A text in a named format (`date-time`, `uri`), at most `max` characters if given.
    Format { format: &'static str, max: Option<usize> },
    /// One of a closed set of names.
    OneOf(Vec<&'static str>),
    /// A list of `min` to `max` entries, each bound by `each` if given; `unique` when the
    /// service refuses an entry listed twice.
    List {
        min: usize,
        max: Option<usize>,
        each: Option<Box<Bound>>,
        unique: bool,
    },
}

/// Characters no text field accepts: the C0 and C1 control characters.
const CONTROL: &str = r"\x00-\x1f\x7f-\x9f";

/// The shape of an id of kind `K`: its prefix, then a ULID in lower-case Crockford base32.
fn id<K: IdKind>() -> String {
    format!("{}_{}", K::PREFIX, ULID)
}

/// A ULID as ids write it: 26 lower-case Crockford base32 digits, the first at most 7.
const ULID: &str = "[0-7][0-9a-hjkmnp-tv-z]{25}";

fn pattern_of(alternatives: &[String]) -> Bound {
    Bound::Pattern(format!("^({})$", alternatives.join("|")))
}

fn id_bound<K: IdKind>() -> Bound {
    pattern_of(&[id::<K>()])
}

/// A player's id as the operator writes it (`ExternalUserId`): no control character and no
/// white space at either end.
fn external_user_id() -> Bound {
    Bound::Text {
        min: 1,
        max: ExternalUserId::MAX_CHARS,
        pattern: Some(format!(r"^[^\s{CONTROL}]([^{CONTROL}]*[^\s{CONTROL}])?$")),
    }
}

/// A name of at most `max` characters without control characters or white space
/// around it (an operator's brand name).
fn plain_name(max: usize) -> Bound {
    Bound::Text {
        min: 1,
        max,
        pattern: Some(format!(r"^[^\s{CONTROL}]([^{CONTROL}]*[^\s{CONTROL}])?$")),
    }
}

/// A one-line name (`Label`) of at most `max` characters: something besides white space,
/// no control character. White space around it is trimmed, so a longer text is refused.
fn label(max: usize) -> Bound {
    Bound::Text {
        min: 1,
        max,
        pattern: Some(format!(r"^[^{CONTROL}]*[^\s{CONTROL}][^{CONTROL}]*$")),
    }
}

fn page_limit() -> Bound {
    Bound::Range {
        min: i64::from(PageLimit::MIN),
        max: i64::from(PageLimit::MAX),
    }
}

fn date_time() -> Bound {
    Bound::Format {
        format: "date-time",
        max: None,
    }
}

/// Query parameters bound by name on every operation that takes them.
fn query_parameters() -> Vec<(&'static str, Bound)> {
    vec![
        ("limit", page_limit()),
        ("from", date_time()),
        ("to", date_time()),
        ("createdFrom", date_time()),
        ("createdBefore", date_time()),
        ("externalUserId", external_user_id()),
        ("marketId", id_bound::<MarketKind>()),
        ("flightId", id_bound::<FlightKind>()),
        ("ticketId", id_bound::<TicketKind>()),
        ("endpointId", id_bound::<WebhookEndpointKind>()),
        ("reportId", id_bound::<SettlementReportKind>()),
    ]
}

/// One of the names `names` gives.
fn one_of<T: Copy>(values: &[T], name: impl Fn(T) -> &'static str) -> Bound {
    Bound::OneOf(values.iter().map(|value| name(*value)).collect())
}

/// A text matching `pattern`, at most `max` characters.
fn shaped(pattern: &str, max: usize) -> Bound {
    Bound::Text {
        min: 1,
        max,
        pattern: Some(pattern.to_owned()),
    }
}

/// An amount as an integer string (`minor_units`).
fn minor_units() -> Bound {
    shaped(MINOR_UNITS_PATTERN, 18)
}

/// An amount as an integer string (`minor_units`) from `min` to `max`.
fn minor_units_from(min: i64, max: i64) -> Bound {
    let bound = |value: i64| u64::try_from(value).unwrap_or_default();
    shaped(&digits::integer_range(bound(min), bound(max)), 18)
}

/// A multiplier from `min` to `max`.
fn multiplier_from(min: Multiplier, max: Multiplier) -> Bound {
    shaped(&digits::hundredths_range(min.hundredths(), max.hundredths()), 19)
}

fn event_type_names(flight_only: bool) -> Bound {
    Bound::OneOf(
        EventType::ALL
            .iter()
            .filter(|kind| !flight_only || kind.is_flight())
            .map(|kind| kind.as_str())
            .collect(),
    )
}

/// Query parameters whose bound depends on the operation: `(path, name, bound)`.
fn path_query_parameters() -> Vec<(&'static str, &'static str, Bound)> {
    let states = || one_of(&OperationState::ALL, OperationState::as_str);
    let tickets = || one_of(&TicketStatus::ALL, TicketStatus::as_str);
    let deliveries = || one_of(DeliveryStatus::ALL, DeliveryStatus::as_str);
    vec![
        (
            "/api/operator/balance-operations",
            "flow",
            one_of(&WalletFlow::OPINION, WalletFlow::as_str),
        ),
        ("/api/operator/balance-operations", "state", states()),
        ("/api/operator/flight/tickets", "status", tickets()),
        ("/api/operator/flight/tickets/export", "status", tickets()),
        (
            "/api/operator/flight/wallet-operations",
            "flow",
            one_of(&WalletFlow::FLIGHT, WalletFlow::as_str),
        ),
        ("/api/operator/flight/wallet-operations", "state", states()),
        (
            "/api/operator/flight/webhook-deliveries",
            "eventType",
            event_type_names(true),
        ),
        ("/api/operator/flight/webhook-deliveries", "status", deliveries()),
        (
            "/api/operator/webhooks/deliveries",
            "eventType",
            event_type_names(false),
        ),
        ("/api/operator/webhooks/deliveries", "status", deliveries()),
        (
            "/api/operator/markets",
            "status",
            one_of(&MarketStage::ALL, MarketStage::as_str),
        ),
        (
            "/api/operator/markets",
            "visibility",
            Bound::OneOf(MarketQuery::visibility_names().to_vec()),
        ),
        (
            "/api/operator/markets/trending",
            "window",
            one_of(TrendingWindow::ALL, TrendingWindow::as_str),
        ),
        (
            "/api/operator/redemptions",
            "status",
            one_of(RedemptionStatus::ALL, RedemptionStatus::as_str),
        ),
        (
            "/api/operator/resolutions",
            "resolution",
            one_of(&RESOLUTIONS, |r| r.as_str()),
        ),
        (
            "/api/operator/trades",
            "status",
            one_of(TradeStatus::ALL, TradeStatus::as_str),
        ),
        (
            "/api/operator/trades",
            "side",
            one_of(&[Side::Buy, Side::Sell], Side::as_str),
        ),
    ]
}

/// Path parameters: `(path, name, bound)`.
fn path_parameters() -> Vec<(&'static str, &'static str, Bound)> {
    let report = || pattern_of(&[id::<SettlementReportKind>(), "[0-9]{4}-(0[1-9]|1[0-2])".to_owned()]);
    vec![
        ("/api/operator/api-keys/{id}/revoke", "id", id_bound::<ApiKeyKind>()),
        ("/api/operator/markets/{id}/visibility", "id", id_bound::<MarketKind>()),
        ("/api/operator/trades/{tradeId}", "tradeId", id_bound::<TradeKind>()),
        (
            "/api/operator/trades/{tradeId}/view",
            "tradeId",
            pattern_of(&[id::<TradeKind>(), id::<MarketKind>()]),
        ),
        (
            "/api/operator/trades/{marketId}/{externalUserId}",
            "marketId",
            id_bound::<MarketKind>(),
        ),
        (
            "/api/operator/trades/{marketId}/{externalUserId}",
            "externalUserId",
            external_user_id(),
        ),
        ("/api/operator/flight/flights/{id}", "id", id_bound::<FlightKind>()),
        ("/api/operator/flight/tickets/{id}", "id", id_bound::<TicketKind>()),
        (
            "/api/operator/flight/tickets/{id}/proof",
            "id",
            id_bound::<TicketKind>(),
        ),
        ("/api/operator/flight/settlement-reports/{id}", "id", report()),
        ("/api/operator/flight/settlement-reports/{id}/export", "id", report()),
        ("/api/operator/flight/settlement-reports/{id}/payments", "id", report()),
        ("/api/public/flight/chains/{id}", "id", id_bound::<FlightChainKind>()),
        (
            "/api/operator/simulator/users/{id}",
            "id",
            id_bound::<SimulatorUserKind>(),
        ),
        (
            "/api/operator/simulator/users/{id}/operations",
            "id",
            id_bound::<SimulatorUserKind>(),
        ),
        (
            "/api/operator/simulator/wallets/{externalUserId}",
            "externalUserId",
            external_user_id(),
        ),
        ("/api/operator/staff/{id}", "id", id_bound::<StaffKind>()),
        ("/api/operator/staff/{id}/reset-password", "id", id_bound::<StaffKind>()),
        (
            "/api/operator/webhooks/endpoints/{id}",
            "id",
            id_bound::<WebhookEndpointKind>(),
        ),
        (
            "/api/operator/webhooks/endpoints/{id}/delete",
            "id",
            id_bound::<WebhookEndpointKind>(),
        ),
        (
            "/api/operator/webhooks/deliveries/{id}/replay",
            "id",
            id_bound::<WebhookDeliveryKind>(),
        ),
    ]
}

/// An `http(s)` address of at most `max` bytes (counted as characters here: a URL is ASCII).
fn url(max: usize) -> Bound {
    Bound::Format {
        format: "uri",
        max: Some(max),
    }
}

/// A staff member's login e-mail.
fn email() -> Bound {
    Bound::Format {
        format: "email",
        max: Some(StaffEmail::MAX_CHARS),
    }
}

/// Fields of request bodies: `(schema, property, bound)`.
fn body_fields() -> Vec<(&'static str, &'static str, Bound)> {
    let key_scopes = Bound::List {
        min: 1,
        unique: true,
        max: None,
        each: Some(Box::new(Bound::OneOf(
            Scope::ALL
                .iter()
                .filter(|scope| !scope.is_staff_only())
                .map(|scope| scope.as_str())
                .collect(),
        ))),
    };
    let staff_scopes = || Bound::List {
        min: 1,
        unique: true,
        max: None,
        each: Some(Box::new(one_of(Scope::ALL, Scope::as_str))),
    };
    let password = || Bound::Text {
        min: Password::MIN_CHARS,
        max: Password::MAX_CHARS,
        pattern: None,
    };
    let locale = || shaped(Locale::PATTERN, Locale::MAX_CHARS);
    let secret = || Bound::Pattern(SigningSecret::PATTERN.to_owned());
    let outcome = || one_of(&[Outcome::Yes, Outcome::No], Outcome::as_str);
    let market = || id_bound::<MarketKind>();
    let event_types = || Bound::List {
        min: 1,
        unique: true,
        max: None,
        each: Some(Box::new(Bound::OneOf(
            opinion_webhook::EventType::ALL
                .iter()
                .map(|kind| kind.as_str())
                .collect(),
        ))),
    };
    let url_max = opinion_webhook::MAX_URL_LEN;
    let rate = || Bound::Range {
        min: 1,
        max: i64::from(opinion_webhook::RateLimit::MAX_PER_MINUTE),
    };
    let description = || label(MAX_DESCRIPTION_CHARS);
    vec![
        ("CreateApiKeyBody", "name", label(Label::MAX_CHARS)),
        ("CreateApiKeyBody", "scopes", key_scopes),
        ("LaunchBody", "externalUserId", external_user_id()),
        ("LaunchBody", "displayName", label(Label::MAX_CHARS)),
        (
            "LaunchBody",
            "returnUrl",
            url(opinion_app::players::MAX_RETURN_URL_CHARS),
        ),
        ("LaunchBody", "language", locale()),
        ("LaunchBody", "locale", locale()),
        ("LaunchBody", "product", Bound::OneOf(vec!["flight"])),
        ("LaunchBody", "host", shaped(LaunchHost::PATTERN, LaunchHost::MAX_CHARS)),
        (
            "PutLaunchSettingsBody",
            "hosts",
            Bound::List {
                min: 0,
                unique: true,
                max: Some(LaunchHosts::MAX),
                each: Some(Box::new(shaped(LaunchHost::PATTERN, LaunchHost::MAX_CHARS))),
            },
        ),
        (
            "PutLaunchSettingsBody",
            "frameOrigins",
            Bound::List {
                min: 0,
                unique: true,
                max: Some(FrameOrigins::MAX),
                each: Some(Box::new(shaped(
                    FrameOrigin::PATTERN,
                    FrameOrigin::MAX_DOCUMENTED_CHARS,
                ))),
            },
        ),
        ("PutBrandingBody", "name", plain_name(BrandName::MAX_CHARS)),
        (
            "PutBrandingBody",
            "logoUrl",
            shaped(LogoUrl::PATTERN, LogoUrl::MAX_CHARS),
        ),
        ("PutBrandingBody", "primaryColor", shaped(BrandColor::PATTERN, 7)),
        ("PutBrandingBody", "accentColor", shaped(BrandColor::PATTERN, 7)),
        (
            "PutBrandingBody",
            "defaultLanguage",
            one_of(&Language::ALL, Language::as_str),
        ),
        (
            "SetVisibilityModeBody",
            "mode",
            one_of(VisibilityMode::ALL, VisibilityMode::as_str),
        ),
        (
            "PutPlaygroundBody",
            "console",
            one_of(&PlaygroundConsole::ALL, PlaygroundConsole::as_str),
        ),
        ("PortfolioLinkRequestBody", "externalUserId", external_user_id()),
        (
            "PortfolioLinkRequestBody",
            "expiresInSeconds",
            Bound::Range {
                min: PortfolioLinks::MIN_LIFETIME_SECONDS,
                max: PortfolioLinks::MAX_LIFETIME_SECONDS,
            },
        ),
        ("WalletTestBody", "externalUserId", external_user_id()),
        ("WalletTestBody", "flightExternalUserId", external_user_id()),
        ("WalletTestBody", "amount", minor_units_from(1, MAX_TEST_AMOUNT)),
        ("WalletTestBody", "flightAmount", minor_units_from(1, MAX_TEST_AMOUNT)),
        ("PutWalletAdapterBody", "baseUrl", url(url_max)),
        (
            "PutWalletAdapterBody",
            "timeoutMs",
            Bound::Range {
                min: i64::from(AdapterTimeout::MIN_MS),
                max: i64::from(AdapterTimeout::MAX_MS),
            },
        ),
        ("CreateWebhookEndpointBody", "url", url(url_max)),
        ("CreateWebhookEndpointBody", "description", description()),
        ("CreateWebhookEndpointBody", "eventTypes", event_types()),
        ("CreateWebhookEndpointBody", "rateLimitPerMinute", rate()),
        ("CreateWebhookEndpointBody", "secret", secret()),
        ("UpdateWebhookEndpointBody", "url", url(url_max)),
        ("UpdateWebhookEndpointBody", "description", description()),
        ("UpdateWebhookEndpointBody", "eventTypes", event_types()),
        ("UpdateWebhookEndpointBody", "rateLimitPerMinute", rate()),
        ("UpdateWebhookEndpointBody", "secret", secret()),
        ("CreateSimulatedUserBody", "externalUserId", external_user_id()),
        ("CreateSimulatedUserBody", "displayName", label(Label::MAX_CHARS)),
        (
            "CreateSimulatedUserBody",
            "startingBalance",
            minor_units_from(0, MAX_BALANCE),
        ),
        ("CreateSimulatedUserBody", "currency", shaped(Currency::PATTERN, 3)),
        ("UpdateSimulatedUserBody", "displayName", label(Label::MAX_CHARS)),
        ("PutSimulatedWalletBody", "balance", minor_units_from(0, MAX_BALANCE)),
        ("ScenarioBody", "scenario", Bound::OneOf(Scenario::NAMES.to_vec())),
        (
            "ScenarioBody",
            "timeoutMs",
            Bound::Range {
                min: i64::from(AdapterTimeout::MIN_MS),
                max: i64::from(AdapterTimeout::MAX_MS),
            },
        ),
        ("ScenarioBody", "question", label(Label::MAX_CHARS)),
        (
            "ScenarioBody",
            "closeInMinutes",
            Bound::Range {
                min: 1,
                max: MAX_CLOSE_IN_MINUTES,
            },
        ),
        ("ScenarioBody", "liquidity", minor_units_from(1, Liquidity::MAX)),
        (
            "ScenarioBody",
            "feeBps",
            Bound::Range {
                min: 0,
                max: i64::from(FeeRate::MAX_BPS),
            },
        ),
        ("ScenarioBody", "marketId", market()),
        ("ScenarioBody", "outcome", outcome()),
        ("ScenarioBody", "shares", minor_units()),
        (
            "ScenarioBody",
            "users",
            Bound::List {
                min: 0,
                unique: true,
                max: Some(MAX_BATCH),
                each: Some(Box::new(id_bound::<SimulatorUserKind>())),
            },
        ),
        ("ScenarioBody", "resolution", one_of(&RESOLUTIONS, |r| r.as_str())),
        (
            "UserOperationBody",
            "operation",
            Bound::OneOf(UserOperation::NAMES.to_vec()),
        ),
        ("UserOperationBody", "marketId", market()),
        ("UserOperationBody", "outcome", outcome()),
        ("UserOperationBody", "shares", minor_units()),
        ("UserOperationBody", "amount", minor_units()),
        ("UserOperationBody", "stake", shaped(Rupiah::PATTERN, 18)),
        (
            "UserOperationBody",
            "clientTicketId",
            shaped(CLIENT_TICKET_ID_PATTERN, CLIENT_TICKET_ID_MAX_LEN),
        ),
        ("UserOperationBody", "autoCashOut", shaped(Multiplier::PATTERN, 19)),
        (
            "UserOperationBody",
            "cashOutAt",
            multiplier_from(Multiplier::MIN_CASH_OUT, MAX_TARGET),
        ),
        ("UserOperationBody", "ticketId", id_bound::<TicketKind>()),
        (
            "UserOperationBody",
            "faults",
            Bound::List {
                min: 0,
                unique: false,
                max: Some(MAX_FAULTS),
                each: None,
            },
        ),
        (
            "FaultBody",
            "delayMs",
            Bound::Range {
                min: 1,
                max: i64::from(MAX_DELAY_MS),
            },
        ),
        ("CreateStaffBody", "email", email()),
        ("CreateStaffBody", "name", label(Label::MAX_CHARS)),
        ("CreateStaffBody", "scopes", staff_scopes()),
        ("CreateStaffBody", "password", password()),
        ("UpdateStaffBody", "name", label(Label::MAX_CHARS)),
        ("UpdateStaffBody", "scopes", staff_scopes()),
        ("ResetPasswordBody", "password", password()),
        ("OwnPasswordBody", "newPassword", password()),
        ("LoginBody", "email", email()),
    ]
}

/// Operations whose body may be left out (`OptionalJson`): an empty body takes every
/// default. utoipa marks every documented body required.
fn optional_bodies() -> [&'static str; 2] {
    [
        RouteId::WalletAdapterTest.spec().path,
        RouteId::StaffPasswordReset.spec().path,
    ]
}

/// Lays every bound on `document`; returns the entries that matched nothing (for the test
/// that keeps the tables and the document together).
pub fn lay(document: &mut OpenApi) -> Vec<String> {
    let mut unmatched = Vec::new();
    let query = query_parameters();
    let mut query_used = vec![false; query.len()];
    for (path, name, bound) in path_parameters() {
        let mut found = false;
        if let Some(item) = document.paths.paths.get_mut(path) {
            for operation in operations(item) {
                found |= lay_parameter(operation, ParameterIn::Path, name, &bound);
            }
        }
        if !found {
            unmatched.push(format!("path parameter `{name}` of {path}"));
        }
    }
    for (path, name, bound) in path_query_parameters() {
        let mut found = false;
        if let Some(item) = document.paths.paths.get_mut(path) {
            for operation in operations(item) {
                found |= lay_parameter(operation, ParameterIn::Query, name, &bound);
            }
        }
        if !found {
            unmatched.push(format!("query parameter `{name}` of {path}"));
        }
    }
    for item in document.paths.paths.values_mut() {
        for operation in operations(item) {
            for (used, (name, bound)) in query_used.iter_mut().zip(&query) {
                *used |= lay_parameter(operation, ParameterIn::Query, name, bound);
            }
        }
    }
    for ((name, _), used) in query.iter().zip(query_used) {
        if !used {
            unmatched.push(format!("query parameter `{name}`"));
        }
    }
    for path in optional_bodies() {
        let body = document
            .paths
            .paths
            .get_mut(path)
            .and_then(|item| item.post.as_mut())
            .and_then(|operation| operation.request_body.as_mut());
        match body {
            Some(body) => body.required = Some(Required::False),
            None => unmatched.push(format!("the optional body of POST {path}")),
        }
    }
    let mut schemas = document.components.as_mut().map(|components| &mut components.schemas);
    for (schema, property, bound) in body_fields() {
        let target = schemas
            .as_deref_mut()
            .and_then(|schemas| schemas.get_mut(schema))
            .and_then(|schema| match schema {
                RefOr::T(Schema::Object(object)) => object.properties.get_mut(property),
                _ => None,
            });
        let laid = match target {
            Some(RefOr::T(target)) => apply(target, &bound),
            _ => false,
        };
        if !laid {
            unmatched.push(format!("property `{property}` of {schema}"));
        }
    }
    unmatched
}

fn operations(item: &mut utoipa::openapi::PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        &mut item.get,
        &mut item.post,
        &mut item.put,
        &mut item.patch,
        &mut item.delete,
    ]
    .into_iter()
    .flatten()
}

fn lay_parameter(operation: &mut Operation, place: ParameterIn, name: &str, bound: &Bound) -> bool {
    let mut found = false;
    for parameter in operation.parameters.iter_mut().flatten() {
        if parameter.name == name
            && parameter.parameter_in == place
            && let Some(RefOr::T(schema)) = parameter.schema.as_mut()
        {
            found |= apply(schema, bound);
        }
    }
    found
}

/// Lays `bound` on `schema`; false when the schema is not of the bound's kind.
fn apply(schema: &mut Schema, bound: &Bound) -> bool {
    match (schema, bound) {
        (Schema::Array(array), Bound::List { min, max, each, unique }) => {
            array.min_items = (*min > 0).then_some(*min);
            array.max_items = *max;
            array.unique_items = *unique;
            match (each, &mut array.items) {
                (None, _) => true,
                (Some(each), ArrayItems::RefOrSchema(items)) => match items.as_mut() {
                    RefOr::T(items) => apply(items, each),
                    RefOr::Ref(_) => false,
                },
                (Some(_), _) => false,
            }
        }
        (Schema::Object(_), Bound::List { .. }) => false,
        (Schema::Object(object), bound) => {
            apply_to_object(object, bound);
            true
        }
        _ => false,
    }
}

fn apply_to_object(object: &mut Object, bound: &Bound) {
    match bound {
        Bound::Range { min, max } => {
            object.minimum = Some(number(*min));
            object.maximum = Some(number(*max));
        }
        Bound::Text { min, max, pattern } => {
            object.min_length = Some(*min);
            object.max_length = Some(*max);
            object.pattern = pattern.clone();
        }
        Bound::Pattern(pattern) => object.pattern = Some(pattern.clone()),
        Bound::Format { format, max } => {
            object.format = Some(SchemaFormat::Custom((*format).to_owned()));
            object.max_length = *max;
        }
        Bound::OneOf(names) => {
            let mut values: Vec<Value> = names.iter().map(|name| Value::from(*name)).collect();
            if nullable(object) {
                values.push(Value::Null);
            }
            object.enum_values = Some(values);
        }
        Bound::List { .. } => {}
    }
}

/// Whether `object` also admits `null` (an optional field): its closed set then does too.
fn nullable(object: &Object) -> bool {
    matches!(&object.schema_type, SchemaType::Array(types) if types.contains(&Type::Null))
}

fn number(value: i64) -> Number {
    Number::Int(isize::try_from(value).unwrap_or(isize::MAX))
}
