//! The database's own ceiling, measured with PostgreSQL's `pgbench` on the same cluster
//! and client count: select-only (one indexed read per transaction) and the default
//! TPC-B-like read-write transaction (one commit of three updates, a select, an insert);
//! and any script of the bench's own (the service's page SQL alone).

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use anyhow::Context;
use opinion_devdb::Cluster;
use serde::Serialize;

use crate::cpu::{CpuPerRequest, CpuReading, Parties};
use crate::database::PGBENCH_DATABASE;

/// Which pgbench script.
#[derive(Debug, Clone)]
pub enum Script {
    /// `-S`: one primary-key select per transaction.
    SelectOnly,
    /// The built-in TPC-B-like read-write transaction.
    ReadWrite,
    /// A script file (`-f`) run on `database`, with `-D name=value` variables.
    Custom {
        /// The script.
        file: PathBuf,
        /// The database it runs on.
        database: String,
        /// Its variables.
        variables: Vec<(String, String)>,
    },
}

/// What one pgbench run reported.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PgbenchReport {
    /// Transactions per second, connection time excluded.
    pub per_second: f64,
    /// Mean latency, milliseconds (pgbench reports no percentiles without logs).
    pub mean_ms: f64,
    /// CPU per transaction: the database's and pgbench's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuPerRequest>,
}

/// pgbench bound to one cluster.
pub struct Pgbench {
    program: PathBuf,
    port: String,
    parties: Parties,
}

impl Pgbench {
    /// Finds `pgbench` next to the cluster's `postgres`.
    pub fn locate(cluster: &Cluster) -> anyhow::Result<Self> {
        let program = opinion_devdb::server_program("pgbench")?
            .context("pgbench is not installed next to postgres (Debian: package postgresql-contrib or postgresql)")?;
        Ok(Self {
            program,
            port: cluster.port().to_string(),
            parties: Parties::pgbench(cluster.data_dir()),
        })
    }

    /// `pgbench -i` at a scale of `scale` (100,000 accounts each).
    pub fn initialise(&self, scale: usize) -> anyhow::Result<()> {
        let output = self
            .command()
            .args(["-i", "-q", "-s", &scale.to_string(), PGBENCH_DATABASE])
            .output()
            .context("running pgbench -i")?;
        anyhow::ensure!(
            output.status.success(),
            "pgbench -i failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        Ok(())
    }

    /// Runs `script` with `clients` clients for `duration`, prepared statements as the
    /// service uses them.
    pub fn run(&self, script: Script, clients: usize, duration: Duration) -> anyhow::Result<PgbenchReport> {
        let mut command = self.command();
        command.args([
            "-n",
            "-M",
            "prepared",
            "-c",
            &clients.to_string(),
            "-j",
            "2",
            "-T",
            &duration.as_secs().max(1).to_string(),
        ]);
        let database = match &script {
            Script::SelectOnly => {
                command.arg("-S");
                PGBENCH_DATABASE
            }
            Script::ReadWrite => PGBENCH_DATABASE,
            Script::Custom {
                file,
                database,
                variables,
            } => {
                command.arg("-f").arg(file);
                for (name, value) in variables {
                    command.arg("-D").arg(format!("{name}={value}"));
                }
                database.as_str()
            }
        };
        let started = CpuReading::take(&self.parties);
        let output = command.arg(database).output().context("running pgbench")?;
        let ended = CpuReading::take(&self.parties);
        let text = String::from_utf8_lossy(&output.stdout);
        anyhow::ensure!(
            output.status.success(),
            "pgbench failed: {}{}",
            text,
            String::from_utf8_lossy(&output.stderr)
        );
        Ok(PgbenchReport {
            per_second: number_after(&text, "tps = ").context("pgbench printed no tps")?,
            mean_ms: number_after(&text, "latency average = ").context("pgbench printed no latency")?,
            cpu: number_after(&text, "number of transactions actually processed: ")
                .and_then(|transactions| ended.per_request_since(&started, transactions as u64)),
        })
    }

    fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command.args(["-h", "127.0.0.1", "-p", &self.port, "-U", "postgres"]);
        command
    }
}

/// The number following the first `label` in pgbench's output.
fn number_after(text: &str, label: &str) -> Option<f64> {
    let rest = &text[text.find(label)? + label.len()..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::number_after;

    #[test]
    fn reads_pgbench_summary_lines() {
        let text = "number of transactions actually processed: 155497\nlatency average = 1.234 ms\ninitial connection time = 5.6 ms\ntps = 12958.123456 (without initial connection time)\n";
        assert_eq!(number_after(text, "tps = "), Some(12958.123456));
        assert_eq!(
            number_after(text, "number of transactions actually processed: "),
            Some(155_497.0)
        );
        assert_eq!(number_after(text, "latency average = "), Some(1.234));
        assert_eq!(number_after(text, "nothing = "), None);
    }
}
