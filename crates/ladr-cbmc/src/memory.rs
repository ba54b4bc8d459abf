//! `--memory MB`: the budget of one ladr run. ladr's own memory (its translation: resident
//! set) is held under the budget by [`Budget::exceeded`], which the command line polls
//! while the check runs and which ends the check with a `resources` error; the CBMC runs
//! share the budget, each with an address-space limit of its share
//! ([`crate::process::limit_children`]).
//!
//! The default is half of the machine's memory (`MemTotal`, or the cgroup's `memory.max`
//! when lower), so ladr and its CBMCs together stay within the machine. When ladr itself
//! runs under an address-space limit (`ulimit -v`), its virtual size is also kept under
//! nine tenths of it, so that the budget ends the check before an allocation fails.

/// One mebibyte.
pub const MB: u64 = 1 << 20;

/// The memory of one run and how it is watched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Bytes: the most ladr's resident set may take.
    pub bytes: u64,
    /// Bytes: the most ladr's virtual size may take (nine tenths of its own `RLIMIT_AS`),
    /// if it has one.
    pub virtual_bytes: Option<u64>,
}

impl Budget {
    /// The budget for `--memory mb` (`None`: the default share of the machine).
    pub fn new(mb: Option<u64>) -> Budget {
        let bytes = match mb {
            Some(mb) => mb.saturating_mul(MB),
            None => default_bytes(),
        };
        Budget {
            bytes,
            virtual_bytes: own_address_limit().map(|l| l / 10 * 9),
        }
    }

    /// The share of each of `jobs` CBMC runs at once (at least 256 MB).
    pub fn per_cbmc(&self, jobs: usize) -> u64 {
        (self.bytes / jobs.max(1) as u64).max(256 * MB)
    }

    /// `Some(message)` when ladr's memory now is over the budget: the message says how
    /// much it took and what to do.
    pub fn exceeded(&self) -> Option<String> {
        let (size, resident) = own_size()?;
        if resident > self.bytes {
            return Some(format!(
                "ladr's translation took {} MB, more than the memory budget of {} MB \
                 (--memory; default: half of the machine's memory): try smaller bounds \
                 (--unwind, --max-unwind, --rounds) or a larger --memory",
                resident / MB,
                self.bytes / MB
            ));
        }
        match self.virtual_bytes {
            Some(v) if size > v => Some(format!(
                "ladr's address space reached {} MB, nine tenths of its limit of {} MB \
                 (ulimit -v): try smaller bounds (--unwind, --max-unwind, --rounds)",
                size / MB,
                v / 9 * 10 / MB
            )),
            _ => None,
        }
    }
}

/// How often [`watch`] compares ladr's memory with the budget.
pub const POLL: std::time::Duration = std::time::Duration::from_millis(50);

/// Watches ladr's memory on a thread of its own for the rest of the run: the first time it
/// exceeds `budget`, `exceeded` gets the message (and should end the run).
pub fn watch(budget: Budget, exceeded: impl FnOnce(String) + Send + 'static) {
    std::thread::spawn(move || loop {
        std::thread::sleep(POLL);
        if let Some(message) = budget.exceeded() {
            exceeded(message);
            return;
        }
    });
}

/// Half of the machine's memory, or of the cgroup's limit when lower; 8 GiB if unknown.
pub fn default_bytes() -> u64 {
    let total = meminfo("MemTotal:");
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    let machine = match (total, cgroup) {
        (Some(t), Some(c)) => t.min(c),
        (t, c) => t.or(c).unwrap_or(16 << 30),
    };
    machine / 2
}

/// A field of `/proc/meminfo` in bytes.
pub fn meminfo(field: &str) -> Option<u64> {
    std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        m.lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map(|kb| kb * 1024)
    })
}

/// ladr's own soft address-space limit, if it has one.
fn own_address_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` writes only the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0
        || lim.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    Some(lim.rlim_cur)
}

/// ladr's virtual size and resident set now, in bytes (`/proc/self/statm`).
fn own_size() -> Option<(u64, u64)> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let mut fields = statm.split_whitespace().map(|f| f.parse::<u64>().ok());
    let (size, resident) = (fields.next()??, fields.next()??);
    // SAFETY: `sysconf` reads a constant of the system.
    let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
    Some((size * page, resident * page))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_below_what_ladr_holds_is_exceeded_and_says_so() {
        let tiny = Budget {
            bytes: 1,
            virtual_bytes: None,
        };
        let message = tiny
            .exceeded()
            .expect("a running process holds more than a byte");
        assert!(message.contains("--memory"), "{message}");
        let roomy = Budget {
            bytes: u64::MAX,
            virtual_bytes: None,
        };
        assert_eq!(roomy.exceeded(), None);
    }

    #[test]
    fn the_default_is_half_the_machine_and_cbmc_runs_share_it() {
        let b = Budget {
            bytes: 8 << 30,
            virtual_bytes: None,
        };
        assert_eq!(b.per_cbmc(4), 2 << 30);
        assert_eq!(b.per_cbmc(0), 8 << 30);
        assert_eq!(
            Budget {
                bytes: MB,
                virtual_bytes: None
            }
            .per_cbmc(2),
            256 * MB
        );
        if let Some(total) = meminfo("MemTotal:") {
            assert!(default_bytes() <= total / 2);
        }
    }
}
