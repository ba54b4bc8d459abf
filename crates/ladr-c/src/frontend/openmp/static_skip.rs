//! `schedule(static)` and `schedule(static, 1)` loops whose claims may skip ahead.
//!
//! A monotonic schedule's thread runs its iterations in increasing order, so a claim that
//! skipped iterations (left them pending, [`super::work`]) could not have them run later by
//! the same thread, and such loops keep their claims in order. With a team the program does
//! not size, OpenMP leaves the team's size to the implementation: with at least as many
//! threads as iterations, `static` (chunks of about `n / T`, at most one per thread) and
//! `static, 1` give each thread at most one iteration, so every iteration runs on a thread
//! of its own, at any time, and the iterations a claim passes over are other threads',
//! still to run. A prefix of the model's execution is then a prefix of that team's, when
//! nothing tells the model's two threads from that team's many:
//!
//! - no team size fixed by the program (`num_threads`, `if`, `omp_set_num_threads`) and a
//!   `default` that is `shared` or `none`;
//! - nothing in the unit that reads a thread's identity or the team's size (the `omp_`
//!   runtime beyond locks and clocks, `master`, `masked`, `threadprivate`, `copyin`,
//!   thread-local variables): the model's thread 0 runs what, in that team, several threads
//!   run;
//! - the loop body names no variable private to the thread other than the loop variable
//!   and its own locals (a private value one iteration leaves for the next would be
//!   carried between what are, in that team, two threads).
//!
//! Other `static` loops (a chunk size other than 1, a `monotonic:` modifier, an orphaned
//! `for` whose region is not known here) keep their claims in order.
//!
//! In a team the program sizes, `schedule(static, c)` is OpenMP's round robin, exactly:
//! thread `t` of `T` runs chunks `t`, `t + T`, … ([`Lowering::round_robin`]), with no
//! shared counter; two chunks of one thread never run at once.
use super::directive::Directive;
use super::lower::{clause_privates, Lowering};
use super::work::Canonical;
use crate::syntax::build::has_storage;
use crate::syntax::query::{any_expr, Operands};
use crate::syntax::walk::visit::{self, Visitor};
use crate::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashSet;

/// The runtime calls that say nothing about the thread or the team.
const NEUTRAL_RUNTIME: &[&str] = &[
    "omp_get_wtime",
    "omp_get_wtick",
    "omp_init_lock",
    "omp_set_lock",
    "omp_unset_lock",
    "omp_test_lock",
    "omp_destroy_lock",
    "omp_init_nest_lock",
    "omp_set_nest_lock",
    "omp_unset_nest_lock",
    "omp_destroy_nest_lock",
];

/// Directives that read or keep a thread's identity.
const IDENTITY_DIRECTIVES: &[&str] = &["master", "masked", "threadprivate", "copyin"];

/// Whether nothing in the unit tells one thread of a team from another (module header):
/// `calls` are the runtime functions the unit calls.
pub(super) fn identity_free(
    unit: &TranslationUnit,
    dirs: &[Directive],
    calls: &HashSet<String>,
) -> bool {
    struct ThreadLocal(bool);
    impl Visitor for ThreadLocal {
        type Error = std::convert::Infallible;
        fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Self::Error> {
            self.0 |= has_storage(&d.node, StorageClassSpecifier::ThreadLocal);
            Ok(Walk::Descend)
        }
    }
    let by_call = calls.iter().any(|n| !NEUTRAL_RUNTIME.contains(&n.as_str()));
    let by_directive = dirs.iter().any(|d| {
        d.words
            .iter()
            .any(|w| IDENTITY_DIRECTIVES.contains(&w.as_str()))
    });
    let mut v = ThreadLocal(by_call || by_directive);
    let Ok(()) = visit::unit(&mut v, unit);
    !v.0
}

/// Whether the program sizes the team of the `parallel` directive `d` itself
/// (`num_threads`, `if`).
fn sizes_team(d: &Directive) -> bool {
    d.clause("num_threads").is_some() || d.clause("if").is_some()
}

