//! The C target: the front end and the sequentialization (parse → passes → print, with
//! `--check-ir`) on generated programs and on mutations of the e2e programs.

use super::mutate::mutate;
use super::{drive, keep, DEFAULT_CASES, MAX_C};
use ladr_c::diag::{Error, ErrorKind};
use ladr_c::source_map::SourceMap;
use ladr_ir::program::Options;
use ladr_seq::pipeline::{translate, Stage};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A stand-in for the headers: what the generated programs use.
const PRELUDE: &str = r#"typedef unsigned long size_t;
typedef unsigned long pthread_t;
typedef union { int __lock; long __align[5]; } pthread_mutex_t;
typedef union { int __lock; long __align[6]; } pthread_cond_t;
typedef unsigned int pthread_key_t;
int pthread_create(pthread_t *t, const void *attr, void *(*f)(void *), void *arg);
int pthread_join(pthread_t t, void **ret);
void pthread_exit(void *ret);
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int pthread_cond_signal(pthread_cond_t *c);
int pthread_key_create(pthread_key_t *k, void (*destructor)(void *));
int pthread_setspecific(pthread_key_t k, const void *v);
void *pthread_getspecific(pthread_key_t k);
void *malloc(size_t n);
void free(void *p);
void *memset(void *p, int c, size_t n);
size_t strlen(const char *s);
int __VERIFIER_nondet_int(void);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
void assert(int c);
"#;

/// Words the C mutations insert.
const C_DICT: &[&str] = &[
    "g",
    "a",
    "s",
    "m",
    "p",
    "t",
    "x",
    "i",
    "n",
    "main",
    "w",
    "r",
    "0",
    "1",
    "2",
    "-1",
    "127",
    "4294967295",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "*",
    "&",
    "=",
    "+",
    "++",
    "--",
    "-",
    "!",
    "~",
    "?",
    ":",
    "==",
    "<",
    ">",
    "<<",
    "->",
    ".",
    "...",
    "#",
    "\"",
    "'",
    "\n",
    " ",
    "int",
    "void",
    "char",
    "long",
    "unsigned",
    "struct",
    "union",
    "enum",
    "typedef",
    "static",
    "extern",
    "volatile",
    "const",
    "_Atomic",
    "_Thread_local",
    "__thread",
    "register",
    "inline",
    "if",
    "else",
    "while",
    "for",
    "do",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "goto",
    "return",
    "sizeof",
    "_Alignof",
    "__typeof__",
    "__auto_type",
    "__attribute__((unused))",
    "asm(\"\")",
    "L:",
    "goto L;",
    "__label__",
    "_Generic",
    "__builtin_expect",
    "__extension__",
    "restrict",
    "pthread_create(&t, 0, w, 0);",
    "pthread_join(t, 0);",
    "pthread_mutex_lock(&m);",
    "pthread_mutex_unlock(&m);",
    "pthread_exit(0);",
    "malloc(8)",
    "free(p);",
    "__VERIFIER_atomic_begin();",
    "__VERIFIER_atomic_end();",
    "__VERIFIER_nondet_int()",
    "__atomic_fetch_add(&g, 1, 5)",
    "__sync_fetch_and_add(&g, 1)",
    "w(0)",
    "main()",
    "int a[2];",
    "int g;",
    "struct s { int f; } ;",
    "(void *)",
    "(int)",
    "0x7fffffff",
    "1e309",
    "'\\0'",
    "\"\\x\"",
    "# 1 \"case.c\"\n",
    "\n# 0 \"case.c\"\n",
    "\n# 4294967295 \"case.c\"\n",
    "\n# 99999999999 \"other.h\" 1\n",
];

