//! Starts real clusters with the installed PostgreSQL and checks they answer, attach, stop and clean up.

use std::io::{BufRead, BufReader};
use std::net::{Ipv4Addr, TcpStream};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use opinion_devdb::Cluster;

/// Set in the child process of `removed_when_its_process_is_killed`: which cluster it holds.
const CHILD_ENV: &str = "OPINION_DEVDB_TEST_CHILD";

/// Precedes the port and directory the child prints, which libtest puts after its own text on the line.
const CHILD_MARKER: &str = "CLUSTER ";

/// Runs `select 1` with psql, as a client that knows nothing about this crate would.
fn answers(port: u16) -> bool {
    let output = Command::new("psql")
        .args(["-X", "-A", "-t", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres"])
        .arg("-p")
        .arg(port.to_string())
        .args(["-c", "select 1"])
        .output()
        .expect("psql must be installed to run these tests");
    output.status.success() && String::from_utf8_lossy(&output.stdout).trim() == "1"
}

/// Whether anything still listens on the port.
fn listening(port: u16) -> bool {
    TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_ok()
}

/// Polls `condition` for up to 20 seconds.
fn eventually(condition: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if condition() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// A temporary parent directory the `postgres` OS user can traverse when the tests run as root.
fn traversable_tempdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

#[test]
fn ephemeral_cluster_answers_and_is_deleted_on_drop() {
    let started = Instant::now();
    let cluster = Cluster::start_ephemeral().unwrap();
    eprintln!("ephemeral cluster started in {:?}", started.elapsed());
    let dir = cluster.data_dir().to_path_buf();
    let port = cluster.port();
    assert!(answers(port));
    assert_eq!(cluster.url("app"), format!("postgres://postgres@127.0.0.1:{port}/app"));
    drop(cluster);
    assert!(!dir.exists(), "{} is left behind", dir.display());
    assert!(!listening(port));
}

#[test]
fn persistent_cluster_is_attached_to_while_running_and_restarts() {
    let parent = traversable_tempdir();
    let data_dir = parent.path().join("pg");

    let first = Cluster::start_persistent(&data_dir).unwrap();
    assert!(answers(first.port()));

    let second = Cluster::start_persistent(&data_dir).unwrap();
    assert_eq!(second.port(), first.port());
    second.stop().unwrap();
    assert!(
        answers(first.port()),
        "stopping an attached cluster must not stop the server"
    );

    first.stop().unwrap();
    assert!(!listening(first.port()));
    first.stop().unwrap();

    let again = Cluster::start_persistent(&data_dir).unwrap();
    assert!(answers(again.port()));
    again.stop().unwrap();
}

#[test]
fn stale_pid_file_does_not_prevent_a_start() {
    let parent = traversable_tempdir();
    let data_dir = parent.path().join("pg");
    Cluster::start_persistent(&data_dir).unwrap().stop().unwrap();

    let mut finished = Command::new("true").spawn().unwrap();
    let dead_pid = finished.id();
    finished.wait().unwrap();
    // After a reboot the recorded pid often belongs to some unrelated live process, like this one.
    let reused_pid = std::process::id();
    for pid in [dead_pid, reused_pid] {
        let stale = format!(
            "{pid}\n{}\n1700000000\n1\n\n127.0.0.1\n 0 0\nready   \n",
            data_dir.display()
        );
        std::fs::write(data_dir.join("postmaster.pid"), stale).unwrap();
        let cluster = Cluster::start_persistent(&data_dir).unwrap();
        assert!(answers(cluster.port()));
        cluster.stop().unwrap();
    }
}

#[test]
fn ephemeral_cluster_is_removed_when_its_process_is_killed() {
    removed_when_its_process_is_killed(EPHEMERAL);
}

#[test]
fn scratch_cluster_is_removed_when_its_process_is_killed() {
    let parent = traversable_tempdir();
    removed_when_its_process_is_killed(&parent.path().join("pg").display().to_string());
}

#[test]
fn scratch_cluster_is_durable_takes_its_settings_logs_and_is_deleted_on_drop() {
    let parent = traversable_tempdir();
    let data_dir = parent.path().join("pg");
    let cluster = Cluster::start_scratch(&data_dir, "\nwork_mem = '7MB'\n").unwrap();
    let log = std::fs::read_to_string(cluster.log_file()).expect("the server's log");
    assert!(log.contains("ready to accept connections"), "{log}");
    assert_eq!(setting(cluster.port(), "work_mem"), "7MB");
    assert_eq!(setting(cluster.port(), "fsync"), "on");
    assert_eq!(setting(cluster.port(), "full_page_writes"), "on");
    let port = cluster.port();
    drop(cluster);
    assert!(!data_dir.exists(), "{} is left behind", data_dir.display());
    assert!(!listening(port));
}

#[test]
fn scratch_cluster_refuses_a_directory_with_files() {
    let parent = traversable_tempdir();
    std::fs::write(parent.path().join("notes.txt"), "keep me").unwrap();
    let refused = Cluster::start_scratch(parent.path(), "").unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("neither empty nor a PostgreSQL data directory"),
        "{refused}"
    );
    assert!(parent.path().join("notes.txt").exists());
}

/// The value of the server's setting `name`, as `SHOW` gives it.
fn setting(port: u16, name: &str) -> String {
    let output = Command::new("psql")
        .args(["-X", "-A", "-t", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres"])
        .arg("-p")
        .arg(port.to_string())
        .args(["-c", &format!("show {name}")])
        .output()
        .expect("psql must be installed to run these tests");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// What the child process holds: this value of [`CHILD_ENV`] for an ephemeral cluster,
/// any other the data directory of a scratch cluster.
const EPHEMERAL: &str = "ephemeral";

/// Starts a child process holding the cluster `kind` names, kills it and checks the
/// cluster stops and its directory goes.
fn removed_when_its_process_is_killed(kind: &str) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["hold_a_cluster_forever", "--exact", "--ignored", "--nocapture"])
        .env(CHILD_ENV, kind)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let line = stdout
        .lines()
        .map_while(Result::ok)
        .find_map(|line| Some(line.split_once(CHILD_MARKER)?.1.to_owned()))
        .expect("the child process did not report its cluster");
    let (port, dir) = line.split_once(' ').unwrap();
    let (port, dir): (u16, PathBuf) = (port.parse().unwrap(), dir.into());
    assert!(answers(port));

    child.kill().unwrap();
    child.wait().unwrap();

    assert!(
        eventually(|| !Path::new(&dir).exists()),
        "{} is left behind",
        dir.display()
    );
    assert!(!listening(port));
}

/// Not a test of its own: the body of the child process of the tests above.
#[test]
#[ignore = "run only as the child process of removed_when_its_process_is_killed"]
fn hold_a_cluster_forever() {
    let Some(kind) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let cluster = if kind == EPHEMERAL {
        Cluster::start_ephemeral().unwrap()
    } else {
        Cluster::start_scratch(Path::new(&kind), "").unwrap()
    };
    println!("{CHILD_MARKER}{} {}", cluster.port(), cluster.data_dir().display());
    loop {
        std::thread::park();
    }
}
