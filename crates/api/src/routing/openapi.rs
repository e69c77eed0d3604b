//! The OpenAPI 3.1 document, built from the route table so that every route of the
//! contract is in it with its requirement, and from the wire types' schemas.

use opinion_access::{CredentialRule, HttpMethod, ROUTES, Requirement, RouteId, RouteSpec, ScopeRule};
use utoipa::IntoParams;
use utoipa::openapi::path::{
    HttpMethod as DocMethod, OperationBuilder, Parameter, ParameterBuilder, ParameterIn, PathItem,
};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, InfoBuilder, OpenApi, OpenApiBuilder, PathsBuilder, Ref, Required,
    ResponseBuilder,
};

use crate::http::problem::{PROBLEM_JSON, Problem};
use crate::operator::api_keys::dto::{ApiKeyBody, CreateApiKeyBody, CreatedApiKeyBody};
use crate::operator::balance_operations::dto::{BalanceOperationBody, BalanceOperationsQuery, StepBody};
use crate::operator::launch::dto::{LaunchBody, LaunchedBody, PlayerBody};
use crate::operator::markets::dto::{
    MarketBody, MarketsQuery, TrendingBody, TrendingMarketBody, TrendingQuery, TrendingScoreBody, VisibilityBody,
};
use crate::operator::payouts::dto::{RedemptionBody, RedemptionsQuery, ResolutionBody, ResolutionsQuery};
use crate::operator::staff::dto::{
    CreateStaffBody, ResetPasswordBody, StaffBody, StaffWithPasswordBody, UpdateStaffBody,
};
use crate::operator::staff::sessions::dto::{LoginBody, SessionBody};
use crate::operator::trades::dto::{HistoryQuery, TradeBody, TradeDetailBody, TradesQuery};
use crate::operator::users::dto::{
    PortfolioBody, PortfolioLinkBody, PortfolioLinkRequestBody, PortfolioTotalsBody, PositionBody, UserBody,
};
use crate::operator::users::dto::{PortfolioQuery, UsersQuery};
use crate::operator::wallet_adapter::dto::{PutWalletAdapterBody, SavedWalletAdapterBody, WalletAdapterBody};
use crate::operator::wallet_adapter::wallet_test::dto::{
    CheckBody, ExchangeBody, WalletTestBody, WalletTestReportBody,
};
use crate::operator::webhooks::deliveries::dto::{DeliveryQuery, WebhookAttemptBody, WebhookDeliveryBody};
use crate::operator::webhooks::endpoints::dto::{
    CreateWebhookEndpointBody, UpdateWebhookEndpointBody, WebhookEndpointBody, WebhookEndpointWithSecretBody,
};
use crate::routing::router::is_implemented;
use crate::shared::page_query::PageQuery;
use crate::simulator::operations::dto::{OperationReportBody, ReportStepBody, ScenarioBody, UserOperationBody};
use crate::simulator::users::dto::{CreateSimulatedUserBody, FaultBody, SimulatedUserBody, UpdateSimulatedUserBody};
use crate::simulator::wallets::dto::{PutSimulatedWalletBody, SimulatedWalletBody, WalletLogEntryBody};
use crate::views::HTML_UTF8;
use crate::views::dto::PortfolioLinkQuery;
use crate::views::handlers::PORTFOLIO_VIEW_PATH;

/// What a built route reads and answers, for the document.
struct Shape {
    request: Option<&'static str>,
    status: &'static str,
    response: Response,
}

