//! The limits page: the "Limits" table of the decisions, the one place every bound the
//! service enforces is listed, shown without its column of test names.

use crate::docs_site::sources::DECISIONS;

/// The rows of the table (header and separator included), each without its last column.
fn rows() -> Vec<String> {
    let Some((_, section)) = DECISIONS.split_once("\n## Limits\n") else {
        return Vec::new();
    };
    section
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let mut cells: Vec<&str> = line.trim().trim_matches('|').split(" | ").map(str::trim).collect();
            cells.pop();
            format!("| {} |", cells.join(" | "))
        })
        .collect()
}

/// The page's markdown.
pub fn page() -> String {
    format!(
        "# Limits\n\nEvery bound the service puts on what it is sent and on what it waits for. A request beyond \
         one is refused with a problem (`validation_failed` names the `field`) unless the row says otherwise; \
         nothing is half-written. The [OpenAPI reference](/docs/api) states the same bounds per parameter and \
         field.\n\n{}\n",
        rows().join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_of_the_decisions_table_is_on_the_page_without_its_test() {
        let rows = rows();
        assert!(rows.len() > 10, "the Limits table is found");
        assert_eq!(rows[0], "| limit | value | beyond it |");
        let page = page();
        assert!(
            page.contains(
                "| Page `limit` (every list, trending included) | 1 to 200, default 50 | 400 `invalid_limit` |"
            )
        );
        assert!(!page.contains("tests/api/"));
    }
}
