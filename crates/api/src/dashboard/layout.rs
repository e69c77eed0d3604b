//! The page shell of the dashboard: a header with the sign-out button, the navigation of
//! the sections the member may see (behind a menu button on a phone, without script), the
//! page, and the dashboard's own stylesheet and script, both by address (the policy runs
//! nothing inline).

use maud::{DOCTYPE, Markup, html};

use crate::dashboard::assets::{ICON_URL, SCRIPT_URL, STYLE_URL};
use crate::dashboard::form::token_field;
use crate::dashboard::nav::SECTIONS;
use crate::dashboard::session::SignedIn;

fn head(title: &str) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            meta name="robots" content="noindex";
            title { (title) " · Opinion dashboard" }
            link rel="icon" type="image/svg+xml" href=(ICON_URL.as_str());
            link rel="stylesheet" href=(STYLE_URL.as_str());
            script src=(SCRIPT_URL.as_str()) defer {}
        }
    }
}

/// A page of the section at `current` for a signed-in member.
pub fn document(member: &SignedIn, current: &str, title: &str, content: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(title))
            body {
                header.top {
                    a.brand href="/dashboard" { "Opinion " span { "dashboard" } }
                    form.sign-out method="post" action="/dashboard/sign-out" {
                        (token_field(&member.form_token))
                        button.link type="submit" { "Sign out" }
                    }
                }
                input #menu.menu-toggle type="checkbox" aria-label="Show the navigation";
                label.menu-label for="menu" { "Menu" }
                div.frame {
                    nav.side aria-label="Dashboard" {
                        ul {
                            @for section in SECTIONS {
                                @if (!section.simulator_only || member.simulator)
                                    && (!section.is_flight() || member.flight)
                                    && section.route.is_none_or(|route| member.may(route)) {
                                    li {
                                        a href=(section.path) aria-current=[(section.path == current).then_some("page")] {
                                            (section.title)
                                        }
                                    }
                                }
                            }
                        }
                    }
                    main.content {
                        h1 { (title) }
                        (content)
                    }
                }
            }
        }
    }
}

/// A page outside the member's sections (signing in, refusals): the shell without navigation.
pub fn bare(title: &str, content: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(title))
            body.bare {
                header.top {
                    a.brand href="/dashboard" { "Opinion " span { "dashboard" } }
                }
                main.narrow {
                    h1 { (title) }
                    (content)
                }
            }
        }
    }
}
