//! The API reference, one page per route family, from the OpenAPI document the service
//! serves: each route's credential and scopes, parameters with their bounds, body and
//! answers, and the schemas they name. A family is the document's tag (the first path
//! segment below `/api/operator`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use opinion_access::RouteSpec;
use serde_json::Value;

use crate::docs_site::reference::{anchor, cell};

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// One family's page.
#[derive(Debug, Clone)]
pub struct FamilyPage {
    /// Its address below `/docs/`, `api/<family>`.
    pub slug: String,
    /// Its title.
    pub title: String,
    /// Its markdown.
    pub markdown: String,
}

/// A family's title; a family the list does not name is titled by its tag.
fn title_of(tag: &str) -> String {
    let known = match tag {
        "api-keys" => "API keys",
        "balance-operations" => "Balance operations",
        "branding" => "Branding of the hosted app",
        "flight" => "Flight",
        "launch" => "Launch",
        "launch-settings" => "Launch settings",
        "markets" => "Markets",
        "openapi.json" => "OpenAPI document",
        "public" => "Public records",
        "redemptions" => "Redemptions",
        "resolutions" => "Resolutions",
        "simulator" => "Simulator (staging)",
        "staff" => "Staff and sessions",
        "trades" => "Trades",
        "users" => "Users and portfolios",
        "views" => "Signed views",
        "wallet-adapter" => "Wallet adapter configuration",
        "webhooks" => "Webhook endpoints and deliveries",
        ".well-known" => "Statement keys",
        other => other,
    };
    known.to_owned()
}

/// The page address of a family: its tag without dots.
fn slug_of(tag: &str) -> String {
    format!("api/{}", tag.trim_start_matches('.').replace('.', "-"))
}

/// The family of the operation at `path` and `method` (lower case), as the document tags it.
fn tag_of<'a>(document: &'a Value, path: &str, method: &str) -> Option<&'a str> {
    document["paths"][path][method]["tags"][0].as_str()
}

/// The heading of a route on its family's page.
fn heading_of(method: &str, path: &str) -> String {
    format!("{} {path}", method.to_uppercase())
}

/// A markdown link from any docs page to the route's section of its family page.
pub fn route_link(document: &Value, spec: &RouteSpec) -> String {
    let method = spec.method.as_str().to_lowercase();
    let heading = heading_of(&method, spec.path);
    match tag_of(document, spec.path, &method) {
        Some(tag) => format!("[`{heading}`](/docs/{}#{})", slug_of(tag), anchor(&heading)),
        None => format!("`{heading}`"),
    }
}

/// Every family's page, in the order of the families' titles.
pub fn pages(document: &Value) -> Vec<FamilyPage> {
    let mut families: BTreeMap<String, Vec<(&str, &str, &Value)>> = BTreeMap::new();
    if let Some(paths) = document["paths"].as_object() {
        for (path, item) in paths {
            for method in METHODS {
                let operation = &item[method];
                if let Some(tag) = operation["tags"][0].as_str() {
                    families
                        .entry(tag.to_owned())
                        .or_default()
                        .push((method, path, operation));
                }
            }
        }
    }
    let mut pages: Vec<FamilyPage> = families
        .into_iter()
        .map(|(tag, operations)| family_page(document, &tag, &operations))
        .collect();
    pages.sort_by(|a, b| a.title.cmp(&b.title));
    pages
}

/// The API overview's list of families, appended to the written conventions page.
pub fn family_list(pages: &[FamilyPage]) -> String {
    let mut list = String::from("\n## Route families\n\n| family | routes |\n|---|---|\n");
    for page in pages {
        let routes = page
            .markdown
            .lines()
            .filter(|line| line.starts_with("## ") && *line != "## Schemas")
            .count();
        let _ = writeln!(list, "| [{}](/docs/{}) | {routes} |", page.title, page.slug);
    }
    list
}

fn family_page(document: &Value, tag: &str, operations: &[(&str, &str, &Value)]) -> FamilyPage {
    let title = title_of(tag);
    let mut markdown = format!(
        "# {title}\n\nGenerated from the service's OpenAPI document \
         ([`/api/operator/openapi.json`](/api/operator/openapi.json)). Conventions every route shares \
         (credentials, errors, pages, ids) are on [the API overview](/docs/api).\n\n"
    );
    let mut schemas = BTreeSet::new();
    for (method, path, operation) in operations {
        operation_section(&mut markdown, &mut schemas, method, path, operation);
    }
    schema_sections(&mut markdown, document, schemas);
    FamilyPage {
        slug: slug_of(tag),
        title,
        markdown,
    }
}

