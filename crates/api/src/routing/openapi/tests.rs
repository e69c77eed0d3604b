//! The document against the route table and against itself.

use std::collections::BTreeSet;

use opinion_access::ROUTES;
use serde_json::Value;
use utoipa::OpenApi as _;

use crate::routing::openapi::document;
use crate::routing::openapi::operations::HandlerOperations;
use crate::views::handlers::PORTFOLIO_VIEW_PATH;

/// Operations mounted beside the route table on purpose and documented: the public page a
/// portfolio link opens.
const BESIDE_THE_TABLE: &[(&str, &str)] = &[("get", PORTFOLIO_VIEW_PATH)];

fn operations(document: &Value) -> BTreeSet<(String, String)> {
    let paths = document["paths"].as_object().expect("paths");
    paths
        .iter()
        .flat_map(|(path, item)| {
            let methods = item.as_object().expect("a path item").keys();
            methods.map(move |method| (method.clone(), path.clone()))
        })
        .collect()
}

fn expected() -> BTreeSet<(String, String)> {
    let table = ROUTES
        .iter()
        .map(|spec| (spec.method.as_str().to_ascii_lowercase(), spec.path.to_owned()));
    let beside = BESIDE_THE_TABLE
        .iter()
        .map(|(method, path)| ((*method).to_owned(), (*path).to_owned()));
    table.chain(beside).collect()
}

#[test]
fn the_document_has_every_route_of_the_table_and_nothing_else() {
    let document = serde_json::to_value(document()).expect("serialisable");
    assert_eq!(document["openapi"], "3.1.0");
    let documented = operations(&document);
    let expected = expected();
    let missing: Vec<_> = expected.difference(&documented).collect();
    let unknown: Vec<_> = documented.difference(&expected).collect();
    assert!(
        missing.is_empty(),
        "routes of the table missing from the document: {missing:?}"
    );
    assert!(unknown.is_empty(), "operations the route table lacks: {unknown:?}");
}

#[test]
fn every_handler_documents_a_route_of_the_table() {
    let handlers = serde_json::to_value(HandlerOperations::openapi()).expect("serialisable");
    let unknown: Vec<_> = operations(&handlers).difference(&expected()).cloned().collect();
    assert!(
        unknown.is_empty(),
        "handlers document operations the route table lacks (a wrong method or path?): {unknown:?}"
    );
}

#[test]
fn every_reference_resolves_to_a_component() {
    let document = serde_json::to_value(document()).expect("serialisable");
    let mut references = Vec::new();
    collect_references(&document, &mut references);
    assert!(!references.is_empty());
    for reference in references {
        let pointer = reference
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("`{reference}` points outside the document"));
        assert!(
            pointer.starts_with("/components/") && document.pointer(pointer).is_some(),
            "`{reference}` resolves to no component"
        );
    }
}

fn collect_references(value: &Value, references: &mut Vec<String>) {
    match value {
        Value::Object(members) => {
            if let Some(Value::String(reference)) = members.get("$ref") {
                references.push(reference.clone());
            }
            members
                .values()
                .for_each(|member| collect_references(member, references));
        }
        Value::Array(items) => items.iter().for_each(|item| collect_references(item, references)),
        _ => {}
    }
}

#[test]
fn every_bound_names_a_parameter_or_property_of_the_document() {
    let mut document = document();
    let unmatched = super::bounds::lay(&mut document);
    assert!(unmatched.is_empty(), "bounds that match nothing: {unmatched:?}");
}

#[test]
fn the_bounds_are_the_domains_own() {
    let document = serde_json::to_value(document()).expect("serialisable");
    let parameter = |path: &str, method: &str, name: &str| {
        document["paths"][path][method]["parameters"]
            .as_array()
            .and_then(|all| all.iter().find(|p| p["name"] == name))
            .map(|p| p["schema"].clone())
            .unwrap_or_else(|| panic!("{method} {path} has no `{name}`"))
    };
    let limit = parameter("/api/operator/trades", "get", "limit");
    assert_eq!(limit["minimum"], u64::from(opinion_core::PageLimit::MIN));
    assert_eq!(limit["maximum"], u64::from(opinion_core::PageLimit::MAX));
    let player = parameter("/api/operator/users/portfolio", "get", "externalUserId");
    assert_eq!(player["maxLength"], opinion_core::ExternalUserId::MAX_CHARS);
    assert_eq!(player["minLength"], 1);
    let market = parameter("/api/operator/markets/{id}/visibility", "post", "id");
    assert_eq!(market["pattern"], "^(mkt_[0-7][0-9a-hjkmnp-tv-z]{25})$");
    assert_eq!(parameter("/api/operator/trades", "get", "from")["format"], "date-time");
    let name = &document["components"]["schemas"]["CreateApiKeyBody"]["properties"]["name"];
    assert_eq!(name["maxLength"], opinion_core::Label::MAX_CHARS);
}

/// The id patterns say a ULID is 26 lower-case Crockford digits, the first at most 7: the
/// text ids are written in, at both ends of the ULID range.
#[test]
fn ids_are_written_as_the_pattern_says() {
    const DIGITS: &str = "0123456789abcdefghjkmnpqrstvwxyz";
    for value in [0, 1, u128::MAX / 3, u128::MAX] {
        let text = opinion_core::MarketId::from_ulid(ulid::Ulid(value)).to_string();
        let body = text.strip_prefix("mkt_").expect("the kind's prefix");
        assert_eq!(body.chars().count(), 26, "{text}");
        assert!(('0'..='7').contains(&body.chars().next().expect("a digit")), "{text}");
        assert!(body.chars().all(|c| DIGITS.contains(c)), "{text}");
    }
}
