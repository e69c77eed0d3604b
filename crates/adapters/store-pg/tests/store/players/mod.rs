//! Players: what a launch stores for its session, and the operators' launch settings.

mod launch_settings;
mod launches;
