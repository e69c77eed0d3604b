//! The window sizes pages are checked at, so every suite means the same by "phone".

/// A browser window's outer size in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowSize {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// A short name for screenshot file names (`phone`, `laptop`).
    pub name: &'static str,
}

impl WindowSize {
    /// A current phone held upright (390×844).
    pub const PHONE: WindowSize = WindowSize {
        width: 390,
        height: 844,
        name: "phone",
    };
    /// The most common laptop screen (1366×768).
    pub const LAPTOP: WindowSize = WindowSize {
        width: 1366,
        height: 768,
        name: "laptop",
    };
}