/// Generated statements: `{e}` is an expression, `{l}` an lvalue, `{s}` a statement.
const STMTS: &[&str] = &[
    "{l} = {e};",
    "{l}++;",
    "{l} += {e};",
    "if ({e}) {s} else {s}",
    "while ({e}) {s}",
    "for (int i = 0; i < {n}; i++) {s}",
    "for (i = 0; i < {n}; i++) { {s} {s} }",
    "do {s} while ({e});",
    "switch ({e}) { case 0: {s} break; case 1: {s} default: {s} }",
    "{ int x = {e}; {s} }",
    "pthread_mutex_lock(&m); {s} pthread_mutex_unlock(&m);",
    "pthread_create(&t, 0, w, {pe}); {s} pthread_join(t, 0);",
    "pthread_create(&ts[{n}], 0, r, 0);",
    "__VERIFIER_atomic_begin(); {s} __VERIFIER_atomic_end();",
    "p = malloc({n}); *p = {e}; free(p);",
    "f({e});",
    "fp = {fn}; fp({pe});",
    "goto L{n}; {s} L{n}: ;",
    "return {pe};",
    "__atomic_fetch_add(&{l}, {e}, 5);",
    "assert({l} == {e});",
    ";",
];
const EXPRS: &[&str] = &[
    "{l}",
    "{n}",
    "({e} + {e})",
    "({e} * {e})",
    "-{e}",
    "({e} ? {e} : {e})",
    "({e} < {e})",
    "({e} && {e})",
    "f({e})",
    "sizeof({l})",
    "__VERIFIER_nondet_int()",
    "({l} = {e})",
    "*p",
    "a[{e} & 1]",
    "(int)(long)&{l}",
];
const LVALUES: &[&str] = &[
    "g", "x", "a[0]", "a[i % 2]", "s.f", "sp->f", "*p", "i", "ts[0]",
];
// Not `w` or `r`: recursion through pointers between functions with loops grows the
// program exponentially with U (a bounded input, unbounded memory: see docs/security.md).
const FNS: &[&str] = &["h", "0", "&h"];

fn expand(rng: &mut fastrand::Rng, template: &str, depth: u32) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        let hole = &rest[open + 1..close];
        out.push_str(&rest[..open]);
        let deep = depth >= 3;
        match hole {
            "s" => {
                let t = if deep {
                    "{l} = {e};"
                } else {
                    STMTS[rng.usize(..STMTS.len())]
                };
                out.push_str(&expand(rng, t, depth + 1));
            }
            "e" => {
                let t = if deep {
                    "{n}"
                } else {
                    EXPRS[rng.usize(..EXPRS.len())]
                };
                out.push_str(&expand(rng, t, depth + 1));
            }
            "l" => out.push_str(LVALUES[rng.usize(..LVALUES.len())]),
            "n" => out.push_str(&rng.u32(0..6).to_string()),
            "pe" => out.push_str(["0", "p", "&g", "(void *)1"][rng.usize(..4)]),
            "fn" => out.push_str(FNS[rng.usize(..FNS.len())]),
            // Not a hole (a brace of the C text).
            _ => {
                out.push('{');
                rest = &rest[open + 1..];
                continue;
            }
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A program of the generator: globals, a helper, two thread functions and `main`.
fn generated(rng: &mut fastrand::Rng) -> String {
    let mut out = String::from(
        "int g; int a[2]; struct s { int f; } s, *sp = &s; int *p; pthread_mutex_t m;\n\
         pthread_t t, ts[4]; int i; void *(*fp)(void *);\n\
         int f(int v) { if (v > 3) return f(v - 1); return v + g; }\n\
         void *h(void *a) { g++; return a; }\n",
    );
    for name in ["w", "r"] {
        out.push_str(&format!("void *{name}(void *arg) {{ int x = 0;\n"));
        for _ in 0..rng.usize(1..5) {
            out.push_str(&expand(rng, "{s}", 0));
            out.push('\n');
        }
        out.push_str("return 0; }\n");
    }
    out.push_str("int main(void) { int x = 0;\n");
    out.push_str("pthread_create(&t, 0, w, 0);\n");
    for _ in 0..rng.usize(1..5) {
        out.push_str(&expand(rng, "{s}", 0));
        out.push('\n');
    }
    out.push_str("return 0; }\n");
    out
}

/// The e2e programs preprocessed by gcc once each: (header part, user part).
fn e2e_program(cache: &mut HashMap<PathBuf, (String, String)>, path: &Path) -> (String, String) {
    if let Some(p) = cache.get(path) {
        return p.clone();
    }
    let out = Command::new("gcc")
        .args(["-E", "-x", "c"])
        .arg(path)
        .output()
        .expect("gcc runs");
    assert!(out.status.success(), "gcc -E {}", path.display());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    // The user's part: after the last line marker that returns to the file.
    let name = format!("\"{}\"", path.display());
    let split = text
        .match_indices("\n# ")
        .filter(|(i, _)| {
            text[i + 1..]
                .lines()
                .next()
                .is_some_and(|l| l.contains(&name))
        })
        .map(|(i, _)| i + 1)
        .last()
        .unwrap_or(0);
    let p = (text[..split].to_string(), text[split..].to_string());
    cache.insert(path.to_path_buf(), p.clone());
    p
}

fn e2e_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    v.sort();
    v
}

/// Errors about the whole program rather than a place in it (no span).
const WHOLE_PROGRAM: &[&str] = &["has no `main` function"];

