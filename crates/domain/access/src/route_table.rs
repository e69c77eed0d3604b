//! Every route of the operator contract, with its requirement, declared once, and the
//! shape of one declaration. The endpoint table and the flight table of the contract map onto
//! this list; the flight paths are the platform's own choice (the contract leaves them open),
//! and so are the launch settings, the branding and a staff member's own password change, additions to
//! REST v1, and the public routes under
//! `/api/public` (what the platform publishes to anyone, such as the flight game's seed
//! chain commitments).

use crate::http_method::HttpMethod::{self, Delete, Get, Patch, Post, Put};
use crate::requirement::Requirement;
use crate::scope::Scope::{self, *};

/// The declaration of one route; the API mounts and guards routes from these alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouteSpec {
    /// Which route this is.
    pub id: RouteId,
    /// Its HTTP method.
    pub method: HttpMethod,
    /// Its path below the service root, with `{name}` parameters.
    pub path: &'static str,
    /// What a caller must present.
    pub requirement: Requirement,
}

impl RouteSpec {
    /// The path's segments that are parameters, in order.
    pub fn parameters(&self) -> impl Iterator<Item = &'static str> {
        self.path
            .split('/')
            .filter_map(|segment| segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
    }
}

macro_rules! routes {
    ($($id:ident: $method:ident $path:literal => $requirement:expr,)+) => {
        /// Names every route of the service, so code refers to a route without repeating its path.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RouteId {
            $(#[doc = concat!("`", stringify!($method), " ", $path, "`")] $id,)+
        }

        /// Every route of the service, in `RouteId` order: the single source of truth for
        /// mounting and guarding routes.
        pub const ROUTES: &[RouteSpec] = &[
            $(RouteSpec { id: RouteId::$id, method: $method, path: $path, requirement: $requirement },)+
        ];
    };
}

const fn scope(scope: &'static [Scope; 1]) -> Requirement {
    Requirement::all_of(scope)
}

/// The requirement of `POST /users/portfolio-view`, which the contract lists under two
/// scopes without saying whether both are needed: either one suffices. A `launch:write`
/// key can already open the whole hosted app for a user, and a `users:read` key can
/// already read the same portfolio through the API; the link grants nothing beyond that.
const PORTFOLIO_VIEW_LINK: Requirement = Requirement::any_of(&[LaunchWrite, UsersRead]);
/// The launch settings (an addition to the contract: the hosts players arrive on and the
/// sites that may frame the app there) are read and written with `launch:write`: they
/// configure launches, a launch key must know which hosts it may name, and the contract
/// has no `launch:read` to add without inventing a scope.
const LAUNCH_SETTINGS: Requirement = Requirement::all_of(&[LaunchWrite]);
/// The operator's brand in the hosted app (an addition to the contract) is read and
/// written with `launch:write` for the same reasons: it shapes what a launch opens, and
/// the contract has no scope of its own to give it.
const BRANDING: Requirement = Requirement::all_of(&[LaunchWrite]);
/// A member's change of their own password (an addition to the contract): any staff
/// session, whatever its scopes, for the member it belongs to only; never an API key,
/// which has no password.
const OWN_PASSWORD: Requirement = Requirement::staff(&[]);
/// The playground console setting (an addition to the contract: whether the docs'
/// console may send more than reads in production) governs what a pasted API key can do
/// from a web page, so it is read and changed with the API key scopes.
const PLAYGROUND_READ: Requirement = Requirement::all_of(&[ApiKeysRead]);
/// See [`PLAYGROUND_READ`].
const PLAYGROUND_WRITE: Requirement = Requirement::all_of(&[ApiKeysWrite]);
/// Flight tickets need both flight scopes (contract rule 3).
const TICKETS: Requirement = Requirement::all_of(&[FlightRead, FlightTermsRead]);
/// Flight balance operations need flight and balance-operation reads (contract rule 4).
const FLIGHT_BALANCE_OPERATIONS: Requirement = Requirement::all_of(&[FlightRead, BalanceOperationsRead]);
/// Flight webhook delivery evidence needs flight and webhook reads (contract rule 5).
const FLIGHT_DELIVERY_EVIDENCE: Requirement = Requirement::all_of(&[FlightRead, WebhooksRead]);

