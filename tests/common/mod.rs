//! Shared helpers of the pass tests (run passes, print, check the output with gcc), the
//! minimal threaded fixtures of the `visible`, `race` and `lazy` snapshots, and where the
//! SV-COMP corpus is.
#![allow(dead_code)]

use ladr_c::source_map::SourceMap;
use ladr_ir::program::{Item, Options, Program};
pub use ladr_seq::pipeline::PassId;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The SV-COMP corpus (`index.tsv`, `c/…`): `$LADR_SVCOMP` if set, else
/// `CARGO_MANIFEST_DIR/../shared/svcomp`. `None`, after a `skipped: …` line on stderr that
/// the test harness does not capture, when it has no `index.tsv` and `c/`: the corpus test
/// then returns.
pub fn svcomp_root() -> Option<PathBuf> {
    let root = match std::env::var_os("LADR_SVCOMP") {
        Some(r) => PathBuf::from(r),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/svcomp"),
    };
    if root.join("c").is_dir() && root.join("index.tsv").is_file() {
        Some(root)
    } else {
        // Straight to stderr, past the test harness's capture: a skipped corpus is loud.
        let _ = writeln!(
            std::io::stderr(),
            "skipped: SV-COMP corpus not found at {} (set LADR_SVCOMP)",
            root.display()
        );
        None
    }
}

/// parse → normalise → inline → unwind with bound `unwind`; the printed program (gcc-checked) or the error.
pub fn bound(src: &str, unwind: u32, max_unwind: u32) -> Result<(String, Program), String> {
    let (_, unit, _) = ladr_c::frontend::parse_text(src, "test.c").map_err(|e| e.to_string())?;
    let opts = Options {
        rounds: 2,
        unwind,
        max_unwind,
        ..Default::default()
    };
    let p = Program::new(unit);
    let p = ladr_seq::passes::normalise::run(p, &opts).map_err(|e| e.to_string())?;
    let p = ladr_seq::passes::inline::run(p, &opts).map_err(|e| e.to_string())?;
    let p = ladr_seq::passes::unwind::run(p, &opts).map_err(|e| e.to_string())?;
    ladr_seq::invariants::check_bounded(&p).map_err(|v| v.to_string())?;
    let text = ladr_c::print::print_unit(&p.unit).text;
    gcc_accepts(&text).map_err(|e| format!("gcc rejects:\n{e}\n{text}"))?;
    Ok((text, p))
}

/// Declarations that let a program in normal form compile and run with gcc.
const RUN_PRELUDE: &str = "#include <stdio.h>\n#include <stdlib.h>\n\
void __CPROVER_assume(int c) { if (!c) { printf(\"ASSUME-FAIL\\n\"); exit(0); } }\n\
void __CPROVER_havoc_object(void *p) { (void)p; }\n";

