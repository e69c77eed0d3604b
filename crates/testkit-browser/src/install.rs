//! What the kit does when Chromium or chromedriver is missing. `cargo test --workspace`
//! is promised to work after the README's set-up, and a browser test that skips itself
//! would pass while testing nothing, so the kit never skips: as root (CI, a fresh
//! machine) it installs Debian's packages with apt-get, one test process at a time under
//! a file lock; otherwise it fails, naming the command to run.

use std::fs::File;
use std::path::Path;
use std::process::Command;

/// Debian's Chromium.
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// Debian's chromedriver, the same version as [`CHROMIUM`].
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// What installs both, as a person types it.
pub const INSTALL_COMMAND: &str = "sudo apt-get update && sudo apt-get install -y chromium chromium-driver";

const LOCK: &str = "/tmp/opinion-testkit-browser-install.lock";

/// Makes sure both binaries are there, installing them when this process may.
///
/// # Panics
///
/// When they are missing and cannot be installed, with the command that installs them.
pub fn ensure_installed() {
    if present() {
        return;
    }
    if !is_root() {
        panic!(
            "browser tests need Chromium and chromedriver ({CHROMIUM}, {CHROMEDRIVER}); install them with: {INSTALL_COMMAND}"
        );
    }
    let lock = File::create(LOCK).unwrap_or_else(|error| panic!("cannot open {LOCK}: {error}"));
    lock.lock()
        .unwrap_or_else(|error| panic!("cannot lock {LOCK}: {error}"));
    if !present() {
        apt_get(&["update", "-qq"]);
        apt_get(&[
            "install",
            "-y",
            "-qq",
            "--no-install-recommends",
            "chromium",
            "chromium-driver",
        ]);
    }
    if !present() {
        panic!("apt-get installed chromium and chromium-driver but {CHROMIUM} or {CHROMEDRIVER} is still missing");
    }
}

fn present() -> bool {
    Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| output.stdout.trim_ascii() == b"0")
}

fn apt_get(args: &[&str]) {
    let status = Command::new("apt-get")
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .unwrap_or_else(|error| panic!("cannot run apt-get: {error}; install with: {INSTALL_COMMAND}"));
    assert!(
        status.success(),
        "apt-get {} failed ({status}); install with: {INSTALL_COMMAND}",
        args.join(" ")
    );
}
