//! The event catalog page: every type of the code's catalog (`EventType::ALL`), when it
//! is sent, its `data` fields, and a whole envelope as a receiver gets it. What a type
//! means and its example `data` are written once, in the webhook page's "Event types"
//! table and its examples; the tests hold that table and those examples to the catalog
//! (no type missing or extra, the example's fields the documented ones, every example an
//! envelope the domain crate reads).

use std::fmt::Write as _;

use opinion_webhook::EventType;
use serde_json::{Map, Value, json};

use crate::docs_site::reference::anchor;
use crate::docs_site::sources::WEBHOOKS;

/// The envelope members every example shares; only `type`, `createdAt` and `data` vary.
const EXAMPLE_EVENT_ID: &str = "evt_01jdz3qv6mz8x5c0a2t5d4e7f9";
const EXAMPLE_OPERATOR_ID: &str = "op_01jdz3p0000000000000000000";
const EXAMPLES_MARKER: &str = "Examples of `data`, one per type:";

/// What the webhook page says of one type.
#[derive(Debug, Clone, PartialEq)]
pub struct Documented {
    /// When it is sent.
    pub when: String,
    /// Its `data` fields, as the table words them.
    pub fields: String,
    /// Its example `data`.
    pub data: Map<String, Value>,
}

/// The type's row of the "Event types" table and its example, or what is missing.
pub fn documented(event: EventType) -> Result<Documented, String> {
    let name = event.as_str();
    let row = WEBHOOKS
        .lines()
        .find(|line| line.starts_with(&format!("| `{name}` |")))
        .ok_or_else(|| format!("the webhook page's table has no row for `{name}`"))?;
    let columns: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
    let [_, when, fields] = columns.as_slice() else {
        return Err(format!("the row of `{name}` does not have three columns"));
    };
    let data = examples()
        .into_iter()
        .find(|(kind, _)| kind == name)
        .map(|(_, data)| data)
        .ok_or_else(|| format!("the webhook page has no example of `{name}`"))?;
    Ok(Documented {
        when: (*when).to_owned(),
        fields: (*fields).to_owned(),
        data,
    })
}

/// Every `(type, data)` of the webhook page's examples block.
pub fn examples() -> Vec<(String, Map<String, Value>)> {
    let Some((_, after)) = WEBHOOKS.split_once(EXAMPLES_MARKER) else {
        return Vec::new();
    };
    let block = after
        .split_once("```json\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .map_or("", |(block, _)| block);
    block
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|example| {
            let kind = example["type"].as_str()?.to_owned();
            let data = example["data"].as_object()?.clone();
            Some((kind, data))
        })
        .collect()
}

/// The whole envelope a receiver gets for an example `data`.
pub fn envelope(event: EventType, data: &Map<String, Value>) -> Value {
    let created_at = data
        .iter()
        .find(|(field, value)| field.ends_with("At") && value.is_string())
        .and_then(|(_, value)| value.as_str())
        .unwrap_or("2026-11-22T10:00:00Z");
    json!({
        "id": EXAMPLE_EVENT_ID,
        "type": event.as_str(),
        "createdAt": created_at,
        "operatorId": EXAMPLE_OPERATOR_ID,
        "data": data,
    })
}

/// The page's markdown; a type the webhook page does not document is shown as such (and
/// fails the tests).
pub fn page() -> String {
    let mut page = String::from(
        "# Event catalog\n\nEvery webhook event type the service sends, from the code's catalog. Each delivery is \
         one `POST` of [the envelope](/docs/webhooks#the-envelope), signed as [Verifying a signature](/docs/webhooks#verifying-a-signature) \
         says; deduplicate on `id`. An endpoint receives only the types it lists in `eventTypes`: add the \
         `mini_app.flight.*` types before the flight product is enabled. New types and new `data` fields may be \
         added; ignore what you do not know.\n\n| type | when |\n|---|---|\n",
    );
    let mut sections = String::new();
    for event in EventType::ALL {
        let name = event.as_str();
        match documented(event) {
            Ok(documented) => {
                let _ = writeln!(page, "| [`{name}`](#{}) | {} |", anchor(name), documented.when);
                let example = serde_json::to_string_pretty(&envelope(event, &documented.data)).unwrap_or_default();
                let _ = writeln!(
                    sections,
                    "## {name}\n\n{}.\n\n`data`: {}.\n\n```json\n{example}\n```\n",
                    documented.when, documented.fields
                );
            }
            Err(missing) => {
                let _ = writeln!(page, "| `{name}` | not documented: {missing} |");
            }
        }
    }
    page.push('\n');
    page.push_str(&sections);
    page
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use opinion_webhook::Envelope;

    use super::*;

    /// The first backquoted name of each comma-separated entry outside parentheses.
    fn field_names(fields: &str) -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        let mut depth = 0;
        let mut entry = String::new();
        for c in fields.chars().chain([',']) {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    if let Some(name) = entry.split('`').nth(1) {
                        names.insert(name.to_owned());
                    }
                    entry.clear();
                    continue;
                }
                _ => {}
            }
            if depth == 0 {
                entry.push(c);
            }
        }
        names
    }

    #[test]
    fn every_type_of_the_catalog_is_documented_with_an_example_of_its_fields() {
        for event in EventType::ALL {
            let documented = documented(event).unwrap_or_else(|missing| panic!("{missing}"));
            let mut in_example: BTreeSet<String> = documented.data.keys().cloned().collect();
            in_example.remove("metadata");
            assert_eq!(in_example, field_names(&documented.fields), "{}", event.as_str());
        }
    }

    #[test]
    fn the_webhook_page_documents_no_type_the_catalog_lacks() {
        let known: BTreeSet<&str> = EventType::ALL.iter().map(|event| event.as_str()).collect();
        for (kind, _) in examples() {
            assert!(known.contains(kind.as_str()), "an example of unknown `{kind}`");
        }
        let rows = WEBHOOKS.lines().filter_map(|line| {
            let first = line.strip_prefix("| `mini_app.")?.split(" |").next()?;
            (!first.contains(['*', ','])).then(|| format!("mini_app.{}", first.trim_end_matches('`')))
        });
        for kind in rows {
            assert!(known.contains(kind.as_str()), "a row for unknown `{kind}`");
        }
        assert_eq!(examples().len(), EventType::ALL.len(), "one example per type");
    }

    #[test]
    fn every_example_is_an_envelope_a_receiver_reads() {
        for event in EventType::ALL {
            let documented = documented(event).unwrap_or_else(|missing| panic!("{missing}"));
            let envelope = envelope(event, &documented.data);
            let read: Envelope =
                serde_json::from_value(envelope.clone()).unwrap_or_else(|error| panic!("{}: {error}", event.as_str()));
            assert_eq!(read.event_type, event);
            assert_eq!(serde_json::to_value(&read).expect("serializes"), envelope);
        }
        assert!(page().contains("## mini_app.flight.payment.recorded"));
        assert!(!page().contains("not documented"));
    }
}
