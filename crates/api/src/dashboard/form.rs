//! The dashboard's forms: what a post carries (URL-encoded fields, read as typed, several
//! values per name for check boxes), the form token every form holds, and fields that
//! show what was typed and, next to the field it names, what the use case refused.

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use maud::{Markup, html};
use opinion_app::error::AppError;

use crate::dashboard::error::DashboardError;
use crate::http::error::ApiError;

/// The hidden field holding the session's form token.
pub const FORM_TOKEN_FIELD: &str = "_token";

/// The fields of one post, in the order sent.
#[derive(Debug, Clone, Default)]
pub struct FormData(Vec<(String, String)>);

impl FormData {
    /// The fields of a URL-encoded body.
    pub fn parse(body: &Bytes) -> Self {
        Self(url::form_urlencoded::parse(body).into_owned().collect())
    }

    /// Fields received as pairs (a list's query string).
    pub fn from_owned(pairs: Vec<(String, String)>) -> Self {
        Self(pairs)
    }

    /// Fields given as pairs (a query shown again in its form).
    pub fn from_pairs(pairs: Vec<(&str, String)>) -> Self {
        Self(
            pairs
                .into_iter()
                .map(|(name, value)| (name.to_owned(), value))
                .collect(),
        )
    }

    /// The first value of `name` as typed, or empty.
    pub fn text(&self, name: &str) -> String {
        self.0
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.clone())
            .unwrap_or_default()
    }

    /// The value of `name` without surrounding space, or `None` when blank.
    pub fn optional(&self, name: &str) -> Option<String> {
        let text = self.text(name);
        let text = text.trim();
        (!text.is_empty()).then(|| text.to_owned())
    }

    /// The value of `name` as [`Self::optional`] when it is one of `taken`, the fields
    /// of the action the form's choice selects; `None` for another action's field.
    pub fn optional_among(&self, name: &str, taken: &[&str]) -> Option<String> {
        taken.contains(&name).then(|| self.optional(name)).flatten()
    }

    /// Every value of `name` (ticked check boxes).
    pub fn all(&self, name: &str) -> Vec<String> {
        self.0
            .iter()
            .filter(|(field, _)| field == name)
            .map(|(_, value)| value.clone())
            .collect()
    }

    /// Whether a check box `name` was ticked.
    pub fn checked(&self, name: &str) -> bool {
        self.0.iter().any(|(field, _)| field == name)
    }

    /// A whole number typed into `name`, or `None` when blank; `field` names it in the refusal.
    pub fn number(&self, name: &str, field: &'static str) -> Result<Option<i64>, AppError> {
        self.optional(name)
            .map(|text| {
                text.parse()
                    .map_err(|_| AppError::invalid(field, "must be a whole number"))
            })
            .transpose()
    }
}

/// What a form shows: the values typed (none on a fresh form) and what was refused.
#[derive(Default)]
pub struct FormView {
    /// The post being shown again, if any.
    pub values: FormData,
    /// The refusal: next to its field when it names one of the form's, else above it.
    pub refusal: Option<Refusal>,
}

/// Why a form was not accepted.
#[derive(Debug)]
pub struct Refusal {
    /// The field it names (the API's field name, which is the form field's name).
    pub field: Option<String>,
    /// What is wrong, worded by the use case.
    pub message: String,
    /// The status the page is answered with (the API's for the same refusal).
    pub status: StatusCode,
}

impl FormView {
    /// A form shown again with what was typed and why it was refused.
    pub fn refused(values: FormData, error: DashboardError) -> Result<(Self, StatusCode), DashboardError> {
        let refusal = Refusal::of(error)?;
        let status = refusal.status;
        Ok((
            Self {
                values,
                refusal: Some(refusal),
            },
            status,
        ))
    }

    fn value(&self, name: &str) -> String {
        self.values.text(name)
    }

    fn error_of(&self, name: &str) -> Option<&str> {
        self.refusal
            .as_ref()
            .filter(|refusal| refusal.field.as_deref() == Some(name))
            .map(|refusal| refusal.message.as_str())
    }

