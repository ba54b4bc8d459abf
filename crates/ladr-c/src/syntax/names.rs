//! Every name ladr generates comes from here. All carry the reserved prefix `__ladr_`, which
//! no user program uses, so they cannot clash with user names.
//!
//! * renamed locals: `__ladr_<n>_<original>`; [`original_name`] recovers `<original>`;
//! * temporaries: `__ladr_t<n>`; labels: `__ladr_L<n>`;
//! * fixed names of the model and the driver: the constants below.

/// The reserved prefix.
pub const PREFIX: &str = "__ladr_";

/// A counter of fresh names; one per program transformation chain.
#[derive(Clone, Debug, Default)]
pub struct Names {
    next: u64,
}

impl Names {
    pub fn new() -> Names {
        Names { next: 0 }
    }

    fn bump(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    /// A fresh name for a copy of the user variable `orig` (keeps `orig` recoverable).
    pub fn local(&mut self, orig: &str) -> String {
        let n = self.bump();
        format!("{PREFIX}{n}_{}", original_name(orig))
    }

    /// A fresh temporary.
    pub fn temp(&mut self) -> String {
        let n = self.bump();
        format!("{PREFIX}t{n}")
    }

    /// A fresh label.
    pub fn label(&mut self, hint: &str) -> String {
        let n = self.bump();
        format!("{PREFIX}{hint}{n}")
    }

    /// Makes sure later fresh names do not repeat names already present in a program
    /// (call with every identifier of a program produced by an earlier `Names`).
    pub fn avoid(&mut self, name: &str) {
        if let Some(rest) = name.strip_prefix(PREFIX) {
            let digits: String = rest
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if let Ok(n) = digits.parse::<u64>() {
                self.next = self.next.max(n);
            }
        }
    }
}

/// The start routine library mode generates for entry function `f`: `__ladr_entry_f`
/// (reports name the thread after [`entry_of`] it: `f`).
pub fn entry_routine(f: &str) -> String {
    format!("{PREFIX}entry_{f}")
}

/// The entry function a generated start routine calls (`__ladr_entry_f` → `f`).
pub fn entry_of(routine: &str) -> Option<&str> {
    routine
        .strip_prefix(PREFIX)
        .and_then(|r| r.strip_prefix("entry_"))
        .filter(|f| !f.is_empty())
}

/// The user's own `main`, renamed (not run) when library mode generates the harness.
pub const USER_MAIN: &str = "__ladr_user_main";

/// An object of the generated harness standing for argument `orig` (`__ladr_0_orig`: a
/// user-like name, so accesses to it are instrumented and reports say `orig`; the
/// counter of [`Names`] starts at 1, so no fresh name repeats it).
pub fn harness_object(orig: &str) -> String {
    format!("{PREFIX}0_{orig}")
}

/// OpenMP lowering (`frontend::openmp`): the calling thread's number in its team and the
/// team's size (thread-local objects), the team barriers. Named like renamed locals
/// (`omp_...` is their original name), so that the passes treat them as the program's own
/// objects: the team's counters are data, accessed in atomic sections.
pub const OMP_THREAD_NUM: &str = "__ladr_0_omp_thread_num";
pub const OMP_TEAM_SIZE: &str = "__ladr_0_omp_team_size";
pub const OMP_BARRIER: &str = "__ladr_0_omp_barrier";
/// SV-COMP's nondeterministic `long`, declared by the OpenMP lowering for its claims.
pub const NONDET_LONG: &str = "__VERIFIER_nondet_long";

/// The `n`th generated object or function of kind `what` of the OpenMP lowering
/// (`__ladr_3_omp_region`, `__ladr_2_omp_claims`, ...).
pub fn omp(what: &str, n: usize) -> String {
    format!("{PREFIX}{n}_omp_{what}")
}

/// The start routine of the `n`th OpenMP `parallel` region: a function of the program
/// (generated names are variables to `inline`), in the implementation's reserved space.
pub fn omp_region(n: usize) -> String {
    format!("__omp_region{n}")
}

/// The start routine of the SIMD lane of the `n`th team or `simd` loop that has one (a
/// function of the program, as [`omp_region`]).
pub fn omp_lane(n: usize) -> String {
    format!("__omp_lane{n}")
}

/// The start routine of the `n`th OpenMP `task` construct (a function of the program, as
/// [`omp_region`]).
pub fn omp_task(n: usize) -> String {
    format!("__omp_task{n}")
}

/// The suffix of a file's `static` renamed by the linker (`count` of the second file →
/// `count__ladr_u2`). A suffix, not [`PREFIX`], because the passes take prefixed names for
/// their own temporaries and locals; the user's name is still [`original_name`].
pub const LINKED_SUFFIX: &str = "__ladr_u";

/// The name of file-scope `static` `orig` of linked unit `unit` (1-based).
pub fn linked(orig: &str, unit: usize) -> String {
    format!("{orig}{LINKED_SUFFIX}{unit}")
}

/// The user's name behind a generated local name (`__ladr_12_count` → `count`).
pub fn original_name(name: &str) -> &str {
    if let Some((orig, k)) = name.rsplit_once(LINKED_SUFFIX) {
        if !k.is_empty() && k.chars().all(|c| c.is_ascii_digit()) && !orig.is_empty() {
            return original_name(orig);
        }
    }
    if let Some(rest) = name.strip_prefix(PREFIX) {
        if let Some((num, orig)) = rest.split_once('_') {
            if !num.is_empty() && num.chars().all(|c| c.is_ascii_digit()) {
                return original_name(orig);
            }
        }
    }
    name
}

/// True for a temporary made by [`Names::temp`] (also after renaming: `__ladr_3___ladr_t1`).
pub fn is_temporary(name: &str) -> bool {
    original_name(name)
        .strip_prefix(PREFIX)
        .and_then(|r| r.strip_prefix('t'))
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// True for names ladr generated.
pub fn is_generated(name: &str) -> bool {
    name.starts_with(PREFIX)
}

/// True for ladr's own variables (model, scheduler, race flags), which are never data:
/// generated names that are neither renamed user locals (`__ladr_<n>_x`) nor temporaries
/// (`__ladr_t<n>`), which hold user values.
pub fn is_internal(name: &str) -> bool {
    let Some(rest) = name.strip_prefix(PREFIX) else {
        return false;
    };
    let local = rest
        .split_once('_')
        .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    let temp = rest
        .strip_prefix('t')
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    !(local || temp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locals_keep_their_original() {
        let mut n = Names::new();
        let a = n.local("count");
        let b = n.local(&a);
        assert_ne!(a, b);
        assert_eq!(original_name(&b), "count");
        assert_eq!(original_name("plain"), "plain");
        assert!(is_generated(&n.temp()));
        assert!(is_temporary(&n.temp()));
        let t = n.temp();
        assert!(is_temporary(&n.local(&t)));
        assert!(!is_temporary(&a));
        assert_eq!(original_name(&linked("count", 2)), "count");
        assert_eq!(original_name(&n.local(&linked("count", 2))), "count");
        assert!(!is_generated(&linked("count", 2)));
    }
}
