//! The envelope of every list: one keyset page, and its schema.

use opinion_core::{IdKind, Page};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::{Ref, RefOr};

/// A page of items, newest first, and where the next one starts.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListBody<T> {
    /// The items.
    pub data: Vec<T>,
    /// Pass as `cursor` to read the next page; null on the last page.
    pub next_cursor: Option<String>,
    /// Whether another page follows.
    pub has_more: bool,
}

impl<T> ListBody<T> {
    /// The body of a page, with each record converted to its wire form.
    pub fn from_page<R, K: IdKind>(page: Page<R, K>, convert: impl FnMut(R) -> T) -> Self {
        let has_more = page.has_more();
        let next_cursor = page.next.map(|cursor| cursor.encode());
        Self {
            data: page.items.into_iter().map(convert).collect(),
            next_cursor,
            has_more,
        }
    }
}

/// Written out rather than derived: a derived generic schema copies the item's whole
/// schema into every page, where this one refers to the item's component.
impl<T: ToSchema> utoipa::__dev::ComposeSchema for ListBody<T> {
    fn compose(_: Vec<RefOr<Schema>>) -> RefOr<Schema> {
        let items = ArrayBuilder::new()
            .items(Ref::from_schema_name(T::name()))
            .description(Some("The items."));
        let next_cursor = ObjectBuilder::new()
            .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
            .description(Some("Pass as `cursor` to read the next page; null on the last page."));
        let has_more = ObjectBuilder::new()
            .schema_type(Type::Boolean)
            .description(Some("Whether another page follows."));
        ObjectBuilder::new()
            .description(Some("A page of items, newest first, and where the next one starts."))
            .property("data", items)
            .required("data")
            .property("nextCursor", next_cursor)
            .property("hasMore", has_more)
            .required("hasMore")
            .into()
    }
}

impl<T: ToSchema> ToSchema for ListBody<T> {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((T::name().into_owned(), T::schema()));
        T::schemas(schemas);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use utoipa::PartialSchema;

    use super::*;

    #[test]
    fn the_schema_has_every_member_the_body_serialises_and_refers_to_the_item() {
        let body = ListBody::<String> {
            data: Vec::new(),
            next_cursor: None,
            has_more: false,
        };
        let members = serde_json::to_value(&body).expect("serialisable");
        let schema = serde_json::to_value(ListBody::<String>::schema()).expect("serialisable");
        let members: BTreeSet<&String> = members.as_object().expect("an object").keys().collect();
        let properties: BTreeSet<&String> = schema["properties"].as_object().expect("an object").keys().collect();
        assert_eq!(members, properties);
        assert_eq!(
            schema["properties"]["data"]["items"]["$ref"],
            "#/components/schemas/String"
        );
    }
}
