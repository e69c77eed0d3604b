//! The problem codes page: every code of `ProblemCode`, its status and its meaning.

use std::fmt::Write as _;

use opinion_app::error::ProblemCode;

use crate::docs_site::reference::cell;
use crate::http::error::status_of;

/// The page's markdown.
pub fn page() -> String {
    let mut page = String::from(
        "# Problem codes\n\nEvery error is an `application/problem+json` body whose `code` is one of these; its \
         `type` is `urn:opinion:problem:<code>`. Branch on the code, never on `detail` or the status alone. A \
         code is never renamed or reused; new codes are only added. Quote the body's `requestId` to support.\n\n\
         | code | status | meaning |\n|---|---|---|\n",
    );
    for code in ProblemCode::ALL {
        let _ = writeln!(
            page,
            "| `{}` | {} | {} |",
            code.as_str(),
            status_of(*code),
            cell(code.meaning())
        );
    }
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_lists_exactly_the_codes_the_code_has() {
        let page = page();
        let listed: Vec<&str> = page
            .lines()
            .filter_map(|line| line.strip_prefix("| `"))
            .filter_map(|line| line.split('`').next())
            .collect();
        let codes: Vec<&str> = ProblemCode::ALL.iter().map(|code| code.as_str()).collect();
        assert_eq!(listed, codes);
    }
}
