//! Database names and URLs: unique per test so parallel tests and processes never clash.

/// A fresh lower-case name such as `test_01hz…`; ULIDs are unique across processes too, which
/// matters when several test processes share one `DATABASE_URL` server.
pub(crate) fn unique(prefix: &str) -> String {
    format!("{prefix}_{}", ulid::Ulid::new().to_string().to_lowercase())
}

/// `url` with its database part replaced by `database`, keeping credentials, host and parameters.
pub(crate) fn with_database(url: &str, database: &str) -> String {
    let authority_start = url.find("://").map_or(0, |at| at + 3);
    let path_start = url[authority_start..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |at| authority_start + at);
    let rest_start = url[path_start..]
        .find(['?', '#'])
        .map_or(url.len(), |at| path_start + at);
    format!("{}/{database}{}", &url[..path_start], &url[rest_start..])
}

/// `name` as a quoted SQL identifier.
pub(crate) fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_database_and_keeps_the_rest() {
        assert_eq!(
            with_database("postgres://u:p@db.local:5432/app", "test_1"),
            "postgres://u:p@db.local:5432/test_1"
        );
        assert_eq!(
            with_database("postgresql://u@h/app?sslmode=disable", "test_1"),
            "postgresql://u@h/test_1?sslmode=disable"
        );
    }

    #[test]
    fn adds_a_database_when_there_is_none() {
        assert_eq!(with_database("postgres://u@h:5432", "t"), "postgres://u@h:5432/t");
        assert_eq!(with_database("postgres://u@h/", "t"), "postgres://u@h/t");
        assert_eq!(
            with_database("postgres://u@h?sslmode=require", "t"),
            "postgres://u@h/t?sslmode=require"
        );
    }

    #[test]
    fn names_are_unique_lower_case_identifiers() {
        let (a, b) = (unique("test"), unique("test"));
        assert_ne!(a, b);
        assert!(a.starts_with("test_") && a.len() < 64);
        assert_eq!(a, a.to_lowercase());
        assert_eq!(quoted("a\"b"), "\"a\"\"b\"");
    }
}