enum Response {
    Object(&'static str),
    List(&'static str),
    Html,
    Empty,
}

fn shape(id: RouteId) -> Option<Shape> {
    use Response::{Empty, Html, List, Object};
    use RouteId as R;
    let shape = |request, status, response| {
        Some(Shape {
            request,
            status,
            response,
        })
    };
    match id {
        R::OpenApiDocument => shape(None, "200", Empty),
        R::ApiKeysList => shape(None, "200", List("ApiKeyBody")),
        R::ApiKeyCreate => shape(Some("CreateApiKeyBody"), "201", Object("CreatedApiKeyBody")),
        R::ApiKeyRevoke => shape(None, "200", Object("ApiKeyBody")),
        R::StaffSessionCreate => shape(Some("LoginBody"), "201", Object("SessionBody")),
        R::StaffSessionEnd => shape(None, "204", Empty),
        R::StaffList => shape(None, "200", List("StaffBody")),
        R::StaffCreate => shape(Some("CreateStaffBody"), "201", Object("StaffWithPasswordBody")),
        R::StaffUpdate => shape(Some("UpdateStaffBody"), "200", Object("StaffBody")),
        R::StaffPasswordReset => shape(Some("ResetPasswordBody"), "200", Object("StaffWithPasswordBody")),
        R::WebhookEndpointsList => shape(None, "200", List("WebhookEndpointBody")),
        R::WebhookEndpointCreate => shape(
            Some("CreateWebhookEndpointBody"),
            "201",
            Object("WebhookEndpointWithSecretBody"),
        ),
        R::WebhookEndpointUpdate => shape(
            Some("UpdateWebhookEndpointBody"),
            "200",
            Object("WebhookEndpointWithSecretBody"),
        ),
        R::WebhookEndpointDelete | R::WebhookEndpointDeleteByPost => shape(None, "204", Empty),
        R::WebhookDeliveriesList => shape(None, "200", List("WebhookDeliveryBody")),
        R::WebhookDeliveryReplay => shape(None, "200", Object("WebhookDeliveryBody")),
        R::Launch => shape(Some("LaunchBody"), "201", Object("LaunchedBody")),
        R::WalletAdapterGet => shape(None, "200", Object("WalletAdapterBody")),
        R::WalletAdapterPut => shape(Some("PutWalletAdapterBody"), "200", Object("SavedWalletAdapterBody")),
        R::PortfolioViewLink => shape(Some("PortfolioLinkRequestBody"), "201", Object("PortfolioLinkBody")),
        R::UsersList => shape(None, "200", List("UserBody")),
        R::UserPortfolio => shape(None, "200", Object("PortfolioBody")),
        R::UserPortfolioView | R::TradeView | R::TradeHistoryPage => shape(None, "200", Html),
        R::MarketsList => shape(None, "200", List("MarketBody")),
        R::MarketsTrending => shape(None, "200", Object("TrendingBody")),
        R::MarketVisibilitySet => shape(Some("VisibilityBody"), "200", Object("MarketBody")),
        R::TradesList => shape(None, "200", List("TradeBody")),
        R::TradeGet => shape(None, "200", Object("TradeDetailBody")),
        R::ResolutionsList => shape(None, "200", List("ResolutionBody")),
        R::RedemptionsList => shape(None, "200", List("RedemptionBody")),
        R::BalanceOperationsList => shape(None, "200", List("BalanceOperationBody")),
        R::WalletAdapterTest => shape(Some("WalletTestBody"), "200", Object("WalletTestReportBody")),
        R::SimulatorUsersList => shape(None, "200", List("SimulatedUserBody")),
        R::SimulatorUserCreate => shape(Some("CreateSimulatedUserBody"), "201", Object("SimulatedUserBody")),
        R::SimulatorUserGet => shape(None, "200", Object("SimulatedUserBody")),
        R::SimulatorUserUpdate => shape(Some("UpdateSimulatedUserBody"), "200", Object("SimulatedUserBody")),
        R::SimulatorWalletGet => shape(None, "200", Object("SimulatedWalletBody")),
        R::SimulatorWalletPut => shape(Some("PutSimulatedWalletBody"), "200", Object("SimulatedWalletBody")),
        R::SimulatorUserOperation => shape(Some("UserOperationBody"), "200", Object("OperationReportBody")),
        R::SimulatorOperation => shape(Some("ScenarioBody"), "200", Object("OperationReportBody")),
        _ => None,
    }
}

/// The query parameters of a route that has its own (filters included).
fn query_parameters(id: RouteId) -> Option<Vec<Parameter>> {
    use RouteId as R;
    let query = Some(ParameterIn::Query);
    Some(match id {
        R::UsersList => UsersQuery::into_params(|| query.clone()),
        R::UserPortfolio | R::UserPortfolioView => PortfolioQuery::into_params(|| query.clone()),
        R::MarketsList => MarketsQuery::into_params(|| query.clone()),
        R::MarketsTrending => TrendingQuery::into_params(|| query.clone()),
        R::TradesList => TradesQuery::into_params(|| query.clone()),
        R::TradeView | R::TradeHistoryPage => HistoryQuery::into_params(|| query.clone()),
        R::ResolutionsList => ResolutionsQuery::into_params(|| query.clone()),
        R::RedemptionsList => RedemptionsQuery::into_params(|| query.clone()),
        R::BalanceOperationsList => BalanceOperationsQuery::into_params(|| query.clone()),
        _ => return None,
    })
}

/// The whole document.
pub fn document() -> OpenApi {
    let paths = ROUTES
        .iter()
        .fold(PathsBuilder::new(), |paths, spec| {
            paths.path(spec.path, PathItem::new(doc_method(spec.method), operation(spec)))
        })
        .path(
            PORTFOLIO_VIEW_PATH,
            PathItem::new(DocMethod::Get, portfolio_view_operation()),
        );
    let components = ComponentsBuilder::new()
        .schema_from::<Problem>()
        .schema_from::<ApiKeyBody>()
        .schema_from::<CreateApiKeyBody>()
        .schema_from::<CreatedApiKeyBody>()
        .schema_from::<StaffBody>()
        .schema_from::<CreateStaffBody>()
        .schema_from::<UpdateStaffBody>()
        .schema_from::<ResetPasswordBody>()
        .schema_from::<StaffWithPasswordBody>()
        .schema_from::<LoginBody>()
        .schema_from::<SessionBody>()
        .schema_from::<WebhookEndpointBody>()
        .schema_from::<WebhookEndpointWithSecretBody>()
        .schema_from::<CreateWebhookEndpointBody>()
        .schema_from::<UpdateWebhookEndpointBody>()
        .schema_from::<WebhookDeliveryBody>()
        .schema_from::<WebhookAttemptBody>()
        .schema_from::<LaunchBody>()
        .schema_from::<LaunchedBody>()
        .schema_from::<PlayerBody>()
        .schema_from::<WalletAdapterBody>()
        .schema_from::<PutWalletAdapterBody>()
        .schema_from::<SavedWalletAdapterBody>()
        .schema_from::<UserBody>()
        .schema_from::<PositionBody>()
        .schema_from::<PortfolioTotalsBody>()
        .schema_from::<PortfolioBody>()
        .schema_from::<PortfolioLinkRequestBody>()
        .schema_from::<PortfolioLinkBody>()
        .schema_from::<MarketBody>()
        .schema_from::<VisibilityBody>()
        .schema_from::<TrendingScoreBody>()
        .schema_from::<TrendingMarketBody>()
        .schema_from::<TrendingBody>()
        .schema_from::<TradeBody>()
        .schema_from::<TradeDetailBody>()
        .schema_from::<StepBody>()
        .schema_from::<BalanceOperationBody>()
        .schema_from::<ResolutionBody>()
        .schema_from::<RedemptionBody>()
        .schema_from::<WalletTestBody>()
        .schema_from::<WalletTestReportBody>()
        .schema_from::<CheckBody>()
        .schema_from::<ExchangeBody>()
        .schema_from::<FaultBody>()
        .schema_from::<CreateSimulatedUserBody>()
        .schema_from::<UpdateSimulatedUserBody>()
        .schema_from::<SimulatedUserBody>()
        .schema_from::<PutSimulatedWalletBody>()
        .schema_from::<SimulatedWalletBody>()
        .schema_from::<WalletLogEntryBody>()
        .schema_from::<UserOperationBody>()
        .schema_from::<ScenarioBody>()
        .schema_from::<OperationReportBody>()
        .schema_from::<ReportStepBody>()
        .security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        )
        .build();
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Opinion operator API")
                .version("v1")
                .description(Some(
                    "REST v1 of the Opinion platform. Authenticate with `Authorization: Bearer <API key or staff session token>`. \
                     Errors are `application/problem+json` with a stable `code`.",
                ))
                .build(),
        )
        .paths(paths.build())
        .components(Some(components))
        .build()
}