/// Whether the `parallel` directive `d` leaves its team's size and its default
/// data-sharing to OpenMP's defaults (no `num_threads`, no `if`, `default` shared or none).
fn plain_region(d: &Directive) -> bool {
    let default_ok = d
        .clause("default")
        .is_none_or(|c| matches!(c.args.as_deref().map(str::trim), Some("shared" | "none")));
    !sizes_team(d) && default_ok
}

/// `d`'s `schedule` clause: the words of its kind (`monotonic`, `static`, …) and the text
/// of its chunk size, if it has one.
pub(super) fn schedule(d: &Directive) -> Option<(Vec<&str>, Option<&str>)> {
    let args = d.clause("schedule")?.args.as_deref()?;
    let (kind, chunk) = match args.split_once(',') {
        Some((kind, chunk)) => (kind, Some(chunk.trim())),
        None => (args, None),
    };
    let words = kind
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    Some((words, chunk))
}

/// Whether `d`'s schedule is `static` with at most one iteration per chunk in a team of
/// at least as many threads as iterations: `static` or `static, 1`, no modifier.
fn one_iteration_chunks(d: &Directive) -> bool {
    matches!(schedule(d), Some((kind, None | Some("1"))) if kind == ["static"])
}

impl Lowering {
    /// Whether `d`'s loop runs OpenMP's round robin exactly: `schedule(static, c)` with a
    /// chunk size, in a team the program sizes (`num_threads`, `if`,
    /// `omp_set_num_threads`). Thread `t` of a team of `T` then runs chunks `t`, `t + T`,
    /// … in order, and no other thread runs them ([`super::work`]); two chunks of one
    /// thread never run at once (`sum[i % 4] += x[i]` under `num_threads(4)
    /// schedule(static, 1)`: each thread its own element).
    pub(super) fn round_robin(&self, d: &Directive) -> bool {
        let Some((kind, Some(_))) = schedule(d) else {
            return false;
        };
        if !matches!(kind.as_slice(), ["static"] | ["monotonic", "static"])
            || self.claims_epoch.is_some()
        {
            return false;
        }
        self.region_of(d)
            .is_some_and(|r| self.team_set_by_program || r.into_iter().any(sizes_team))
    }

    /// The `parallel` directives of the region whose team runs `d`'s loop: `d` itself for
    /// a combined `parallel for`, the enclosing region's for a `for` inside one; none for
    /// an orphaned `for` (its region is not known here).
    fn region_of<'d>(&'d self, d: &'d Directive) -> Option<Vec<&'d Directive>> {
        if d.words.first().is_some_and(|w| w == "parallel") {
            return Some(vec![d]);
        }
        let region = self.regions.last().filter(|_| self.parallel_depth > 0)?;
        Some(region.iter().collect())
    }

    /// Whether the claims of the `static` loop `l` of directive `d` may skip (module header).
    pub(super) fn static_may_skip(&self, d: &Directive, l: &Canonical) -> bool {
        if !self.identity_free || self.team_set_by_program || !one_iteration_chunks(d) {
            return false;
        }
        let Some(region) = self.region_of(d) else {
            return false;
        };
        if !region.into_iter().all(plain_region) {
            return false;
        }
        let mut private: HashSet<String> = clause_privates(d).into_iter().collect();
        if d.words.first().is_none_or(|w| w != "parallel") {
            // A `for` in a region: the region's own privates and locals count too.
            let Some(&(scopes, privatised)) = self.region_marks.last() else {
                return false;
            };
            private.extend(self.privatised[privatised..].iter().flatten().cloned());
            private.extend(self.scopes[scopes..].iter().flat_map(|s| s.keys().cloned()));
        }
        private.remove(&l.var);
        !any_expr(
            &l.body,
            Operands::All,
            |e| matches!(&e.node, Expression::Identifier(id) if private.contains(&id.node.name)),
        )
    }
}

