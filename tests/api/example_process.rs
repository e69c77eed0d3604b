//! One of the programs in examples/ running beside the service under test, and every line
//! it printed: the receiver and wallet adapter example tests start them, wait for what
//! they print and stop them.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Generous bound for real-time waits (a JVM compiling its source included).
pub const PATIENCE: Duration = Duration::from_secs(60);

/// The lines an example printed, stderr's prefixed `stderr: `.
pub type Output = Arc<Mutex<Vec<String>>>;

/// A running example (a child process, or a thread of this one) and what it printed.
pub struct ExampleProcess {
    output: Output,
    child: Option<Child>,
}

impl ExampleProcess {
    /// Starts `program script` with `env`; a missing program fails the test (this is no
    /// optional check).
    pub fn start(program: &str, script: &Path, env: &[(&str, &str)]) -> Self {
        let mut child = Command::new(program)
            .arg(script)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|error| {
                panic!(
                    "`{program}` is needed to run {} ({error}); install it (.ci/run does)",
                    script.display()
                )
            });
        let output = Output::default();
        collect(child.stdout.take().expect("stdout"), output.clone(), "");
        collect(child.stderr.take().expect("stderr"), output.clone(), "stderr: ");
        Self {
            output,
            child: Some(child),
        }
    }

    /// An example running in this process, printing into `output`.
    pub fn in_process(output: Output) -> Self {
        Self { output, child: None }
    }

    pub fn lines(&self) -> Vec<String> {
        self.output
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// The first printed line `found` accepts, waiting for it at most [`PATIENCE`].
    pub async fn wait_for_line(&self, found: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(line) = self.lines().into_iter().find(|line| found(line)) {
                return line;
            }
            assert!(Instant::now() < deadline, "the example printed {:?}", self.lines());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The port from the example's `listening on <port>` line.
    pub async fn listening_port(&self) -> u16 {
        let line = self.wait_for_line(|line| line.starts_with("listening on ")).await;
        line["listening on ".len()..].trim().parse().expect("a port")
    }

    /// Kills the example, as a crash or a power cut would end it.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for ExampleProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `examples/<folder>` of the repository.
pub fn examples(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(folder)
}

fn collect(stream: impl Read + Send + 'static, output: Output, prefix: &'static str) {
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            output
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(format!("{prefix}{line}"));
        }
    });
}
