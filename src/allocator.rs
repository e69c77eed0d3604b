//! glibc's allocator gives a process up to eight arenas per core, each thread keeping to
//! its own. The service's threads (the runtime's, the HTTP workers', the blocking pool's)
//! spread a burst of requests over many of them, and each arena keeps what it freed for
//! its own next allocations: after a thousand requests at once the process held about
//! half again what the requests needed. One arena per core bounds that and costs no
//! measurable contention (docs/performance.md).

/// The `MALLOC_ARENA_MAX` environment variable: when set, glibc reads it and the cap here
/// is not applied.
const ARENA_MAX_VARIABLE: &str = "MALLOC_ARENA_MAX";

/// Caps glibc's arenas at one per available core, unless `MALLOC_ARENA_MAX` sets the cap.
/// Call it first in `main`, before any thread starts: arenas already made stay.
pub fn cap_arenas() {
    if std::env::var_os(ARENA_MAX_VARIABLE).is_some() {
        return;
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    set_arena_max(i32::try_from(cores).unwrap_or(i32::MAX));
}

/// Sets glibc's `M_ARENA_MAX`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn set_arena_max(arenas: i32) {
    // SAFETY: `mallopt` takes two integers and changes one setting of glibc's allocator;
    // it touches no memory of ours, and `main` calls this before a second thread exists.
    unsafe { libc::mallopt(libc::M_ARENA_MAX, arenas) };
}

/// Other C libraries have no such arenas to cap.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn set_arena_max(_arenas: i32) {}
