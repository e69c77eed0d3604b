//! `GET /play`: the hosted Opinion app an Opinion launch URL opens. The page is a shell
//! (header with the operator's brand and the player's balance, tabs, the view) whose own
//! script (`play_assets.rs`) opens the session (a flight session is sent to
//! `/play/flight`), dresses the page in the operator's brand and language, and shows the
//! markets, a market with its chart and order ticket, the portfolio and the history.
//!
//! The policy loads scripts, styles and its icon from this service only and calls only
//! it. Other images are refused but for one: on an operator's launch host, where the operator is known
//! before the session opens, the origin of that operator's logo; on the shared public
//! host the header shows the brand's name instead.

use actix_web::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderValue, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{DOCTYPE, Markup, html};
use opinion_app::model::LaunchSite;
use opinion_launch::LogoUrl;

use crate::http::client::request_host;
use crate::http::error::ApiError;
use crate::state::ApiState;
use crate::views::HTML_UTF8;
use crate::views::play_assets::{ICON_URL, SCRIPT_URL, STYLE_URL};

/// The hosted Opinion app's page, with the policy of the host it is served on.
pub async fn play_page(state: web::Data<ApiState>, request: HttpRequest) -> Result<HttpResponse, ApiError> {
    let site = state.players.site_for_host(request_host(&request)).await?;
    let logo = match &site {
        Some(site) => state.players.branding_of(site.operator_id).await?.branding.logo_url,
        None => None,
    };
    let mut response = HttpResponse::Ok().body(shell(logo.as_ref()).into_string());
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(HTML_UTF8));
    if let Ok(policy) = HeaderValue::from_str(&policy(site.as_ref(), logo.as_ref())) {
        headers.insert(CONTENT_SECURITY_POLICY, policy);
    }
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// The page's policy: this service's own script, style, icon and API; besides the icon,
/// the logo's origin as the only image source when there is one; on a launch host, framed only by its operator's
/// origins (none when it named none); on the public host frameable as before.
fn policy(site: Option<&LaunchSite>, logo: Option<&LogoUrl>) -> String {
    let images = logo.map_or_else(|| "'self'".to_owned(), |logo| format!("'self' {}", logo.origin()));
    let own = format!(
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src {images}; \
         base-uri 'none'; form-action 'none'"
    );
    match site {
        Some(site) => format!("{own}; frame-ancestors {}", site.frame_origins.frame_ancestors()),
        None => own,
    }
}

/// The shell the script fills; its texts are English until the script speaks the
/// player's language.
fn shell(logo: Option<&LogoUrl>) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="robots" content="noindex";
                meta name="referrer" content="no-referrer";
                title { "Opinion" }
                link rel="icon" type="image/svg+xml" href=(ICON_URL.as_str());
                link rel="stylesheet" href=(STYLE_URL.as_str());
                script src=(SCRIPT_URL.as_str()) defer {}
            }
            body {
                div.bar {
                    header.top {
                        div.brand {
                            @if let Some(logo) = logo { img.logo src=(logo.as_str()) alt=""; }
                            span #brand-name { "Opinion" }
                        }
                        div.wallet {
                            span data-i18n="balance" { "Balance" }
                            strong #balance { "…" }
                        }
                    }
                    nav.tabs aria-label="Sections" data-i18n="tabs" {
                        a href="#markets" data-tab="markets" data-i18n="tab.markets" { "Markets" }
                        a href="#portfolio" data-tab="portfolio" data-i18n="tab.portfolio" { "Portfolio" }
                        a href="#history" data-tab="history" data-i18n="tab.history" { "History" }
                    }
                    p #status role="status" aria-live="polite" { "Opening your session…" }
                }
                main #view tabindex="-1" {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use opinion_core::OperatorId;
    use opinion_launch::FrameOrigins;

    use super::*;

    fn site(origins: &[&str]) -> LaunchSite {
        LaunchSite {
            operator_id: OperatorId::from_u128(1),
            frame_origins: FrameOrigins::parse(&origins.iter().map(|o| (*o).to_owned()).collect::<Vec<_>>())
                .expect("origins"),
        }
    }

    #[test]
    fn the_policy_loads_only_the_services_own_files_and_the_logos_origin() {
        let public = policy(None, None);
        assert!(public.starts_with(
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        ));
        assert!(!public.contains("unsafe") && !public.contains("frame-ancestors"));
        let logo = LogoUrl::parse("https://cdn.casino.example/brand/logo.svg").expect("logo");
        let branded = policy(Some(&site(&["https://casino.example"])), Some(&logo));
        assert!(
            branded.contains("; img-src 'self' https://cdn.casino.example; "),
            "{branded}"
        );
        assert!(branded.ends_with("; frame-ancestors https://casino.example"));
        assert!(policy(Some(&site(&[])), None).ends_with("; frame-ancestors 'none'"));
    }

    #[test]
    fn the_shell_links_its_own_assets_and_shows_a_logo_only_when_given() {
        let plain = shell(None).into_string();
        assert!(plain.contains(STYLE_URL.as_str()) && plain.contains(SCRIPT_URL.as_str()));
        assert!(!plain.contains("<img"));
        let logo = LogoUrl::parse("https://cdn.casino.example/logo.svg?v=2&x=1").expect("logo");
        let branded = shell(Some(&logo)).into_string();
        assert!(
            branded.contains(r#"<img class="logo" src="https://cdn.casino.example/logo.svg?v=2&amp;x=1" alt="">"#),
            "{branded}"
        );
    }
}