fn operation_section(out: &mut String, schemas: &mut BTreeSet<String>, method: &str, path: &str, operation: &Value) {
    let _ = writeln!(out, "## {}\n", heading_of(method, path));
    if let Some(summary) = operation["summary"].as_str() {
        let _ = writeln!(out, "{summary}\n");
    }
    if let Some(description) = operation["description"].as_str() {
        let _ = writeln!(out, "{description}\n");
    }
    if let Some(parameters) = operation["parameters"].as_array().filter(|p| !p.is_empty()) {
        out.push_str("| parameter | in | required | type | meaning |\n|---|---|---|---|---|\n");
        for parameter in parameters {
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} | {} |",
                parameter["name"].as_str().unwrap_or_default(),
                parameter["in"].as_str().unwrap_or_default(),
                if parameter["required"].as_bool() == Some(true) {
                    "yes"
                } else {
                    "no"
                },
                cell(&type_of(&parameter["schema"], schemas)),
                cell(parameter["description"].as_str().unwrap_or_default()),
            );
        }
        out.push('\n');
    }
    if let Some(content) = operation["requestBody"]["content"].as_object() {
        for (media, body) in content {
            let _ = writeln!(out, "Body (`{media}`): {}\n", type_of(&body["schema"], schemas));
        }
    }
    if let Some(responses) = operation["responses"].as_object() {
        out.push_str("| answer | body | meaning |\n|---|---|---|\n");
        for (status, response) in responses {
            let body = response["content"]
                .as_object()
                .map(|content| {
                    content
                        .iter()
                        .map(|(media, body)| format!("{} `{media}`", type_of(&body["schema"], schemas)))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_else(|| "none".to_owned());
            let _ = writeln!(
                out,
                "| {status} | {body} | {} |",
                cell(response["description"].as_str().unwrap_or_default())
            );
        }
        out.push('\n');
    }
}

/// The schema's type in words, linking the named schemas it uses (and noting them).
fn type_of(schema: &Value, schemas: &mut BTreeSet<String>) -> String {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap_or(reference).to_owned();
        let link = format!("[{name}](#{})", anchor(&name));
        schemas.insert(name);
        return link;
    }
    for (key, joiner) in [("allOf", " and "), ("oneOf", " or "), ("anyOf", " or ")] {
        if let Some(parts) = schema[key].as_array() {
            return parts
                .iter()
                .map(|part| type_of(part, schemas))
                .collect::<Vec<_>>()
                .join(joiner);
        }
    }
    let mut words = match &schema["type"] {
        Value::String(kind) => kind.clone(),
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" or "),
        _ => "any".to_owned(),
    };
    if words.contains("array") {
        words = words.replace("array", &format!("array of {}", type_of(&schema["items"], schemas)));
    }
    if let Some(format) = schema["format"].as_str() {
        let _ = write!(words, " ({format})");
    }
    if let Some(values) = schema["enum"].as_array() {
        let values: Vec<String> = values.iter().map(|value| format!("`{}`", value_text(value))).collect();
        let _ = write!(words, ", one of {}", values.join(", "));
    }
    let bounds = bounds_of(schema);
    if !bounds.is_empty() {
        let _ = write!(words, ", {}", bounds.join(", "));
    }
    words
}

fn value_text(value: &Value) -> String {
    value.as_str().map_or_else(|| value.to_string(), str::to_owned)
}

/// The bounds a schema states, in words.
fn bounds_of(schema: &Value) -> Vec<String> {
    let mut bounds = Vec::new();
    for (key, word) in [
        ("minimum", "at least"),
        ("maximum", "at most"),
        ("minLength", "length at least"),
        ("maxLength", "length at most"),
        ("minItems", "items at least"),
        ("maxItems", "items at most"),
    ] {
        if let Some(bound) = schema.get(key) {
            bounds.push(format!("{word} {bound}"));
        }
    }
    if schema["uniqueItems"].as_bool() == Some(true) {
        bounds.push("no repeats".to_owned());
    }
    if let Some(pattern) = schema["pattern"].as_str() {
        bounds.push(format!("pattern `{pattern}`"));
    }
    bounds
}

