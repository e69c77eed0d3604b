//! The operation of a route the contract names but whose capability is not built yet: it
//! answers 501 `not_implemented` after the guard, and no handler documents it.

use opinion_access::RouteSpec;
use utoipa::openapi::Required;
use utoipa::openapi::path::{Operation, OperationBuilder, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};

use crate::http::problem_responses::problem_response;

/// The 501 operation of `spec`, with its path parameters.
pub fn operation(spec: &RouteSpec) -> Operation {
    let parameters = spec.parameters().map(|name| {
        ParameterBuilder::new()
            .name(name)
            .parameter_in(ParameterIn::Path)
            .required(Required::True)
            .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
            .build()
    });
    OperationBuilder::new()
        .summary(Some(format!("{} {}", spec.method.as_str(), spec.path)))
        .parameters(Some(parameters))
        .response(
            "501",
            problem_response("part of the contract, not available yet (`not_implemented`)"),
        )
        .build()
}
