//! Players: how their sessions end.

mod sessions;
