//! A helper process that kills a child of the bench once the bench is gone without
//! stopping it (SIGKILL, an abort), so no service outlives its run. A service left behind
//! keeps its memory and its port, and retries a database whose cluster its own helper
//! has already stopped.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};

/// Reads one line from its stdin: a line means the bench stopped the child itself; the
/// end of the file means the bench is gone (the kernel closes the pipe's only writer
/// however a process ends), and the child (`$1`) is killed.
const SCRIPT: &str = r#"read -r released || kill -KILL "$1" 2>/dev/null"#;

/// The armed helper; released (the child is left alone) when dropped.
#[derive(Debug)]
pub struct Lifeline {
    /// The helper's stdin, written only by this process.
    pipe: Option<ChildStdin>,
    helper: Child,
}

impl Lifeline {
    /// Arms a helper that kills process `pid` once this process is gone. The helper has
    /// a process group of its own, so a Ctrl-C aimed at the bench leaves it to do its work.
    pub fn arm(pid: u32) -> std::io::Result<Self> {
        let mut helper = Command::new("sh")
            .arg("-c")
            .arg(SCRIPT)
            .arg("opinion-bench-lifeline")
            .arg(pid.to_string())
            .current_dir("/")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()?;
        Ok(Self {
            pipe: helper.stdin.take(),
            helper,
        })
    }
}

impl Drop for Lifeline {
    /// Tells the helper the child was stopped by the bench, and waits for it to exit.
    fn drop(&mut self) {
        if let Some(mut pipe) = self.pipe.take() {
            let _ = pipe.write_all(b"released\n");
        }
        let _ = self.helper.wait();
    }
}
