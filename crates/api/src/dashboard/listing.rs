//! What the dashboard's filtered lists share: the filter form (the API's query parameter
//! names, days in UTC for the time window), the query as the page received it, the
//! answer to a filter the use case refused (the form again, the error beside its field),
//! and a list's section and page drawn from what the use case answered.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web;
use maud::{Markup, html};
use opinion_core::{IdKind, Page};

use crate::dashboard::error::DashboardError;
use crate::dashboard::form::{FormData, FormView};
use crate::dashboard::layout::document;
use crate::dashboard::page::html as respond;
use crate::dashboard::paging::{Cursor, pager};
use crate::dashboard::session::SignedIn;

/// One filter of a list.
pub enum Filter {
    /// Free text (an id, a player's id).
    Text(&'static str, &'static str),
    /// One of a closed set; the empty choice means any.
    Choice(&'static str, &'static str, Vec<&'static str>),
    /// A UTC day, sent to the use case as that day's start.
    Day(&'static str, &'static str),
}

/// A list page's query as received: its filters and its cursor.
pub struct ListQuery(pub FormData);

impl ListQuery {
    /// The query of a request.
    pub fn of(query: web::Query<Vec<(String, String)>>) -> Self {
        Self(FormData::from_owned(query.into_inner()))
    }

    /// A filter's value, `None` when blank.
    pub fn value(&self, name: &str) -> Option<String> {
        self.0.optional(name)
    }

    /// A day filter's value as the start of that day in UTC (anything else as typed, so
    /// the use case names it in its refusal).
    pub fn instant(&self, name: &str) -> Option<String> {
        self.value(name).map(|text| {
            if text.len() == 10 {
                format!("{text}T00:00:00Z")
            } else {
                text
            }
        })
    }

    /// The page asked for.
    pub fn cursor(&self) -> Cursor {
        Cursor {
            cursor: self.value("cursor"),
        }
    }

    /// The filters to keep in the link to the next page.
    pub fn kept(&self, filters: &[Filter]) -> Vec<(&'static str, String)> {
        filters
            .iter()
            .map(|filter| {
                let name = match filter {
                    Filter::Text(name, _) | Filter::Choice(name, _, _) | Filter::Day(name, _) => *name,
                };
                (name, self.0.text(name))
            })
            .collect()
    }
}

/// The filter form of the list at `path`, showing the query's values.
pub fn filter_form(path: &str, filters: &[Filter], query: &ListQuery, view: &FormView) -> Markup {
    html! {
        form.filters method="get" action=(path) {
            @for filter in filters {
                @match filter {
                    Filter::Text(name, label) => (view.input(name, label, "text", &query.0.text(name), None)),
                    Filter::Day(name, label) => (view.input(name, label, "date", &query.0.text(name), None)),
                    Filter::Choice(name, label, options) => {
                        @let choices: Vec<(&str, &str)> = std::iter::once(("", "Any"))
                            .chain(options.iter().map(|option| (*option, *option)))
                            .collect();
                        (view.select(name, label, &choices, &query.0.text(name)))
                    }
                }
            }
            button type="submit" { "Filter" }
            " " a href=(path) { "Clear" }
        }
    }
}

/// A list's answer: its items, or the filter form again with the refusal beside the
/// filter it names (and the use case's status for it).
pub fn listed<T>(
    result: Result<T, DashboardError>,
    query: &ListQuery,
) -> Result<(StatusCode, FormView, Option<T>), DashboardError> {
    match result {
        Ok(found) => Ok((StatusCode::OK, FormView::default(), Some(found))),
        Err(error) => {
            let (view, status) = FormView::refused(query.0.clone(), error)?;
            Ok((status, view, None))
        }
    }
}

/// One filtered, paged list: where it is served, its filters and the query received.
pub struct Listing<'a> {
    /// The list's address (its filter form and page links point there).
    path: &'a str,
    /// Its filters.
    filters: &'a [Filter],
    /// The query as received.
    query: &'a ListQuery,
}

impl<'a> Listing<'a> {
    /// The list at `path` with `filters`, for `query`.
    pub fn new(path: &'a str, filters: &'a [Filter], query: &'a ListQuery) -> Self {
        Self { path, filters, query }
    }

    /// The list's section for what the use case answered: the filter form, then `rows`
    /// drawn from the page found, the pager and `after`; or the form alone with the
    /// refusal beside its filter, with the refusal's status.
    pub fn section<R, K: IdKind>(
        &self,
        result: Result<Page<R, K>, DashboardError>,
        rows: impl FnOnce(&[R]) -> Markup,
        after: Markup,
    ) -> Result<(StatusCode, Markup), DashboardError> {
        let (status, view, found) = listed(result, self.query)?;
        let section = html! {
            (filter_form(self.path, self.filters, self.query, &view))
            @if let Some(found) = found {
                (rows(&found.items))
                (pager(self.path, &found, &self.query.kept(self.filters), self.query.cursor().cursor.is_some()))
                (after)
            }
        };
        Ok((status, section))
    }

    /// The page that is only the list's section, titled `title`.
    pub fn page<R, K: IdKind>(
        &self,
        member: &SignedIn,
        title: &str,
        result: Result<Page<R, K>, DashboardError>,
        rows: impl FnOnce(&[R]) -> Markup,
    ) -> Result<HttpResponse, DashboardError> {
        let (status, section) = self.section(result, rows, html! {})?;
        Ok(respond(status, document(member, self.path, title, section)))
    }
}