#[cfg(test)]
mod tests {
    /// Whether the claims of the (single) worksharing loop in `src` keep their order.
    fn in_order(src: &str) -> bool {
        let lowered = crate::frontend::parse_part(src, "t.c", 2).expect("parses");
        let loops: Vec<bool> = lowered
            .omp_constructs
            .iter()
            .filter(|c| c.name.ends_with("for"))
            .map(|c| c.claims_in_order)
            .collect();
        assert_eq!(loops.len(), 1, "{src}");
        loops[0]
    }

    fn program(schedule: &str, extra: &str, body: &str) -> String {
        format!(
            "int a[200]; int t;\nint main(void) {{\n  int i, p = 0;\n{extra}\
             #pragma omp parallel for {schedule}\n  for (i = 0; i < 100; i++) {body}\n  return 0;\n}}\n"
        )
    }

    #[test]
    fn static_one_iteration_chunks_skip_in_an_unsized_team() {
        for s in [
            "schedule(static)",
            "schedule(static, 1)",
            "schedule( static ,1 )",
        ] {
            assert!(!in_order(&program(s, "", "a[i] = i;")), "{s}");
        }
        // In a region: its locals declared in the loop body are the iteration's own.
        let region = "int a[200];\nint main(void) {\n#pragma omp parallel\n  {\n#pragma omp for schedule(static,1)\n    for (int i = 0; i < 100; i++) { int j = i; a[j] = 1; }\n  }\n  return 0;\n}\n";
        assert!(!in_order(region));
    }

    #[test]
    fn other_static_loops_keep_their_claims_in_order() {
        let cases = [
            // chunks of several iterations, a modifier
            program("schedule(static, 2)", "", "a[i] = i;"),
            program("schedule(monotonic: static)", "", "a[i] = i;"),
            // the program sizes the team
            program("schedule(static) num_threads(4)", "", "a[i] = i;"),
            program("schedule(static) if(p)", "", "a[i] = i;"),
            program(
                "schedule(static)",
                "  omp_set_num_threads(4);\n",
                "a[i] = i;",
            ),
            // something tells the threads apart
            program("schedule(static)", "", "a[i] = omp_get_thread_num();"),
            program(
                "schedule(static)",
                "  t = omp_get_num_threads();\n",
                "a[i] = i;",
            ),
            // a private variable carries a value from one iteration to the next
            program("schedule(static) private(p)", "", "{ a[p] = i; p = i; }"),
            program(
                "schedule(static) firstprivate(p)",
                "",
                "{ a[i + p] = i; p++; }",
            ),
            program("schedule(static) reduction(+: p)", "", "p += a[i];"),
            program("schedule(static) default(firstprivate)", "", "a[i] = i;"),
        ];
        for src in cases {
            assert!(in_order(&src), "{src}");
        }
        let identity = [
            "int a[200];\nint main(void) {\n#pragma omp parallel\n  {\n#pragma omp for schedule(static)\n    for (int i = 0; i < 100; i++) a[i] = 1;\n#pragma omp master\n    a[0] = 2;\n  }\n  return 0;\n}\n",
            "int a[200];\n_Thread_local int t;\nint main(void) {\n#pragma omp parallel for schedule(static)\n  for (int i = 0; i < 100; i++) a[i] = t;\n  return 0;\n}\n",
            // a local of the region is private to each thread
            "int a[200];\nint main(void) {\n#pragma omp parallel\n  {\n    int last = 0;\n#pragma omp for schedule(static)\n    for (int i = 0; i < 100; i++) { a[i] = last; last = i; }\n  }\n  return 0;\n}\n",
            // so is a variable a `private` clause of the region names
            "int a[200];\nint main(void) {\n  int q = 0;\n#pragma omp parallel private(q)\n  {\n#pragma omp for schedule(static)\n    for (int i = 0; i < 100; i++) { a[i] = q; q = i; }\n  }\n  return 0;\n}\n",
            // the region's size is fixed
            "int a[200];\nint main(void) {\n#pragma omp parallel num_threads(3)\n  {\n#pragma omp for schedule(static)\n    for (int i = 0; i < 100; i++) a[i] = 1;\n  }\n  return 0;\n}\n",
        ];
        for src in identity {
            assert!(in_order(src), "{src}");
        }
    }
}
