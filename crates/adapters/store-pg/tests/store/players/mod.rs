//! Players: what a launch stores for its session, how sessions end, and the operators'
//! launch settings.

mod launch_settings;
mod launches;
mod sessions;
