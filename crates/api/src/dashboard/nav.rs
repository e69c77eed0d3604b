//! The dashboard's sections and the API route each mirrors: a section is listed in the
//! navigation, and served, only to a member whose scopes pass that route's requirement in
//! the route table, so the scope rule has one source.

use opinion_access::RouteId;

/// One entry of the navigation.
pub struct Section {
    /// Its address.
    pub path: &'static str,
    /// What the navigation calls it.
    pub title: &'static str,
    /// The API route whose requirement decides who sees it; none for the overview, which
    /// every member sees (each of its panels is shown by its own route's requirement).
    pub route: Option<RouteId>,
    /// Shown only where a simulator runs (development and staging).
    pub simulator_only: bool,
}

/// Where the flight product's sections start: they are shown only to a member of an
/// operator that has the product.
pub const FLIGHT_PATH: &str = "/dashboard/flight";

impl Section {
    /// Whether this is one of the flight product's sections.
    pub fn is_flight(&self) -> bool {
        self.path.starts_with(FLIGHT_PATH)
    }
}

const fn section(path: &'static str, title: &'static str, route: RouteId) -> Section {
    Section {
        path,
        title,
        route: Some(route),
        simulator_only: false,
    }
}

/// Every section, in navigation order.
pub const SECTIONS: &[Section] = &[
    Section {
        path: "/dashboard",
        title: "Overview",
        route: None,
        simulator_only: false,
    },
    section("/dashboard/users", "Players", RouteId::UsersList),
    section("/dashboard/markets", "Markets", RouteId::MarketsList),
    section("/dashboard/trades", "Trades", RouteId::TradesList),
    section("/dashboard/resolutions", "Resolutions", RouteId::ResolutionsList),
    section("/dashboard/redemptions", "Redemptions", RouteId::RedemptionsList),
    section(
        "/dashboard/balance-operations",
        "Balance operations",
        RouteId::BalanceOperationsList,
    ),
    section("/dashboard/api-keys", "API keys", RouteId::ApiKeysList),
    section("/dashboard/webhooks", "Webhooks", RouteId::WebhookEndpointsList),
    section("/dashboard/deliveries", "Deliveries", RouteId::WebhookDeliveriesList),
    section("/dashboard/wallet", "Wallet adapter", RouteId::WalletAdapterGet),
    section("/dashboard/staff", "Staff", RouteId::StaffList),
    section("/dashboard/flight", "Flight overview", RouteId::FlightOverview),
    section("/dashboard/flight/flights", "Flights", RouteId::FlightFlightsList),
    section(
        "/dashboard/flight/tickets",
        "Flight tickets",
        RouteId::FlightTicketsList,
    ),
    section("/dashboard/flight/terms", "Flight terms", RouteId::FlightTermsCurrent),
    section(
        "/dashboard/flight/statements",
        "Flight statements",
        RouteId::FlightSettlementReportsList,
    ),
    section(
        "/dashboard/flight/payments",
        "Flight payments",
        RouteId::FlightPaymentsList,
    ),
    section(
        "/dashboard/flight/corrections",
        "Flight corrections",
        RouteId::FlightStatementCorrectionsList,
    ),
    Section {
        path: "/dashboard/simulator",
        title: "Simulator",
        route: Some(RouteId::SimulatorUsersList),
        simulator_only: true,
    },
    section("/dashboard/password", "Your password", RouteId::StaffOwnPasswordChange),
];
