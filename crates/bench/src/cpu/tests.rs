use super::*;

#[test]
fn a_process_stat_is_read_past_a_name_with_spaces_and_parentheses() {
    let stat = "4242 (post (gres) x) S 17 4242 4242 0 -1 4194560 300 0 0 0 120 35 7 3 20 0 1 0 100 0 0";
    assert_eq!(
        parse_stat(stat),
        Some(ProcessTicks {
            parent: 17,
            own: 155,
            children: 10,
        })
    );
}

#[test]
fn a_truncated_process_stat_is_not_read() {
    assert_eq!(parse_stat("4242 (postgres) S 17 4242"), None);
    assert_eq!(parse_stat("no parenthesis at all"), None);
}

#[test]
fn the_machine_is_busy_in_user_system_interrupts_and_steal_and_idle_in_idle_and_io_wait() {
    let stat = "cpu  100 5 40 800 20 1 9 3 50 0\ncpu0 50 2 20 400 10 0 4 1 25 0\n";
    assert_eq!(
        MachineTicks::parse(stat),
        Some(MachineTicks {
            busy: 100 + 5 + 40 + 1 + 9 + 3,
            idle: 800 + 20,
        })
    );
    assert_eq!(MachineTicks::parse("intr 1 2 3\n"), None);
}

#[test]
fn each_party_is_charged_its_ticks_over_the_requests_and_the_rest_is_other() {
    let earlier = CpuReading {
        service: 1_000,
        database: 2_000,
        load: 300,
        machine: MachineTicks { busy: 5_000, idle: 900 },
    };
    let later = CpuReading {
        service: 1_100,
        database: 2_250,
        load: 320,
        machine: MachineTicks {
            busy: 5_400,
            idle: 1_000,
        },
    };
    let cpu = later.per_request_since(&earlier, 1_000).expect("requests were made");
    // 100 ticks are a second, over a thousand requests a millisecond each.
    assert_eq!(cpu.service_ms, 1.0);
    assert_eq!(cpu.database_ms, 2.5);
    assert_eq!(cpu.load_ms, 0.2);
    assert_eq!(cpu.other_ms, 0.3);
    assert_eq!(cpu.idle_share, 0.2);
    assert_eq!(later.per_request_since(&earlier, 0), None);
}

#[test]
fn the_ceiling_without_the_service_is_the_cores_over_the_rest() {
    let cpu = CpuPerRequest {
        service_ms: 1.0,
        database_ms: 0.4,
        load_ms: 0.1,
        other_ms: 0.0,
        idle_share: 0.0,
    };
    assert_eq!(cpu.ceiling_without_service(2), Some(4_000.0));
    let nothing = CpuPerRequest {
        database_ms: 0.0,
        load_ms: 0.0,
        ..cpu
    };
    assert_eq!(nothing.ceiling_without_service(2), None);
}

#[test]
fn this_process_is_read_and_charged_as_load() {
    let parties = Parties::default();
    let before = CpuReading::take(&parties);
    let mut spin = 0_u64;
    let started = std::time::Instant::now();
    while started.elapsed() < std::time::Duration::from_millis(150) {
        spin = std::hint::black_box(spin.wrapping_add(1));
    }
    let after = CpuReading::take(&parties);
    assert!(after.load > before.load, "{before:?} then {after:?}");
    assert!(after.machine.busy > before.machine.busy);
    assert_eq!((after.service, after.database), (0, 0));
}

#[test]
fn a_postmaster_is_found_in_its_data_directory() {
    let dir = std::env::temp_dir().join(format!("opinion-bench-cpu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    assert_eq!(postmaster_pid(&dir), None);
    std::fs::write(dir.join("postmaster.pid"), "31337\n/var/lib/pg\n1700000000\n5432\n").expect("written");
    assert_eq!(postmaster_pid(&dir), Some(31_337));
    std::fs::remove_dir_all(&dir).expect("removed");
}

#[test]
fn a_parent_is_charged_with_its_live_children() {
    let mut child = std::process::Command::new("sh")
        .args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; sleep 5"])
        .spawn()
        .expect("sh runs");
    std::thread::sleep(std::time::Duration::from_millis(400));
    let parent = std::process::id();
    let children = live_children_ticks(parent);
    let stat = read_stat(&format!("/proc/{parent}/stat")).expect("this process is readable");
    let tree = tree_ticks(parent);
    let _ = child.kill();
    let _ = child.wait();
    assert!(children > 0, "the running child's ticks are counted");
    assert!(
        tree >= stat.own + stat.children + children,
        "{tree} holds the parent's and its children's ticks"
    );
}