fn operation(spec: &RouteSpec) -> utoipa::openapi::path::Operation {
    let shape = shape(spec.id);
    let mut builder = OperationBuilder::new()
        .operation_id(Some(format!("{:?}", spec.id)))
        .tag(tag(spec.path))
        .summary(Some(format!("{} {}", spec.method.as_str(), spec.path)))
        .description(Some(requirement_text(&spec.requirement)));
    for name in spec.parameters() {
        builder = builder.parameter(
            ParameterBuilder::new()
                .name(name)
                .parameter_in(ParameterIn::Path)
                .required(Required::True)
                .schema(Some(ObjectBuilder::new().schema_type(Type::String))),
        );
    }
    if let Some(parameters) = query_parameters(spec.id) {
        for parameter in parameters {
            builder = builder.parameter(parameter);
        }
    } else if matches!(
        shape,
        Some(Shape {
            response: Response::List(_),
            ..
        })
    ) {
        let parameters = if spec.id == RouteId::WebhookDeliveriesList {
            DeliveryQuery::into_params(|| Some(ParameterIn::Query))
        } else {
            PageQuery::into_params(|| Some(ParameterIn::Query))
        };
        for parameter in parameters {
            builder = builder.parameter(parameter);
        }
    }
    if !spec.requirement.is_public() {
        builder = builder
            .security(SecurityRequirement::new("bearer", Vec::<String>::new()))
            .response("401", problem_response("no usable credential"))
            .response(
                "403",
                problem_response("the credential lacks a required scope or is of the wrong kind"),
            );
    }
    match shape {
        Some(shape) => {
            if let Some(request) = shape.request {
                builder = builder
                    .request_body(Some(
                        RequestBodyBuilder::new()
                            .content(
                                "application/json",
                                ContentBuilder::new()
                                    .schema(Some(Ref::from_schema_name(request)))
                                    .build(),
                            )
                            .build(),
                    ))
                    .response("400", problem_response("the request is malformed or invalid"));
            }
            let has_path_parameters = spec.parameters().next().is_some();
            if query_parameters(spec.id).is_some() || has_path_parameters {
                builder = builder.response("400", problem_response("a parameter is malformed or invalid"));
            }
            let names_a_player = matches!(
                spec.id,
                RouteId::UserPortfolio | RouteId::UserPortfolioView | RouteId::PortfolioViewLink
            );
            if has_path_parameters || names_a_player {
                builder = builder.response("404", problem_response("no such object for this operator"));
            }
            builder.response(shape.status, success_response(shape.response)).build()
        }
        None => {
            debug_assert!(!is_implemented(spec.id));
            builder
                .response("501", problem_response("part of the contract, not available yet"))
                .build()
        }
    }
}

