//! CPU time per request, party by party: the service's, PostgreSQL's and the load
//! generator's, read from `/proc` around a measured run. On cores the three share, a
//! throughput moves with whatever else the machine does; what each party spends on a
//! request is the design's own cost, and it says how far a ratio to a baseline can go.

use std::path::Path;

use serde::Serialize;

/// `/proc` counts CPU time in `USER_HZ` ticks, 100 a second on every Linux the bench
/// runs on (the kernel fixes it for user space whatever its own tick rate).
const TICKS_PER_SECOND: f64 = 100.0;

/// The processes whose CPU a scenario is charged with.
#[derive(Debug, Clone, Default)]
pub struct Parties {
    /// The service's instances.
    pub service: Vec<u32>,
    /// The cluster's postmaster: its backends are its children.
    pub postmaster: Option<u32>,
    /// Whether the bench's children that exit during the run (pgbench) are load. The
    /// service's scenarios leave them out: an instance or a command the bench started
    /// earlier and reaps meanwhile is not their load.
    pub load_children: bool,
}

impl Parties {
    /// The service `service` on the cluster whose data directory is `data_dir`.
    pub fn new(service: u32, data_dir: &Path) -> Self {
        Self {
            service: vec![service],
            postmaster: postmaster_pid(data_dir),
            load_children: false,
        }
    }

    /// The database alone under pgbench, a child of the bench.
    pub fn pgbench(data_dir: &Path) -> Self {
        Self {
            service: Vec::new(),
            postmaster: postmaster_pid(data_dir),
            load_children: true,
        }
    }

    /// The same parties with another instance of the service.
    pub fn with_instance(&self, pid: u32) -> Self {
        let mut parties = self.clone();
        parties.service.push(pid);
        parties
    }
}

/// Cumulative CPU ticks of each party and of the machine at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuReading {
    service: u64,
    database: u64,
    load: u64,
    machine: MachineTicks,
}

impl CpuReading {
    /// Reads every party's ticks now. A party that cannot be read counts nothing; the
    /// machine's busy time then shows the difference as `other_ms`.
    pub fn take(parties: &Parties) -> Self {
        let service = parties.service.iter().filter_map(|pid| own_ticks(*pid)).sum();
        let database = parties.postmaster.map_or(0, tree_ticks);
        // The bench itself, with the local wallet and receivers it serves.
        let load = read_stat(&format!("/proc/{}/stat", std::process::id())).map_or(0, |stat| {
            stat.own + if parties.load_children { stat.children } else { 0 }
        });
        let machine = std::fs::read_to_string("/proc/stat")
            .ok()
            .and_then(|text| MachineTicks::parse(&text))
            .unwrap_or_default();
        Self {
            service,
            database,
            load,
            machine,
        }
    }

    /// What each party spent per request between `earlier` and this reading; `None`
    /// without a request.
    pub fn per_request_since(&self, earlier: &Self, requests: u64) -> Option<CpuPerRequest> {
        if requests == 0 {
            return None;
        }
        let ms = |ticks: u64| ticks as f64 * 1000.0 / TICKS_PER_SECOND / requests as f64;
        let service = self.service.saturating_sub(earlier.service);
        let database = self.database.saturating_sub(earlier.database);
        let load = self.load.saturating_sub(earlier.load);
        let busy = self.machine.busy.saturating_sub(earlier.machine.busy);
        let idle = self.machine.idle.saturating_sub(earlier.machine.idle);
        let total = busy + idle;
        Some(CpuPerRequest {
            service_ms: ms(service),
            database_ms: ms(database),
            load_ms: ms(load),
            other_ms: ms(busy.saturating_sub(service + database + load)),
            idle_share: if total == 0 { 0.0 } else { idle as f64 / total as f64 },
        })
    }
}

/// CPU milliseconds each party spent per request of a measured run (a transaction, for
/// pgbench), and how much of the machine stayed idle.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CpuPerRequest {
    /// The service's instances.
    pub service_ms: f64,
    /// PostgreSQL: the postmaster and every backend.
    pub database_ms: f64,
    /// The load generator: the bench, its local wallet and receivers, or pgbench.
    pub load_ms: f64,
    /// The rest of the machine's busy time: the kernel's own threads and any other
    /// process (a busy neighbour shows here).
    pub other_ms: f64,
    /// The machine's idle share over the run, 0 to 1.
    pub idle_share: f64,
}

impl CpuPerRequest {
    /// The most requests a second `cpus` cores could serve if the service cost nothing and
    /// the rest stayed as measured: how far any change to the service alone can go.
    pub fn ceiling_without_service(&self, cpus: usize) -> Option<f64> {
        let rest = self.database_ms + self.load_ms;
        (rest > 0.0).then(|| cpus as f64 * 1000.0 / rest)
    }
}

/// The machine's busy and idle ticks, from `/proc/stat`'s first line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct MachineTicks {
    busy: u64,
    idle: u64,
}

impl MachineTicks {
    /// `cpu user nice system idle iowait irq softirq steal guest guest_nice`: guest time
    /// is already inside user time, so it is not added again.
    fn parse(stat: &str) -> Option<Self> {
        let line = stat.lines().find(|line| line.starts_with("cpu "))?;
        let fields: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        let field = |index: usize| fields.get(index).copied().unwrap_or(0);
        Some(Self {
            busy: field(0) + field(1) + field(2) + field(5) + field(6) + field(7),
            idle: field(3) + field(4),
        })
    }
}

/// One process's CPU ticks from `/proc/<pid>/stat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ProcessTicks {
    parent: u32,
    /// Its own threads, user and system.
    own: u64,
    /// Its children that have exited and been waited for.
    children: u64,
}

/// Parses `/proc/<pid>/stat`. The command name (field 2) may hold spaces and
/// parentheses, so the fields are counted from its closing parenthesis.
fn parse_stat(stat: &str) -> Option<ProcessTicks> {
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    // After the name: state (3), ppid (4), …, utime (14), stime (15), cutime (16), cstime (17).
    let field = |number: usize| fields.get(number - 3).and_then(|value| value.parse::<u64>().ok());
    Some(ProcessTicks {
        parent: u32::try_from(field(4)?).ok()?,
        own: field(14)? + field(15)?,
        children: field(16)? + field(17)?,
    })
}

/// The ticks of the process whose `stat` file is `path`; `None` once it has gone.
fn read_stat(path: &str) -> Option<ProcessTicks> {
    parse_stat(&std::fs::read_to_string(path).ok()?)
}

/// A process's own ticks.
fn own_ticks(pid: u32) -> Option<u64> {
    read_stat(&format!("/proc/{pid}/stat")).map(|stat| stat.own)
}

/// A parent's ticks with its live children's and those of the children it has waited for
/// (a backend that exits moves its ticks from the one to the other, and the sum holds).
fn tree_ticks(parent: u32) -> u64 {
    read_stat(&format!("/proc/{parent}/stat")).map_or(0, |root| root.own + root.children + live_children_ticks(parent))
}

/// The own ticks of the parent's children that are running now.
fn live_children_ticks(parent: u32) -> u64 {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .bytes()
                .all(|byte| byte.is_ascii_digit())
        })
        .filter_map(|entry| read_stat(&format!("{}/stat", entry.path().display())))
        .filter(|stat| stat.parent == parent)
        .map(|stat| stat.own)
        .sum()
}

/// The postmaster's pid, the first line of the data directory's `postmaster.pid`.
fn postmaster_pid(data_dir: &Path) -> Option<u32> {
    std::fs::read_to_string(data_dir.join("postmaster.pid"))
        .ok()?
        .lines()
        .next()?
        .trim()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests;