/// Compiles `src` (after [`RUN_PRELUDE`]) with gcc and runs it: its standard output.
pub fn run_c(src: &str, tag: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join(format!("{tag}.c"));
    let exe = dir.path().join(tag);
    std::fs::write(&c, format!("{RUN_PRELUDE}{src}")).unwrap();
    let st = std::process::Command::new("gcc")
        .args(["-w", "-x", "c", "-o"])
        .arg(&exe)
        .arg(&c)
        .status()
        .unwrap();
    assert!(st.success(), "gcc failed on {tag}:\n{src}");
    let out = std::process::Command::new(&exe).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// [`bound`], then `constprop`: the printed program, gcc-checked.
pub fn folded(src: &str, unwind: u32) -> Result<(String, Program), String> {
    let (_, p) = bound(src, unwind, 100)?;
    let opts = Options {
        rounds: 2,
        unwind,
        max_unwind: 100,
        ..Default::default()
    };
    let p = ladr_seq::passes::constprop::run(p, &opts).map_err(|e| e.to_string())?;
    ladr_seq::invariants::check_bounded(&p).map_err(|v| v.to_string())?;
    let text = ladr_c::print::print_unit(&p.unit).text;
    gcc_accepts(&text).map_err(|e| format!("gcc rejects:\n{e}\n{text}"))?;
    Ok((text, p))
}

pub fn gcc_accepts(text: &str) -> Result<(), String> {
    let mut child = Command::new("gcc")
        .args(["-fsyntax-only", "-w", "-x", "c", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(text.as_bytes())
        .map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Printed output plus the cuts, for snapshots.
pub fn show(r: Result<(String, Program), String>) -> String {
    match r {
        Ok((text, p)) => {
            let cuts: Vec<String> = p
                .cuts
                .iter()
                .map(|c| format!("{:?}@{}", c.kind, c.span.start))
                .collect();
            format!("{text}// cuts: {}\n", cuts.join(", "))
        }
        Err(e) => format!("ERROR: {e}"),
    }
}

/// [`bound`], then `threads`; the printed program (gcc-checked as a whole) without the
/// pthread model and without the declarations of `prelude` (the test's stand-in for
/// `<pthread.h>`), which are the same in every test.
pub fn threads(prelude: &str, src: &str, unwind: u32) -> Result<(String, Program), String> {
    let full = format!("{prelude}\n{src}");
    let (_, unit, _) = ladr_c::frontend::parse_text(&full, "test.c").map_err(|e| e.to_string())?;
    let opts = Options {
        rounds: 2,
        unwind,
        max_unwind: 100,
        ..Default::default()
    };
    let mut p = Program::new(unit);
    for pass in [
        ladr_seq::passes::normalise::run,
        ladr_seq::passes::inline::run,
        ladr_seq::passes::unwind::run,
        ladr_seq::passes::threads::run,
    ] {
        p = pass(p, &opts).map_err(|e| e.to_string())?;
    }
    Ok((printed_without_model(prelude, &p)?, p))
}

/// Printed output plus the slots (routine, parent) and the thread locals, for snapshots.
pub fn show_threads(r: Result<(String, Program), String>) -> String {
    match r {
        Ok((text, p)) => {
            let slots: Vec<String> = p
                .slots
                .iter()
                .map(|s| match s.parent {
                    Some(parent) => format!("{}={} (by {parent})", s.index, s.routine),
                    None => format!("{}={}", s.index, s.routine),
                })
                .collect();
            let mut locals: Vec<&String> = p.thread_locals.iter().collect();
            locals.sort();
            let locals: Vec<&str> = locals.iter().map(|s| s.as_str()).collect();
            let cuts: Vec<String> = p
                .cuts
                .iter()
                .map(|c| format!("{:?}@{}", c.kind, c.span.start))
                .collect();
            format!(
                "{text}// slots: {}\n// thread locals: {}\n// cuts: {}\n",
                slots.join(", "),
                locals.join(", "),
                cuts.join(", ")
            )
        }
        Err(e) => format!("ERROR: {e}"),
    }
}

/// A stand-in for `<pthread.h>`: the pthread types and functions the fixtures use.
pub const PTHREAD_PRELUDE: &str = r#"
typedef unsigned long pthread_t;
typedef union { int __lock; long __align[5]; } pthread_mutex_t;
typedef union { int __lock; long __align[6]; } pthread_cond_t;
typedef unsigned int pthread_key_t;
int pthread_create(pthread_t *t, const void *attr, void *(*f)(void *), void *arg);
int pthread_join(pthread_t t, void **ret);
void pthread_exit(void *ret);
pthread_t pthread_self(void);
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int pthread_cond_signal(pthread_cond_t *c);
int pthread_key_create(pthread_key_t *k, void (*destructor)(void *));
int pthread_key_delete(pthread_key_t k);
int pthread_setspecific(pthread_key_t k, const void *v);
void *pthread_getspecific(pthread_key_t k);
int pthread_cancel(pthread_t t);
void *malloc(unsigned long n);
"#;

/// Minimal threaded programs (after [`PTHREAD_PRELUDE`]) shared by the snapshot tests of
/// `visible`, `race` and `lazy`.
pub mod fixtures {
    /// `main` and one thread write `g` without synchronisation.
    pub const TWO_WRITERS: &str = r#"
int g;
void *w(void *a) { g = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  g = 2;
  pthread_join(t, 0);
  return 0;
}
"#;

    /// Both accesses of `g` under one mutex.
    pub const MUTEX: &str = r#"
int g;
pthread_mutex_t m;
void *w(void *a) { pthread_mutex_lock(&m); g = g + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_mutex_lock(&m);
  g = 2;
  pthread_mutex_unlock(&m);
  return 0;
}
"#;

    /// An `if` on a shared flag with a shared write in each branch.
    pub const SHARED_IF: &str = r#"
int flag;
int x;
void *w(void *a) { flag = 1; return 0; }
int main(void) {
  pthread_t t;
  int y;
  pthread_create(&t, 0, w, 0);
  y = 0;
  if (flag) { x = 1; } else { y = 2; }
  return y;
}
"#;

    /// The same increment in an atomic section (`__VERIFIER_atomic_*`) in both threads.
    pub const ATOMIC_SECTION: &str = r#"
int g;
void __VERIFIER_atomic_inc(void) { g = g + 1; }
void *w(void *a) { __VERIFIER_atomic_inc(); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  __VERIFIER_atomic_inc();
  return 0;
}
"#;
}

/// Parses `prelude` (as `pthread.h`) and `src` (as `test.c`, so locations are lines of
/// `src`) and runs the pipeline's passes up to and including `last`
/// (`ladr_seq::pipeline::PASSES`), with 2 rounds and unwinding `unwind`.
pub fn passes(
    prelude: &str,
    src: &str,
    unwind: u32,
    last: PassId,
) -> Result<(Program, SourceMap), String> {
    let opts = Options {
        rounds: 2,
        unwind,
        max_unwind: 100,
        ..Default::default()
    };
    passes_with(prelude, src, &opts, last)
}

/// [`passes`] without the race-free pre-analysis (`Options::racefree` off): every shared
/// access instrumented, as the `race` and `lazy` snapshots show them.
pub fn passes_instrumenting_all(
    prelude: &str,
    src: &str,
    unwind: u32,
    last: PassId,
) -> Result<(Program, SourceMap), String> {
    let opts = Options {
        rounds: 2,
        unwind,
        max_unwind: 100,
        racefree: false,
        ..Default::default()
    };
    passes_with(prelude, src, &opts, last)
}

/// [`passes`] with the given options.
pub fn passes_with(
    prelude: &str,
    src: &str,
    opts: &Options,
    last: PassId,
) -> Result<(Program, SourceMap), String> {
    let full = format!("# 1 \"pthread.h\"\n{prelude}\n# 1 \"test.c\"\n{src}");
    let (_, unit, map) =
        ladr_c::frontend::parse_text(&full, "test.c").map_err(|e| e.to_string())?;
    let mut p = Program::new(unit);
    for pass in ladr_seq::pipeline::PASSES {
        p = (pass.run)(p, opts).map_err(|e| e.to_string())?;
        if pass.id == last {
            break;
        }
    }
    Ok((p, map))
}

/// Each slot's items (`Program::code`), one per line: a visible statement after its label
/// number (`A` marks an atomic one), a plain statement or declaration after a blank gutter,
/// a goto target with its colon. Statements over several lines keep the gutter.
pub fn show_code(p: &Program) -> String {
    let mut out = String::new();
    for (k, c) in p.code.iter().enumerate() {
        let routine = p.slots.get(k).map_or("?", |s| s.routine.as_str());
        out.push_str(&format!(
            "// slot {k} ({routine}): {} visible statements\n",
            c.size
        ));
        for it in &c.items {
            let (gutter, text) = match it {
                Item::Visible {
                    label,
                    stmt,
                    atomic,
                } => (
                    format!("{label:>3}{} | ", if *atomic { "A" } else { " " }),
                    ladr_c::print::statement_to_string(&stmt.node),
                ),
                Item::Plain(stmt) => (
                    "     | ".to_string(),
                    ladr_c::print::statement_to_string(&stmt.node),
                ),
                Item::Decl(d) => (
                    "     | ".to_string(),
                    ladr_c::print::declaration_to_string(&d.node),
                ),
                Item::Label(name, _) => {
                    out.push_str(&format!("{name}:\n"));
                    continue;
                }
            };
            for (i, line) in text.lines().enumerate() {
                if i == 0 {
                    out.push_str(&gutter);
                } else {
                    out.push_str("     | ");
                }
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// The instrumented accesses (`Program::sites`, from id 1): slot, label, kind, lvalue and
/// its place in the source.
pub fn show_sites(p: &Program, map: &SourceMap) -> String {
    let mut out = String::from("// sites: id slot label access lvalue at\n");
    for (i, s) in p.sites.iter().enumerate() {
        assert_eq!(s.id as usize, i, "Program::sites is indexed by site id");
        if i == 0 {
            continue;
        }
        let loc = map.lookup(s.span.start);
        out.push_str(&format!(
            "// {:>2} {:>4} {:>5} {}{} `{}` {}:{}:{}\n",
            s.id,
            s.slot,
            s.label,
            if s.write { "write" } else { "read" },
            if s.atomic { " (atomic)" } else { "" },
            s.expr,
            loc.file,
            loc.line,
            loc.column
        ));
    }
    out
}

/// The printed unit of `p` (gcc-checked as a whole), without the declarations of `prelude`
/// and of the pthread model, which are the same in every test: a file-scope declaration or
/// function printed exactly as one of theirs is left out.
/// `text` with every `__ladr_<digits>_` prefix removed.
fn without_fresh_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("__ladr_") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "__ladr_".len()..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 && after[digits..].starts_with('_') {
            rest = &after[digits + 1..];
        } else {
            out.push_str("__ladr_");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

pub fn printed_without_model(prelude: &str, p: &Program) -> Result<String, String> {
    let text = ladr_c::print::print_unit(&p.unit).text;
    gcc_accepts(&text).map_err(|e| format!("gcc rejects:\n{e}\n{text}"))?;
    let (_, pre, _) =
        ladr_c::frontend::parse_text(prelude, "prelude.h").map_err(|e| e.to_string())?;
    // Compared without the fresh numbers `hygiene::rename_apart` gives prototype
    // parameters (`__ladr_7_t` is `t`).
    let one = |ext: &lang_c::span::Node<lang_c::ast::ExternalDeclaration>| {
        without_fresh_numbers(
            &ladr_c::print::print_unit(&lang_c::ast::TranslationUnit(vec![ext.clone()])).text,
        )
    };
    let noise: std::collections::HashSet<String> = pre
        .0
        .iter()
        .chain(ladr_seq::passes::threads::model_unit().0.iter())
        .chain(ladr_seq::passes::threads::string_model_unit().0.iter())
        .map(one)
        .collect();
    let mut shown = p.unit.clone();
    shown.0.retain(|ext| !noise.contains(&one(ext)));
    Ok(ladr_c::print::print_unit(&shown).text)
}

/// One snapshot test of `$check` per fixture of [`fixtures`] (the snapshot is named after
/// the test, as `insta` does).
#[macro_export]
macro_rules! fixture_snapshots {
    ($check:ident) => {
        #[test]
        fn two_threads_write_a_global() {
            insta::assert_snapshot!($check(common::fixtures::TWO_WRITERS));
        }

        #[test]
        fn mutex_protected_access() {
            insta::assert_snapshot!($check(common::fixtures::MUTEX));
        }

        #[test]
        fn if_with_a_shared_condition() {
            insta::assert_snapshot!($check(common::fixtures::SHARED_IF));
        }

        #[test]
        fn atomic_section() {
            insta::assert_snapshot!($check(common::fixtures::ATOMIC_SECTION));
        }
    };
}