    /// The refusal that names no field of the form (`fields` are the form's names), shown
    /// above it.
    pub fn banner(&self, fields: &[&str]) -> Markup {
        let general = self
            .refusal
            .as_ref()
            .filter(|refusal| refusal.field.as_deref().is_none_or(|field| !fields.contains(&field)));
        html! {
            @if let Some(refusal) = general {
                p.alert role="alert" {
                    @if let Some(field) = &refusal.field { strong { (field) ": " } }
                    (refusal.message)
                }
            }
        }
    }

    /// A labelled input of `kind` showing what was typed, or `initial` on a fresh form.
    pub fn input(&self, name: &str, label: &str, kind: &str, initial: &str, hint: Option<&str>) -> Markup {
        let typed = if self.refusal.is_some() || self.values.checked(name) {
            self.value(name)
        } else {
            initial.to_owned()
        };
        let error = self.error_of(name);
        let described = format!("{name}-note");
        html! {
            div.field.invalid[error.is_some()] {
                label for=(name) { (label) }
                input id=(name) name=(name) type=(kind) value=(typed)
                    aria-invalid=[error.map(|_| "true")] aria-describedby=(described);
                p.note id=(described) {
                    @if let Some(error) = error { span.error { (error) } }
                    @else if let Some(hint) = hint { (hint) }
                }
            }
        }
    }

    /// A group of check boxes named `name`, one per `(value, label)`, ticked as typed or
    /// as `initial` on a fresh form.
    pub fn checkboxes(&self, name: &str, legend: &str, options: &[(String, String)], initial: &[String]) -> Markup {
        let ticked = if self.refusal.is_some() {
            self.values.all(name)
        } else {
            initial.to_vec()
        };
        let error = self.error_of(name);
        html! {
            fieldset.field.invalid[error.is_some()] id=(name) {
                legend { (legend) }
                div.choices {
                    @for (value, label) in options {
                        label.choice {
                            input type="checkbox" name=(name) value=(value) checked[ticked.contains(value)];
                            " " (label)
                        }
                    }
                }
                @if let Some(error) = error { p.note { span.error { (error) } } }
            }
        }
    }

    /// A drop-down named `name` with `(value, label)` options.
    pub fn select(&self, name: &str, label: &str, options: &[(&str, &str)], initial: &str) -> Markup {
        let chosen = if self.refusal.is_some() {
            self.value(name)
        } else {
            initial.to_owned()
        };
        let error = self.error_of(name);
        html! {
            div.field.invalid[error.is_some()] {
                label for=(name) { (label) }
                select id=(name) name=(name) aria-invalid=[error.map(|_| "true")] {
                    @for (value, text) in options {
                        option value=(value) selected[*value == chosen] { (text) }
                    }
                }
                @if let Some(error) = error { p.note { span.error { (error) } } }
            }
        }
    }
}

impl Refusal {
    /// The refusal a form shows for `error`; an error that is not about the form (no
    /// session, a stale form, a failure) is answered as its own page instead.
    fn of(error: DashboardError) -> Result<Self, DashboardError> {
        let DashboardError::Api(api) = error else {
            return Err(error);
        };
        let problem = api.problem();
        let status = StatusCode::from_u16(problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        if status.is_server_error() {
            return Err(DashboardError::Api(api));
        }
        let field = match &api {
            ApiError::App(AppError::Invalid { field, .. }) => Some((*field).to_owned()),
            _ => problem
                .extensions
                .get("field")
                .and_then(|f| f.as_str())
                .map(str::to_owned),
        };
        let message = match api {
            ApiError::App(AppError::Invalid { message, .. }) => message,
            _ => problem.detail,
        };
        Ok(Self { field, message, status })
    }
}

/// The hidden form-token field every form carries.
pub fn token_field(token: &str) -> Markup {
    html! { input type="hidden" name=(FORM_TOKEN_FIELD) value=(token); }
}
