//! Browser tests of the service's web pages (the documentation site today; the dashboard
//! and the hosted app later). [`Browser::start`] runs Debian's `chromedriver` on a free
//! port and opens headless Chromium in a fresh profile through it (WebDriver, with the
//! `fantoccini` client); its helpers open a page, size the window ([`WindowSize::PHONE`],
//! [`WindowSize::LAPTOP`]), read the console log, list every request the page made and
//! keep full-page screenshots under `target/test-artefacts/<suite>/`.
//!
//! A machine without Chromium is not a reason to skip: the kit installs `chromium` and
//! `chromium-driver` with apt-get when it runs as root, and otherwise fails with the
//! command to run (see [`install`]).

mod artefacts;
mod browser;
mod commands;
mod driver;
pub mod install;
mod window;

pub use artefacts::artefact_dir;
pub use browser::{Browser, ConsoleEntry};
pub use fantoccini::{Client, Locator};
pub use window::WindowSize;
