//! The operator dashboard at `/dashboard`: over plain HTTP (sign-in, the form token, scope
//! refusals as pages, sessions that end, forms shown again with the refused field), and in
//! a real browser (`browser.rs`), with a screenshot of every page.

mod browser;
mod confirmations;
mod delivery_requests;
mod flight;
mod http;
mod own_password;
mod portfolio_links;
mod simulated_user_settings;
mod simulator_forms;
mod support;
mod visibility_mode;