routes! {
    OpenApiDocument: Get "/api/operator/openapi.json" => Requirement::Public,
    Launch: Post "/api/operator/launch" => scope(&[LaunchWrite]),
    LaunchSettingsGet: Get "/api/operator/launch-settings" => LAUNCH_SETTINGS,
    LaunchSettingsPut: Put "/api/operator/launch-settings" => LAUNCH_SETTINGS,
    BrandingGet: Get "/api/operator/branding" => BRANDING,
    BrandingPut: Put "/api/operator/branding" => BRANDING,
    PortfolioViewLink: Post "/api/operator/users/portfolio-view" => PORTFOLIO_VIEW_LINK,
    UsersList: Get "/api/operator/users" => scope(&[UsersRead]),
    UserPortfolio: Get "/api/operator/users/portfolio" => scope(&[UsersRead]),
    UserPortfolioView: Get "/api/operator/users/portfolio-view" => scope(&[UsersRead]),
    MarketsList: Get "/api/operator/markets" => scope(&[MarketsRead]),
    MarketsTrending: Get "/api/operator/markets/trending" => scope(&[MarketsRead]),
    MarketVisibilitySet: Post "/api/operator/markets/{id}/visibility" => scope(&[MarketsWrite]),
    MarketVisibilityModeGet: Get "/api/operator/markets/visibility-mode" => scope(&[MarketsRead]),
    MarketVisibilityModeSet: Put "/api/operator/markets/visibility-mode" => scope(&[MarketsWrite]),
    TradesList: Get "/api/operator/trades" => scope(&[TradesRead]),
    TradeGet: Get "/api/operator/trades/{tradeId}" => scope(&[TradesRead]),
    TradeView: Get "/api/operator/trades/{tradeId}/view" => scope(&[TradesRead]),
    TradeHistoryPage: Get "/api/operator/trades/{marketId}/{externalUserId}" => scope(&[TradesRead]),
    ResolutionsList: Get "/api/operator/resolutions" => scope(&[RedemptionsRead]),
    RedemptionsList: Get "/api/operator/redemptions" => scope(&[RedemptionsRead]),
    BalanceOperationsList: Get "/api/operator/balance-operations" => scope(&[BalanceOperationsRead]),
    WalletAdapterGet: Get "/api/operator/wallet-adapter" => scope(&[WalletAdapterRead]),
    WalletAdapterPut: Put "/api/operator/wallet-adapter" => scope(&[WalletAdapterWrite]),
    WalletAdapterTest: Post "/api/operator/wallet-adapter/test" => scope(&[WalletAdapterWrite]),
    ApiKeysList: Get "/api/operator/api-keys" => scope(&[ApiKeysRead]),
    ApiKeyCreate: Post "/api/operator/api-keys" => scope(&[ApiKeysWrite]),
    ApiKeyRevoke: Post "/api/operator/api-keys/{id}/revoke" => scope(&[ApiKeysWrite]),
    PlaygroundGet: Get "/api/operator/playground" => PLAYGROUND_READ,
    PlaygroundPut: Put "/api/operator/playground" => PLAYGROUND_WRITE,
    WebhookEndpointsList: Get "/api/operator/webhooks/endpoints" => scope(&[WebhooksRead]),
    WebhookDeliveriesList: Get "/api/operator/webhooks/deliveries" => scope(&[WebhooksRead]),
    WebhookEndpointCreate: Post "/api/operator/webhooks/endpoints" => scope(&[WebhooksWrite]),
    WebhookEndpointUpdate: Patch "/api/operator/webhooks/endpoints/{id}" => scope(&[WebhooksWrite]),
    WebhookEndpointDelete: Delete "/api/operator/webhooks/endpoints/{id}" => scope(&[WebhooksWrite]),
    WebhookEndpointDeleteByPost: Post "/api/operator/webhooks/endpoints/{id}/delete" => scope(&[WebhooksWrite]),
    WebhookDeliveryReplay: Post "/api/operator/webhooks/deliveries/{id}/replay" => scope(&[WebhooksWrite]),
    SimulatorUsersList: Get "/api/operator/simulator/users" => scope(&[SimulatorRead]),
    SimulatorUserGet: Get "/api/operator/simulator/users/{id}" => scope(&[SimulatorRead]),
    SimulatorWalletGet: Get "/api/operator/simulator/wallets/{externalUserId}" => scope(&[SimulatorRead]),
    SimulatorUserCreate: Post "/api/operator/simulator/users" => scope(&[SimulatorWrite]),
    SimulatorUserUpdate: Patch "/api/operator/simulator/users/{id}" => scope(&[SimulatorWrite]),
    SimulatorUserOperation: Post "/api/operator/simulator/users/{id}/operations" => scope(&[SimulatorWrite]),
    SimulatorWalletPut: Put "/api/operator/simulator/wallets/{externalUserId}" => scope(&[SimulatorWrite]),
    SimulatorOperation: Post "/api/operator/simulator/operations" => scope(&[SimulatorWrite]),
    StaffSessionCreate: Post "/api/operator/staff/sessions" => Requirement::Public,
    StaffSessionEnd: Delete "/api/operator/staff/sessions/current" => Requirement::staff(&[]),
    StaffOwnPasswordChange: Post "/api/operator/staff/me/password" => OWN_PASSWORD,
    StaffList: Get "/api/operator/staff" => Requirement::staff(&[StaffsRead]),
    StaffCreate: Post "/api/operator/staff" => Requirement::staff(&[StaffsWrite]),
    StaffUpdate: Patch "/api/operator/staff/{id}" => Requirement::staff(&[StaffsWrite]),
    StaffPasswordReset: Post "/api/operator/staff/{id}/reset-password" => Requirement::staff(&[StaffsWrite]),
    FlightOverview: Get "/api/operator/flight/overview" => scope(&[FlightRead]),
    FlightFlightsList: Get "/api/operator/flight/flights" => scope(&[FlightRead]),
    FlightFlightGet: Get "/api/operator/flight/flights/{id}" => scope(&[FlightRead]),
    FlightFlightsExport: Get "/api/operator/flight/flights/export" => scope(&[FlightRead]),
    FlightTicketsList: Get "/api/operator/flight/tickets" => TICKETS,
    FlightTicketGet: Get "/api/operator/flight/tickets/{id}" => TICKETS,
    FlightTicketsExport: Get "/api/operator/flight/tickets/export" => TICKETS,
    FlightTicketProof: Get "/api/operator/flight/tickets/{id}/proof" => TICKETS,
    FlightWalletOperationsList: Get "/api/operator/flight/wallet-operations" => FLIGHT_BALANCE_OPERATIONS,
    FlightWebhookDeliveriesList: Get "/api/operator/flight/webhook-deliveries" => FLIGHT_DELIVERY_EVIDENCE,
    FlightTermsCurrent: Get "/api/operator/flight/terms/current" => scope(&[FlightTermsRead]),
    FlightTermsScheduled: Get "/api/operator/flight/terms/scheduled" => scope(&[FlightTermsRead]),
    FlightTermsHistory: Get "/api/operator/flight/terms/history" => scope(&[FlightTermsRead]),
    FlightSettlementReportsList: Get "/api/operator/flight/settlement-reports" => scope(&[FlightSettlementsRead]),
    FlightSettlementReportGet: Get "/api/operator/flight/settlement-reports/{id}" => scope(&[FlightSettlementsRead]),
    FlightSettlementReportExport: Get "/api/operator/flight/settlement-reports/{id}/export" => scope(&[FlightSettlementsRead]),
    FlightPaymentsList: Get "/api/operator/flight/payments" => scope(&[FlightSettlementsRead]),
    FlightSettlementReportPayments: Get "/api/operator/flight/settlement-reports/{id}/payments" => scope(&[FlightSettlementsRead]),
    FlightStatementCorrectionsList: Get "/api/operator/flight/statement-corrections" => scope(&[FlightSettlementsRead]),
    PublicFlightChainsList: Get "/api/public/flight/chains" => Requirement::Public,
    PublicFlightChainGet: Get "/api/public/flight/chains/{id}" => Requirement::Public,
    StatementKeys: Get "/.well-known/opinion-statement-keys.json" => Requirement::Public,
}

impl RouteId {
    /// The declaration of this route.
    pub fn spec(self) -> &'static RouteSpec {
        &ROUTES[self as usize]
    }
}
