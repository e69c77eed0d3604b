//! An operator's brand in the hosted app: its name, an optional logo, two colours and the
//! language players see when their launch names none. Every value is checked here, so
//! what reaches a page (an attribute, a CSS custom property, an `img-src` source) is
//! already known to be harmless there.

use std::fmt;

use crate::dns_name::dns_name_pattern;
use crate::frame_origin::FrameOrigin;

/// Why a brand value is refused; each names the field of the API body it came from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrandingError {
    /// The name is empty, too long, padded or holds control characters.
    #[error("must be 1 to {max} characters without control characters or surrounding spaces", max = BrandName::MAX_CHARS)]
    Name,
    /// The logo URL is not an `https://` URL of the accepted shape.
    #[error("must be an https:// URL of at most {max} characters, without user, fragment, spaces or quotes", max = LogoUrl::MAX_CHARS)]
    LogoUrl,
    /// A colour is not `#rrggbb`; the field it came from.
    #[error("must be a colour written #rrggbb")]
    Color(&'static str),
    /// The language is not one the hosted app speaks.
    #[error("must be `en` or `id`")]
    Language,
}

impl BrandingError {
    /// The body field the error is about, for a problem that names it.
    pub fn field(&self) -> &'static str {
        match self {
            Self::Name => "name",
            Self::LogoUrl => "logoUrl",
            Self::Color(field) => field,
            Self::Language => "defaultLanguage",
        }
    }
}

/// The operator's brand name, shown in the app's header and title.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BrandName(String);

impl BrandName {
    /// Longest name accepted, in characters: a header on a phone holds about this many.
    pub const MAX_CHARS: usize = 60;

    /// Checks a name.
    pub fn parse(text: &str) -> Result<Self, BrandingError> {
        let length = text.chars().count();
        let ok = (1..=Self::MAX_CHARS).contains(&length) && text.trim() == text && !text.chars().any(char::is_control);
        if ok {
            Ok(Self(text.to_owned()))
        } else {
            Err(BrandingError::Name)
        }
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The logo's address: `https://`, a host (and port) as a frame origin has one, then an
/// optional path and query of plain URL characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LogoUrl {
    url: String,
    origin: FrameOrigin,
}

impl LogoUrl {
    /// Longest URL accepted.
    pub const MAX_CHARS: usize = 512;

    /// The URLs `parse` accepts, as a regular expression for the API document (the
    /// length bound is [`LogoUrl::MAX_CHARS`]).
    pub const PATTERN: &'static str = concat!(
        "^https://",
        dns_name_pattern!(),
        "(:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?",
        "([/?][A-Za-z0-9._~%!$&()*+,;=:@/?-]*)?$"
    );

    /// Checks a URL.
    pub fn parse(text: &str) -> Result<Self, BrandingError> {
        if text.len() > Self::MAX_CHARS {
            return Err(BrandingError::LogoUrl);
        }
        let rest = text.strip_prefix("https://").ok_or(BrandingError::LogoUrl)?;
        let (authority, path) = rest.find(['/', '?']).map_or((rest, ""), |at| rest.split_at(at));
        let origin = FrameOrigin::parse(&format!("https://{authority}")).map_err(|_| BrandingError::LogoUrl)?;
        let path_ok = path.is_empty()
            || (path.starts_with(['/', '?'])
                && path
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._~%!$&()*+,;=:@/?-".contains(&b)));
        if path_ok {
            Ok(Self {
                url: text.to_owned(),
                origin,
            })
        } else {
            Err(BrandingError::LogoUrl)
        }
    }

    /// The URL as written.
    pub fn as_str(&self) -> &str {
        &self.url
    }

    /// Its origin, the one source a page's `img-src` needs to show it.
    pub fn origin(&self) -> &FrameOrigin {
        &self.origin
    }
}

/// A colour, `#rrggbb`, kept in lower case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BrandColor([u8; 3]);

impl BrandColor {
    /// The shape `parse` accepts, for the API document.
    pub const PATTERN: &'static str = "^#[0-9A-Fa-f]{6}$";

