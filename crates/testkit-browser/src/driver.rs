//! One chromedriver process per browser, on a port the system picks: started with
//! `--port=0`, it prints the port it bound, so two suites never race for a fixed port.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::install::CHROMEDRIVER;

const STARTED: &str = "started successfully on port ";

/// A running chromedriver; shut down (with its browsers) when dropped.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    /// Starts chromedriver and waits (at most 20 s) for the port it reports.
    pub async fn start() -> Driver {
        let mut child = Command::new(CHROMEDRIVER)
            .arg("--port=0")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {CHROMEDRIVER}: {error}"));
        let stdout = child.stdout.take().expect("chromedriver's stdout is piped");
        let mut lines = BufReader::new(stdout).lines();
        let port = tokio::time::timeout(Duration::from_secs(20), async {
            while let Some(line) = lines.next_line().await.expect("chromedriver's stdout is readable") {
                if let Some(rest) = line.split(STARTED).nth(1) {
                    return rest
                        .trim_end_matches('.')
                        .parse::<u16>()
                        .expect("chromedriver reports a port number");
                }
            }
            panic!("chromedriver ended without reporting its port");
        })
        .await
        .expect("chromedriver reports its port within 20 s");
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Driver { child, port }
    }

    /// The WebDriver address.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Driver {
    /// Asks chromedriver to quit its browsers and itself (`GET /shutdown`), then kills it
    /// in case it did not, so a failed test leaves no browser behind.
    fn drop(&mut self) {
        if let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let _ = stream.write_all(b"GET /shutdown HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            let _ = stream.read_to_end(&mut Vec::new());
        }
        let _ = self.child.start_kill();
    }
}
