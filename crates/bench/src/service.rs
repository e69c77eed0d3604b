//! The service under test: the release `opinion` binary (the debug one in a smoke run,
//! or one built beforehand), built if needed, run with `OPINION_*` variables on a free
//! loopback port over the bench's database.

use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::Context;

use crate::lifeline::Lifeline;

/// How long the service may take to print its listen line.
const START_TIMEOUT: Duration = Duration::from_secs(120);

/// What the service prints once it listens, before the base URL.
const LISTEN_MARKER: &str = "listening on ";

/// What the line after the listen line starts with when the live feed has a listener of
/// its own, before the feed's URL.
const LIVE_FEED_MARKER: &str = "Live feed: ";

/// A service binary built beforehand, run as it is instead of building one. CI passes
/// the one its test build made: `cargo build -p opinion` alone resolves the dependencies'
/// features without the tests' (tokio's `test-util`, the app's mocks) and would compile
/// the service and most of its dependencies once more.
const PREBUILT_VARIABLE: &str = "OPINION_BENCH_SERVICE_BINARY";

/// The binary named by `OPINION_BENCH_SERVICE_BINARY`; otherwise builds (or finds up to
/// date) the release binary, or the debug one for a smoke run. Returns its path.
pub fn build(workspace: &Path, release: bool) -> anyhow::Result<PathBuf> {
    if let Some(prebuilt) = std::env::var_os(PREBUILT_VARIABLE) {
        let binary = PathBuf::from(prebuilt);
        anyhow::ensure!(
            binary.is_file(),
            "{PREBUILT_VARIABLE}: {} is not a file",
            binary.display()
        );
        println!("using the service binary {}", binary.display());
        return Ok(binary);
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut args = vec!["build", "--quiet", "-p", "opinion", "--bin", "opinion"];
    if release {
        args.push("--release");
    }
    println!("building the service binary (cargo {})…", args.join(" "));
    let status = Command::new(cargo)
        .args(&args)
        .current_dir(workspace)
        .status()
        .context("running cargo build")?;
    anyhow::ensure!(status.success(), "cargo build of the opinion binary failed");
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace.join("target"), PathBuf::from);
    let binary = target.join(if release { "release" } else { "debug" }).join("opinion");
    anyhow::ensure!(binary.is_file(), "{} was not built", binary.display());
    Ok(binary)
}

/// The bench's own `OPINION_BENCH_*` variables: the service refuses `OPINION_*` variables
/// it does not know, so they are removed from what it inherits.
fn bench_variables() -> Vec<OsString> {
    std::env::vars_os()
        .map(|(name, _)| name)
        .filter(|name| name.to_string_lossy().starts_with("OPINION_BENCH_"))
        .collect()
}