    /// Checks a colour; `None` unless it is `#` and six hex digits.
    pub fn parse(text: &str) -> Option<Self> {
        let hex = text.strip_prefix('#').filter(|h| h.len() == 6 && h.is_ascii())?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let mut rgb = [0; 3];
        for (index, channel) in rgb.iter_mut().enumerate() {
            *channel = u8::from_str_radix(hex.get(index * 2..index * 2 + 2)?, 16).ok()?;
        }
        Some(Self(rgb))
    }

    /// The WCAG relative luminance, 0 (black) to 1 (white).
    fn luminance(self) -> f64 {
        let linear = |channel: u8| {
            let c = f64::from(channel) / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let [r, g, b] = self.0;
        0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    /// The text colour readable on this colour: near-black or white, whichever has the
    /// higher WCAG contrast with it, so an operator's colour never makes a label
    /// unreadable.
    pub fn text_on(self) -> Self {
        let dark = Self([0x11, 0x18, 0x27]);
        let white = Self([0xff, 0xff, 0xff]);
        if contrast(self, dark) >= contrast(self, white) {
            dark
        } else {
            white
        }
    }
}

/// The WCAG contrast ratio of two colours, 1 to 21.
fn contrast(a: BrandColor, b: BrandColor) -> f64 {
    let (x, y) = (a.luminance(), b.luminance());
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

impl fmt::Display for BrandColor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b] = self.0;
        write!(f, "#{r:02x}{g:02x}{b:02x}")
    }
}

/// A language the hosted app speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Language {
    /// English.
    #[default]
    En,
    /// Indonesian.
    Id,
}

impl Language {
    /// Every language, in the order the API document lists them.
    pub const ALL: [Self; 2] = [Self::En, Self::Id];

    /// Checks a language code.
    pub fn parse(text: &str) -> Result<Self, BrandingError> {
        Self::ALL
            .into_iter()
            .find(|language| language.as_str() == text)
            .ok_or(BrandingError::Language)
    }

    /// The language a BCP 47 locale asks for (`id-ID` is Indonesian), if the app speaks it.
    pub fn of_locale(locale: &str) -> Option<Self> {
        let primary = locale.split('-').next().unwrap_or_default();
        Self::ALL.into_iter().find(|language| language.as_str() == primary)
    }

    /// The code.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Id => "id",
        }
    }
}

/// An operator's whole brand, replaced whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branding {
    /// Shown in the header and the page title.
    pub name: BrandName,
    /// Shown in the header where the page may load it.
    pub logo_url: Option<LogoUrl>,
    /// Buttons, links and the selected tab.
    pub primary_color: BrandColor,
    /// The header band.
    pub accent_color: BrandColor,
    /// The language when the launch names none the app speaks.
    pub default_language: Language,
}

impl Default for Branding {
    /// The brand of an operator that set none: the platform's own.
    fn default() -> Self {
        Self {
            name: BrandName("Opinion".to_owned()),
            logo_url: None,
            primary_color: BrandColor([0x25, 0x63, 0xeb]),
            accent_color: BrandColor([0x11, 0x18, 0x27]),
            default_language: Language::En,
        }
    }
}

impl Branding {
    /// Checks every value; the first refused one is the error.
    pub fn parse(
        name: &str,
        logo_url: Option<&str>,
        primary_color: &str,
        accent_color: &str,
        default_language: &str,
    ) -> Result<Self, BrandingError> {
        Ok(Self {
            name: BrandName::parse(name)?,
            logo_url: logo_url.map(LogoUrl::parse).transpose()?,
            primary_color: BrandColor::parse(primary_color).ok_or(BrandingError::Color("primaryColor"))?,
            accent_color: BrandColor::parse(accent_color).ok_or(BrandingError::Color("accentColor"))?,
            default_language: Language::parse(default_language)?,
        })
    }