/// A section per named schema the routes use, and per schema those name in turn.
fn schema_sections(out: &mut String, document: &Value, mut pending: BTreeSet<String>) {
    if pending.is_empty() {
        return;
    }
    out.push_str("## Schemas\n\n");
    let mut written = BTreeSet::new();
    while let Some(name) = pending.pop_first() {
        if !written.insert(name.clone()) {
            continue;
        }
        let schema = &document["components"]["schemas"][&name];
        let mut named = BTreeSet::new();
        let _ = writeln!(out, "### {name}\n");
        if let Some(description) = schema["description"].as_str() {
            let _ = writeln!(out, "{}\n", description.replace('\n', " "));
        }
        let objects: Vec<&Value> = match schema["allOf"].as_array() {
            Some(parts) => parts.iter().collect(),
            None => vec![schema],
        };
        let mut table = String::new();
        for object in objects {
            if let Some(reference) = object.get("$ref") {
                let _ = writeln!(
                    out,
                    "Includes {}.\n",
                    type_of(&serde_json::json!({ "$ref": reference }), &mut named)
                );
            }
            let required: BTreeSet<&str> = object["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            for (field, property) in object["properties"].as_object().into_iter().flatten() {
                let _ = writeln!(
                    table,
                    "| `{field}` | {} | {} | {} |",
                    cell(&type_of(property, &mut named)),
                    if required.contains(field.as_str()) { "yes" } else { "no" },
                    cell(property["description"].as_str().unwrap_or_default()),
                );
            }
        }
        if table.is_empty() {
            let _ = writeln!(out, "{}\n", type_of(&strip_description(schema), &mut named));
        } else {
            let _ = writeln!(out, "| field | type | required | meaning |\n|---|---|---|---|\n{table}");
        }
        pending.extend(named.into_iter().filter(|name| !written.contains(name)));
    }
}

fn strip_description(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Some(object) = schema.as_object_mut() {
        object.remove("description");
    }
    schema
}

#[cfg(test)]
mod tests {
    use opinion_access::ROUTES;

    use super::*;
    use crate::routing::openapi::document;

    fn document_json() -> Value {
        serde_json::to_value(document()).expect("the document is JSON")
    }

    #[test]
    fn every_route_of_the_table_has_its_section_on_its_familys_page() {
        let document = document_json();
        let pages = pages(&document);
        for spec in ROUTES {
            let method = spec.method.as_str().to_lowercase();
            let tag = tag_of(&document, spec.path, &method).expect("every route is in the document");
            let page = pages
                .iter()
                .find(|page| page.slug == slug_of(tag))
                .expect("its family has a page");
            assert!(
                page.markdown
                    .contains(&format!("\n## {}\n", heading_of(&method, spec.path))),
                "{} {} is not on {}",
                spec.method.as_str(),
                spec.path,
                page.slug
            );
        }
        let sections: usize = pages
            .iter()
            .map(|page| {
                page.markdown
                    .lines()
                    .filter(|line| line.starts_with("## ") && *line != "## Schemas")
                    .count()
            })
            .sum();
        let operations: usize = document["paths"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(_, item)| METHODS.iter().filter(|method| item.get(**method).is_some()).count())
            .sum();
        assert_eq!(
            sections, operations,
            "each operation of the document is on one page, once"
        );
    }

    #[test]
    fn parameters_show_their_bounds_and_bodies_their_schemas() {
        let pages = pages(&document_json());
        let markets = pages
            .iter()
            .find(|page| page.slug == "api/markets")
            .expect("a markets page");
        assert!(
            markets
                .markdown
                .contains("| `limit` | query | no | integer (int32), at least 1, at most 200 |")
        );
        let webhooks = pages
            .iter()
            .find(|page| page.slug == "api/webhooks")
            .expect("a webhooks page");
        assert!(
            webhooks
                .markdown
                .contains("Body (`application/json`): [CreateWebhookEndpointBody]")
        );
        assert!(webhooks.markdown.contains("### CreateWebhookEndpointBody"));
        assert!(webhooks.markdown.contains("### Problem"));
    }
}