/// What the service and platform staff's command both run with: development, over the
/// bench's database, with the data directory holding its keys.
fn environment(database_url: &str, data_dir: &Path) -> [(&'static str, OsString); 4] {
    [
        ("OPINION_ENV", "development".into()),
        ("OPINION_DATA_DIR", data_dir.into()),
        ("DATABASE_URL", database_url.into()),
        ("RUST_LOG", "warn".into()),
    ]
}

/// Platform staff's command (`opinion admin …`) as the bench runs it: the service's
/// binary over the service's database and data directory, so it signs with the key the
/// service made current and opens what the service sealed.
#[derive(Debug, Clone)]
pub struct AdminCommand {
    binary: PathBuf,
    database_url: String,
    data_dir: PathBuf,
}

impl AdminCommand {
    /// The command of `binary` over `database_url` and `data_dir`.
    pub fn new(binary: &Path, database_url: &str, data_dir: &Path) -> Self {
        Self {
            binary: binary.to_owned(),
            database_url: database_url.to_owned(),
            data_dir: data_dir.to_owned(),
        }
    }

    /// A command to add `admin …` arguments to.
    pub fn command(&self) -> tokio::process::Command {
        let mut command = tokio::process::Command::new(&self.binary);
        for name in bench_variables() {
            command.env_remove(name);
        }
        command
            .envs(environment(&self.database_url, &self.data_dir))
            .stdin(Stdio::null())
            .kill_on_drop(true);
        command
    }
}

/// A running service process; stopped (SIGTERM, then SIGKILL) when dropped, and killed
/// by its lifeline if the bench ends without dropping it.
pub struct Service {
    child: Child,
    base_url: String,
    live_feed_url: Option<String>,
    /// Released once the child is reaped.
    lifeline: Option<Lifeline>,
}

impl Service {
    /// Starts `binary serve` against `database_url`, with its development data (session
    /// secret, demo credentials) in `data_dir` and its log in `data_dir/service.log`.
    pub fn start(
        binary: &Path,
        database_url: &str,
        data_dir: &Path,
        extra_env: &[(&str, String)],
    ) -> anyhow::Result<Self> {
        Self::start_logged(binary, database_url, data_dir, &data_dir.join("service.log"), extra_env)
    }

    /// As [`Service::start`], with the log appended to `log_path`: several instances
    /// of one deployment, or one instance's successive lives, each keep their log.
    pub fn start_logged(
        binary: &Path,
        database_url: &str,
        data_dir: &Path,
        log_path: &Path,
        extra_env: &[(&str, String)],
    ) -> anyhow::Result<Self> {
        std::fs::create_dir_all(data_dir)?;
        let log = std::fs::OpenOptions::new().create(true).append(true).open(log_path)?;
        let mut command = Command::new(binary);
        for name in bench_variables() {
            command.env_remove(name);
        }
        command
            .arg("serve")
            .envs(environment(database_url, data_dir))
            .env("OPINION_HOST", "127.0.0.1")
            .env("OPINION_PORT", "0")
            // One operator drives every scenario's load: its rate limit, at the largest
            // setting, never refuses, so the figures are the service's capacity.
            .env("OPINION_OPERATOR_RATE_LIMIT_PER_MINUTE", "1000000")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log);
        for (name, value) in extra_env {
            command.env(name, value);
        }
        let mut child = command
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        let lifeline = match Lifeline::arm(child.id()) {
            Ok(lifeline) => lifeline,
            Err(err) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(err).context("arming the service's lifeline (sh)");
            }
        };
        let stdout = child.stdout.take().context("the service's stdout")?;
        let (sender, receiver) = mpsc::channel();
        // Reads every line so the service never blocks on a full pipe; the first listen
        // line is handed over with the live feed's URL from the line after it.
        std::thread::spawn(move || {
            let mut sender = Some(sender);
            let mut listening: Option<String> = None;
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(base) = listening.take()
                    && let Some(sender) = sender.take()
                {
                    let live = line.trim().strip_prefix(LIVE_FEED_MARKER).map(str::to_owned);
                    let _ = sender.send((base, live));
                } else if let Some(at) = line.find(LISTEN_MARKER)
                    && sender.is_some()
                {
                    listening = Some(line[at + LISTEN_MARKER.len()..].trim().to_owned());
                }
            }
        });
        let mut service = Self {
            child,
            base_url: String::new(),
            live_feed_url: None,
            lifeline: Some(lifeline),
        };
        (service.base_url, service.live_feed_url) = receiver.recv_timeout(START_TIMEOUT).with_context(|| {
            let log = std::fs::read_to_string(log_path).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(20).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            format!("the service did not start; its log ends:\n{}", tail.join("\n"))
        })?;
        anyhow::ensure!(
            service.base_url.starts_with("http://127.0.0.1:"),
            "the service listens on {}, not on loopback",
            service.base_url
        );
        Ok(service)
    }

    /// `http://127.0.0.1:<port>`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The live feed's own URL, when the service was started with a listener for it
    /// (`OPINION_LIVE_FEED_PORT`).
    pub fn live_feed_url(&self) -> Option<&str> {
        self.live_feed_url.as_deref()
    }

    /// The process id, for its memory figures.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the service gracefully, forcibly if it does not stop within ten seconds.
    pub fn stop(mut self) {
        self.terminate();
    }

    /// Kills the process at once (SIGKILL), as a crash or a lost machine would, and
    /// reaps it.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.lifeline = None;
    }

    fn terminate(&mut self) {
        self.stop_child();
        self.lifeline = None;
    }

    fn stop_child(&mut self) {
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            return;
        }
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        for _ in 0..100 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        self.terminate();
    }
}
