//! Players: what a launch stores for its session, how sessions end, and the operators'
//! launch settings and brands.

mod branding;
mod launch_settings;
mod launches;
mod sessions;
