//! A lifeline kills the process it guards once its owner is killed, and leaves it alone
//! once released. The owner is this test binary run again as a child process.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use opinion_bench::lifeline::Lifeline;

/// Set in the child process: it then guards a process of its own and waits to be killed.
const OWNER_ENV: &str = "OPINION_BENCH_LIFELINE_OWNER";

/// What the owner prints before the guarded process's id.
const GUARDED_MARKER: &str = "guarded process: ";

/// A process that would outlive the test if nothing stopped it.
fn long_sleep() -> Child {
    Command::new("sleep")
        .arg("600")
        .stdin(Stdio::null())
        .spawn()
        .expect("sleep")
}

/// Whether `pid` runs: it exists and is not a zombie waiting to be reaped.
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit(')').next().unwrap_or_default().trim_start();
        !state.starts_with('Z')
    })
}

/// Whether `condition` holds within ten seconds.
fn eventually(condition: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if condition() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn the_guarded_process_is_killed_with_its_owner() {
    let mut owner = Command::new(std::env::current_exe().expect("the test binary"))
        .args(["guard_a_process_forever", "--exact", "--ignored", "--nocapture"])
        .env(OWNER_ENV, "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the owner");
    let stdout = BufReader::new(owner.stdout.take().expect("its stdout"));
    let guarded: u32 = stdout
        .lines()
        .map_while(Result::ok)
        .find_map(|line| line.split_once(GUARDED_MARKER)?.1.trim().parse().ok())
        .expect("the owner did not report its guarded process");
    assert!(running(guarded));

    owner.kill().expect("kill the owner");
    owner.wait().expect("reap the owner");

    assert!(eventually(|| !running(guarded)), "process {guarded} outlived its owner");
}

#[test]
fn a_released_lifeline_leaves_its_process_alone() {
    let mut guarded = long_sleep();
    let lifeline = Lifeline::arm(guarded.id()).expect("arm");

    drop(lifeline);

    let still_running = running(guarded.id());
    guarded.kill().expect("kill");
    guarded.wait().expect("reap");
    assert!(still_running, "a released lifeline killed its process");
}

/// Not a test of its own: the body of the owner process of the test above.
#[test]
#[ignore = "run only as the owner process of the_guarded_process_is_killed_with_its_owner"]
fn guard_a_process_forever() {
    if std::env::var_os(OWNER_ENV).is_none() {
        return;
    }
    let mut guarded = long_sleep();
    let _lifeline = Lifeline::arm(guarded.id()).expect("arm");
    println!("{GUARDED_MARKER}{}", guarded.id());
    // Killed while it waits: the lifeline, not this wait, ends the guarded process.
    let _ = guarded.wait();
}