fn success_response(response: Response) -> utoipa::openapi::Response {
    let content = |schema: utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>| {
        ContentBuilder::new().schema(Some(schema)).build()
    };
    match response {
        Response::Object(name) => ResponseBuilder::new()
            .description("success")
            .content("application/json", content(Ref::from_schema_name(name).into()))
            .build(),
        Response::List(item) => {
            let page = ObjectBuilder::new()
                .property("data", ArrayBuilder::new().items(Ref::from_schema_name(item)))
                .required("data")
                .property(
                    "nextCursor",
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .description(Some("null on the last page")),
                )
                .property("hasMore", ObjectBuilder::new().schema_type(Type::Boolean))
                .required("hasMore");
            ResponseBuilder::new()
                .description("one page, newest first")
                .content("application/json", content(page.into()))
                .build()
        }
        Response::Html => html_response(),
        Response::Empty => ResponseBuilder::new().description("success").build(),
    }
}

fn html_response() -> utoipa::openapi::Response {
    ResponseBuilder::new()
        .description("an HTML page (UTF-8) with a restrictive Content-Security-Policy")
        .content(
            HTML_UTF8,
            ContentBuilder::new()
                .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                .build(),
        )
        .build()
}

/// The public page a signed portfolio link opens: the token is its only credential.
fn portfolio_view_operation() -> utoipa::openapi::path::Operation {
    let mut builder = OperationBuilder::new()
        .operation_id(Some("PortfolioViewByLink"))
        .tag("views")
        .summary(Some(format!("GET {PORTFOLIO_VIEW_PATH}")))
        .description(Some(
            "No credential besides the link's signed token (from POST /api/operator/users/portfolio-view); \
             read-only, until the link expires.",
        ));
    for parameter in PortfolioLinkQuery::into_params(|| Some(ParameterIn::Query)) {
        builder = builder.parameter(parameter);
    }
    builder
        .response("200", html_response())
        .response("401", problem_response("the link is invalid or has expired"))
        .response("404", problem_response("the player no longer exists"))
        .build()
}

fn problem_response(description: &str) -> utoipa::openapi::Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            PROBLEM_JSON,
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Problem")))
                .build(),
        )
        .build()
}

fn requirement_text(requirement: &Requirement) -> String {
    match requirement {
        Requirement::Public => "No credential required.".to_owned(),
        Requirement::Authenticated { credential, scopes } => {
            let who = match credential {
                CredentialRule::Any => "API key or staff session",
                CredentialRule::StaffSessionOnly => "Staff session only (API keys are refused)",
            };
            let names = |s: &[opinion_access::Scope]| s.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
            match scopes {
                ScopeRule::None | ScopeRule::AllOf([]) => format!("{who}; no scope required."),
                ScopeRule::AllOf(s) => format!("{who}; requires all of: {}.", names(s)),
                ScopeRule::AnyOf(s) => format!("{who}; requires any one of: {}.", names(s)),
            }
        }
    }
}

fn tag(path: &str) -> String {
    path.trim_start_matches("/api/operator/")
        .split('/')
        .next()
        .unwrap_or("operator")
        .to_owned()
}

fn doc_method(method: HttpMethod) -> DocMethod {
    match method {
        HttpMethod::Get => DocMethod::Get,
        HttpMethod::Post => DocMethod::Post,
        HttpMethod::Put => DocMethod::Put,
        HttpMethod::Patch => DocMethod::Patch,
        HttpMethod::Delete => DocMethod::Delete,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_every_route_and_only_built_routes_have_shapes() {
        let document = serde_json::to_value(document()).expect("serialisable");
        assert_eq!(document["openapi"], "3.1.0");
        for spec in ROUTES {
            let method = spec.method.as_str().to_ascii_lowercase();
            let operation = &document["paths"][spec.path][&method];
            assert!(operation.is_object(), "{} {} missing", spec.method.as_str(), spec.path);
            assert_eq!(shape(spec.id).is_some(), is_implemented(spec.id), "{:?}", spec.id);
            assert_eq!(
                operation["responses"]["501"].is_object(),
                !is_implemented(spec.id),
                "{:?}",
                spec.id
            );
        }
    }
}
