//! Child-process handling that CBMC runs and `ladr eval`'s task runs share: reading a
//! pipe to its end on its own thread, killing processes, and the registry of what must not
//! outlive ladr (CBMC's process groups, temporary directories), which [`abandon`] cleans
//! up when ladr is interrupted.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::thread;

/// What is alive now: process groups to kill and paths to remove on interruption.
struct Live {
    groups: Vec<u32>,
    paths: Vec<PathBuf>,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    groups: Vec::new(),
    paths: Vec::new(),
});

/// Set by [`abandon`]: a group registered afterwards is killed at once.
static ABANDONED: AtomicBool = AtomicBool::new(false);

fn live() -> std::sync::MutexGuard<'static, Live> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Keeps process group `pgid` registered until dropped.
pub struct GroupGuard(u32);

/// Registers the process group led by `pgid` (a child started with `process_group(0)`).
pub fn track_group(pgid: u32) -> GroupGuard {
    live().groups.push(pgid);
    if ABANDONED.load(Ordering::SeqCst) {
        kill(&[format!("-{pgid}")]);
    }
    GroupGuard(pgid)
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        live().groups.retain(|g| *g != self.0);
    }
}

/// Keeps a path registered for removal until dropped (the owner removes it normally).
pub struct PathGuard(PathBuf);

/// Registers `path` (a temporary directory) for removal if ladr is interrupted.
pub fn track_path(path: PathBuf) -> PathGuard {
    live().paths.push(path.clone());
    PathGuard(path)
}

impl Drop for PathGuard {
    fn drop(&mut self) {
        live().paths.retain(|p| *p != self.0);
    }
}

/// The signal that interrupted ladr (0: none), set by [`interrupt`].
static SIGNAL: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// ladr was interrupted by `signal`: records it ([`interrupted`]), then [`abandon`]s.
/// Recorded first, so a check that ends because its CBMC was killed here reads it and
/// exits as interrupted, not with the "unknown" of a killed CBMC (a race under load).
pub fn interrupt(signal: i32) {
    SIGNAL.store(signal, Ordering::SeqCst);
    abandon();
}

/// The signal that interrupted ladr, if one did ([`interrupt`]).
pub fn interrupted() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// Kills every registered process group and removes every registered path: called once,
/// when ladr is interrupted (SIGINT, SIGTERM, SIGHUP), just before it exits.
pub fn abandon() {
    ABANDONED.store(true, Ordering::SeqCst);
    let (groups, paths) = {
        let l = live();
        (l.groups.clone(), l.paths.clone())
    };
    let targets: Vec<String> = groups.iter().map(|g| format!("-{g}")).collect();
    kill(&targets);
    for p in paths {
        let _ = std::fs::remove_dir_all(p);
    }
}

/// The address-space limit (`RLIMIT_AS`, bytes) of every CBMC started from now on; 0: none.
static CHILD_MEMORY: AtomicU64 = AtomicU64::new(0);

/// Limits the address space of every CBMC started from now on to `bytes` (`--memory`'s
/// share per CBMC run); 0 removes the limit. A CBMC that needs more fails its allocation
/// and ends, which the check reports as CBMC's failure, not ladr's.
pub fn limit_children(bytes: u64) {
    CHILD_MEMORY.store(bytes, Ordering::SeqCst);
}

/// The limit [`limit_children`] set (0: none).
pub fn child_limit() -> u64 {
    CHILD_MEMORY.load(Ordering::SeqCst)
}

/// Makes the child `cmd` starts receive SIGKILL when ladr dies, however it dies (SIGKILL,
/// an OOM kill), so no CBMC outlives it: `prctl(PR_SET_PDEATHSIG, SIGKILL)` in the child
/// before `exec`. The signal comes when the spawning thread ends, and every CBMC is waited
/// for on the thread that started it. A parent that died before the `prctl` is caught by
/// comparing the parent's id. The child's address space is also limited as
/// [`limit_children`] set.
pub fn die_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: `getpid` before the fork; `getrlimit`, `setrlimit`, `prctl`, `getppid` and `raise` are
    // async-signal-safe, and the closure allocates nothing.
    let parent = unsafe { libc::getpid() };
    let memory = child_limit();
    unsafe {
        cmd.pre_exec(move || {
            // `--memory`: lower (never raise) the soft and hard address-space limits.
            if memory > 0 {
                let mut lim = libc::rlimit {
                    rlim_cur: 0,
                    rlim_max: 0,
                };
                if libc::getrlimit(libc::RLIMIT_AS, &mut lim) == 0 {
                    let m = memory as libc::rlim_t;
                    lim.rlim_cur = lim.rlim_cur.min(m);
                    lim.rlim_max = lim.rlim_max.min(m);
                    if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
            }
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                libc::raise(libc::SIGKILL);
            }
            Ok(())
        });
    }
}

/// Reads `pipe` to its end on a thread of its own (a child's output can be larger than a
/// pipe buffer, and reading one pipe while the child blocks on the other would deadlock).
pub fn reader<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        String::from_utf8_lossy(&buf).into_owned()
    })
}

/// The phase the CBMC run started last by this process has reached, as its output so far
/// says (0: none started; then [`crate::Phase`] in order from 1), for a watchdog that must
/// answer while CBMC still runs.
static LIVE_PHASE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);
/// The number of the CBMC run started last: only its reader writes [`LIVE_PHASE`].
static LIVE_RUN: AtomicU64 = AtomicU64::new(0);

/// The furthest phase a CBMC run has reached (`None`: none has started).
pub fn live_phase() -> Option<crate::Phase> {
    use crate::Phase;
    Some(match LIVE_PHASE.load(Ordering::SeqCst) {
        0 => return None,
        1 => Phase::FrontEnd,
        2 => Phase::SymbolicExecution,
        3 => Phase::Formula,
        _ => Phase::Solving,
    })
}

/// [`reader`] for CBMC's stdout: also records the phase each line starts
/// ([`live_phase`]).
pub fn phase_reader<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<String> {
    let run = LIVE_RUN.fetch_add(1, Ordering::SeqCst) + 1;
    LIVE_PHASE.store(1, Ordering::SeqCst);
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(p) = pipe {
            let mut p = std::io::BufReader::new(p);
            let mut line = Vec::new();
            while matches!(std::io::BufRead::read_until(&mut p, b'\n', &mut line), Ok(n) if n > 0) {
                if line.len() < 4096 && line.windows(14).any(|w| w == b"\"messageText\"") {
                    let phase = match crate::phase_reached(&String::from_utf8_lossy(&line)) {
                        crate::Phase::FrontEnd => 1,
                        crate::Phase::SymbolicExecution => 2,
                        crate::Phase::Formula => 3,
                        crate::Phase::Solving => 4,
                    };
                    if LIVE_RUN.load(Ordering::SeqCst) == run {
                        LIVE_PHASE.fetch_max(phase, Ordering::SeqCst);
                    }
                }
                buf.append(&mut line);
            }
        }
        String::from_utf8_lossy(&buf).into_owned()
    })
}

/// Sends SIGKILL to `targets`: process ids, or `-PGID` for a whole process group.
pub fn kill(targets: &[String]) {
    if targets.is_empty() {
        return;
    }
    let _ = Command::new("kill")
        .arg("-KILL")
        .arg("--")
        .args(targets)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}