    /// The language a player sees: the launch locale's if the app speaks it, else the
    /// operator's default.
    pub fn language_for(&self, locale: Option<&str>) -> Language {
        locale.and_then(Language::of_locale).unwrap_or(self.default_language)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn names_are_bounded_and_plain() {
        assert!(BrandName::parse("Casino Merah Putih").is_ok());
        assert!(BrandName::parse(&"é".repeat(60)).is_ok());
        for bad in ["", " padded", "padded ", "tab\there", &"x".repeat(61)] {
            assert_eq!(BrandName::parse(bad), Err(BrandingError::Name), "{bad}");
        }
    }

    #[test]
    fn logos_are_https_and_bounded_and_name_their_origin() {
        let logo = LogoUrl::parse("https://cdn.casino.example/brand/logo.svg?v=3").expect("valid");
        assert_eq!(logo.origin().as_str(), "https://cdn.casino.example");
        assert_eq!(
            LogoUrl::parse("https://cdn.casino.example:8443")
                .expect("valid")
                .origin()
                .as_str(),
            "https://cdn.casino.example:8443"
        );
        let long = format!("https://a.example/{}", "x".repeat(500));
        for bad in [
            "http://cdn.casino.example/logo.png",
            "https://user@cdn.casino.example/logo.png",
            "https://cdn.casino.example/logo.png#top",
            "https://cdn.casino.example/a b.png",
            "https://cdn.casino.example/a\"b.png",
            "https://cdn.casino.example/a'b.png",
            "https://CDN.example/logo.png",
            "https://cdn.casino.example:0/logo.png",
            "data:image/png;base64,AAAA",
            long.as_str(),
        ] {
            assert_eq!(LogoUrl::parse(bad), Err(BrandingError::LogoUrl), "{bad}");
        }
    }

    #[test]
    fn colours_are_six_hex_digits_and_get_readable_text() {
        assert_eq!(BrandColor::parse("#FFAA00").expect("valid").to_string(), "#ffaa00");
        for bad in ["ffaa00", "#ffaa0", "#ffaa000", "#ggaa00", "#ffé0", "red"] {
            assert_eq!(BrandColor::parse(bad), None, "{bad}");
        }
        let text = |c: &str| BrandColor::parse(c).expect("colour").text_on().to_string();
        assert_eq!(text("#ffffff"), "#111827");
        assert_eq!(text("#fde047"), "#111827");
        assert_eq!(text("#111827"), "#ffffff");
        assert_eq!(text("#2563eb"), "#ffffff");
    }

    #[test]
    fn the_language_follows_the_launch_then_the_operator() {
        let mut brand = Branding::default();
        assert_eq!(brand.language_for(None), Language::En);
        assert_eq!(brand.language_for(Some("id-ID")), Language::Id);
        assert_eq!(brand.language_for(Some("pt-BR")), Language::En);
        brand.default_language = Language::Id;
        assert_eq!(brand.language_for(Some("pt-BR")), Language::Id);
        assert_eq!(brand.language_for(Some("en")), Language::En);
        assert_eq!(Language::parse("ID"), Err(BrandingError::Language));
    }

    #[test]
    fn the_first_bad_field_is_named() {
        let bad = Branding::parse("Casino", Some("ftp://x.example"), "#000000", "#ffffff", "en").expect_err("refused");
        assert_eq!(bad.field(), "logoUrl");
        let bad = Branding::parse("Casino", None, "#000000", "#fff", "en").expect_err("refused");
        assert_eq!(bad.field(), "accentColor");
        assert!(Branding::parse("Casino", None, "#000000", "#ffffff", "id").is_ok());
    }

    proptest! {
        #[test]
        fn an_accepted_logo_url_matches_its_pattern_and_is_safe_in_an_attribute(text in "https://[a-z0-9.:/?=&\"' <>#-]{1,40}") {
            if let Ok(logo) = LogoUrl::parse(&text) {
                prop_assert!(!logo.as_str().contains(['"', '\'', '<', '>', ' ', '#']));
                prop_assert!(logo.as_str().len() <= LogoUrl::MAX_CHARS);
            }
        }
    }
}