/// Parses and translates `text` as ladr does (with `--check-ir`), and renders any error.
/// `Ok(None)`: translated; `Ok(Some(e))`: rejected with a located error (or an internal
/// one); `Err`: a rejection without a location.
fn c_case(text: &str, opts: &Options) -> Result<Option<Error>, String> {
    let located = |e: Error, map: Option<&SourceMap>| -> Result<Option<Error>, String> {
        let map = e.source.as_deref().or(map);
        let mut out = codespan_reporting::term::termcolor::NoColor::new(vec![]);
        ladr_c::diag::render(&mut out, &e, map);
        match map.and_then(|m| e.loc(m)) {
            // Line 0 and the file "" are located too: the input's own line markers
            // (`# 0 "f.c"`, `# 2 ""`) say so.
            Some(l) if l.column > 0 => Ok(Some(e)),
            _ if e.kind == ErrorKind::Internal => Ok(Some(e)),
            // About the whole program, which the command line names.
            _ if e.span.is_none() && WHOLE_PROGRAM.iter().any(|w| e.message.contains(w)) => {
                Ok(Some(e))
            }
            _ => Err(format!(
                "an error without a location: {:?}: {}",
                e.kind, e.message
            )),
        }
    };
    let (_, unit, map) = match ladr_c::frontend::parse_text(text, "case.c") {
        Ok(p) => p,
        Err(e) => return located(e, None),
    };
    match translate(unit, opts, Stage::Seq, |_, _| {}) {
        Ok(p) => {
            ladr_c::print::print_unit(&p.unit);
            // Swarm instances of the program, as `ladr swarm emit` makes them.
            let n = ladr_seq::swarm::instances(&p, opts.rounds, 3);
            for i in 0..n {
                if let Err(e) = ladr_seq::swarm::restrict(p.clone(), opts.rounds, n, i) {
                    return located(e, Some(&map));
                }
            }
            Ok(None)
        }
        Err(e) => located(e, Some(&map)),
    }
}

fn c_options(rng: &mut fastrand::Rng) -> Options {
    Options {
        rounds: rng.u32(1..=3),
        unwind: rng.u32(0..=3),
        max_unwind: [0, 2, 4][rng.usize(..3)],
        check_ir: true,
        malloc_may_fail: rng.bool(),
        racefree: rng.u8(..4) != 0,
        proof_facts: rng.bool(),
        proved: None,
        ..Options::default()
    }
}

/// Runs `f` on a thread with the check's stack, as `ladr` runs a check.
fn on_check_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        let h = std::thread::Builder::new()
            .stack_size(ladr_c::trees::STACK)
            .spawn_scoped(s, f)
            .expect("a thread");
        match h.join() {
            Ok(v) => v,
            Err(p) => std::panic::resume_unwind(p),
        }
    })
}

fn c_target(name: &str, default_cases: u64, from_e2e: bool) {
    let files = e2e_files();
    let mut cache = HashMap::new();
    drive(name, default_cases, |rng, f| {
        let opts = c_options(rng);
        let text = if from_e2e {
            let path = &files[rng.usize(..files.len())];
            let (head, body) = e2e_program(&mut cache, path);
            if rng.u8(..5) == 0 {
                format!("{head}{body}")
            } else {
                format!("{head}{}", mutate(rng, &body, C_DICT, MAX_C))
            }
        } else {
            let program = generated(rng);
            let body = if rng.u8(..4) == 0 {
                program
            } else {
                mutate(rng, &program, C_DICT, MAX_C)
            };
            format!("{PRELUDE}# 1 \"case.c\"\n{body}")
        };
        if std::env::var_os("LADR_FUZZ_TRACE").is_some() {
            eprintln!("  input: {} {opts:?}", keep(name, &text));
        }
        let r = on_check_stack(|| catch_unwind(AssertUnwindSafe(|| c_case(&text, &opts))));
        let r = match r {
            Ok(r) => r,
            Err(p) => {
                let at = keep(name, &text);
                std::panic::resume_unwind(Box::new(format!(
                    "{} (input: {at}, {opts:?})",
                    p.downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default()
                )))
            }
        };
        match r {
            Ok(None) => Ok(()),
            Ok(Some(e)) => {
                f.rejected += 1;
                if std::env::var_os("LADR_FUZZ_TRACE").is_some() {
                    eprintln!("  rejected: {} ({})", e.message, keep(name, &text));
                }
                if e.kind == ErrorKind::Internal {
                    f.internal
                        .push(format!("{} (input: {})", e.message, keep(name, &text)));
                }
                Ok(())
            }
            Err(m) => Err(format!("{m} (input: {})", keep(name, &text))),
        }
    });
}

#[test]
fn c_generated_programs() {
    c_target("c-generated", DEFAULT_CASES, false);
}

#[test]
fn c_mutated_e2e_programs() {
    c_target("c-e2e", DEFAULT_CASES / 3, true);
}
