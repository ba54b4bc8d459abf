//! Fuzz / property tests of everything ladr reads from a repository it does not trust
//! (issue 28, item 17): the C front end and the sequentialization (parse → passes → print,
//! not CBMC), `ladr.toml`, compile databases, baselines and swarm manifests.
//!
//! Every target generates inputs from a deterministic seed — small grammar pieces and
//! mutations of real inputs (the e2e programs of `tests/e2e`, the README's config, ladr's
//! own JSON and SARIF) — with a bound on each input's size, and asserts for every input:
//!
//! * no panic (each case runs under `catch_unwind`) and no abort (the test process would
//!   die: the C target runs on a thread with the check's stack, `ladr_check::STACK`, as
//!   `ladr` does);
//! * no unbounded memory: inputs are bounded (`MAX_C`, `MAX_TEXT`) and, on Linux, the
//!   process's peak resident memory (`VmHWM`, reset before each case) stays under
//!   `MEMORY_LIMIT` — a coarse check, since the targets run side by side;
//! * a located error for every rejected input where the format has locations: a C error
//!   maps to a file, line and column of the input; a `ladr.toml` error names
//!   `ladr.toml:LINE:COL`; a JSON error (compile database, baseline, manifest) names the
//!   file, and a syntax error also its line and column.
//!
//! An `Internal` error (a pass broke an invariant, `--check-ir` is on) is an error
//! document, not a crash: it is counted and printed, not failed.
//!
//! Budget: `LADR_FUZZ_CASES` inputs per target (default [`DEFAULT_CASES`] for the C and
//! manifest targets, four times that for the others: about 8 s in all in a release build
//! on 2 cores), seed `LADR_FUZZ_SEED` (default fixed). A long
//! run: `LADR_FUZZ_CASES=100000 cargo test --release --test fuzz -- --nocapture`. Each
//! failure names its target, seed and case number; `LADR_FUZZ_ONLY=N` reruns case N alone,
//! and the failing inputs are written under `target/tmp/fuzz-failures/`; `LADR_FUZZ_TRACE=1`
//! prints each case's number and each rejection's message and keeps each C input. The
//! README (Security → Fuzzing) lists what the long runs tried and found.

use ladr_c::diag::{Error, ErrorKind};
use ladr_c::frontend::source_map::SourceMap;
use ladr_ir::program::Options;
use ladr_seq::pipeline::{translate, Stage};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Inputs per target when `LADR_FUZZ_CASES` is not set.
const DEFAULT_CASES: u64 = 150;
/// The seed when `LADR_FUZZ_SEED` is not set.
const DEFAULT_SEED: u64 = 0x1add_2817;
/// Largest C program tried (bytes of the user's part).
const MAX_C: usize = 6 << 10;
/// Largest config, compile database, baseline or manifest tried.
const MAX_TEXT: usize = 16 << 10;
/// Peak resident memory above which a case is a failure (bytes).
const MEMORY_LIMIT: u64 = 3 << 30;

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// What a run of one target found.
#[derive(Default)]
struct Findings {
    tried: u64,
    rejected: u64,
    internal: Vec<String>,
    failures: Vec<String>,
}

/// Runs `case` on `cases` inputs of `target`; each gets its own generator, so case `i` is
/// reproducible alone (`LADR_FUZZ_ONLY=i`).
fn drive(
    target: &str,
    default_cases: u64,
    mut case: impl FnMut(&mut fastrand::Rng, &mut Findings) -> Result<(), String>,
) {
    let cases = env_u64("LADR_FUZZ_CASES").unwrap_or(default_cases);
    let seed = env_u64("LADR_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let only = env_u64("LADR_FUZZ_ONLY");
    let trace = std::env::var_os("LADR_FUZZ_TRACE").is_some();
    let salt = target.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let mut f = Findings::default();
    for i in 0..cases {
        if only.is_some_and(|o| o != i) {
            continue;
        }
        let mut rng = fastrand::Rng::with_seed(seed ^ salt ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        if trace {
            eprintln!("fuzz {target}: case {i}");
        }
        reset_peak_memory();
        let r = catch_unwind(AssertUnwindSafe(|| case(&mut rng, &mut f)));
        f.tried += 1;
        let failure = match r {
            Ok(Ok(())) => None,
            Ok(Err(m)) => Some(m),
            Err(p) => Some(format!(
                "panic: {}",
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default()
            )),
        };
        let failure = failure.or_else(|| {
            peak_memory()
                .filter(|&m| m > MEMORY_LIMIT)
                .map(|m| format!("peak memory {} MiB", m >> 20))
        });
        if let Some(m) = failure {
            f.failures
                .push(format!("{target} case {i} (seed {seed:#x}): {m}"));
        }
    }
    eprintln!(
        "fuzz {target}: {} inputs tried, {} rejected with an error, {} internal errors, {} failures",
        f.tried,
        f.rejected,
        f.internal.len(),
        f.failures.len()
    );
    for m in &f.internal {
        eprintln!("  internal: {m}");
    }
    assert!(
        f.failures.is_empty(),
        "{} failures:\n{}",
        f.failures.len(),
        f.failures.join("\n")
    );
}

/// Keeps a failing input for a look (`target/tmp/fuzz-failures/…`).
fn keep(target: &str, text: &str) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let n = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let path = dir.join(format!("{target}-{n:016x}.txt"));
    let _ = std::fs::write(&path, text);
    path.display().to_string()
}

fn reset_peak_memory() {
    // Linux: writing 5 resets the peak resident set size (`VmHWM`).
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn peak_memory() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb << 10)
}

// ---------------------------------------------------------------------------------------
// Mutation

/// Tokens of C, TOML and JSON text: runs of identifier characters, runs of spaces, single
/// other characters.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = vec![];
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let class = |c: char| {
            if c.is_alphanumeric() || c == '_' {
                0
            } else if c == ' ' || c == '\t' {
                1
            } else {
                2
            }
        };
        let k = class(c);
        let end = if k == 2 {
            i + c.len_utf8()
        } else {
            let mut e = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if class(d) != k {
                    break;
                }
                e = j + d.len_utf8();
                chars.next();
            }
            e
        };
        out.push(&text[i..end]);
    }
    out
}

/// `text` changed by 1–8 token edits (delete, duplicate, swap, replace or insert a word
/// of `dict`, repeat a line, cut the end, nest), at most `max` bytes.
fn mutate(rng: &mut fastrand::Rng, text: &str, dict: &[&str], max: usize) -> String {
    let mut toks: Vec<String> = tokens(text).into_iter().map(String::from).collect();
    // Mostly one edit, which keeps most of the input meaningful to the later passes.
    let edits = if rng.u8(..4) == 0 {
        rng.usize(2..=8)
    } else {
        1
    };
    for _ in 0..edits {
        if toks.is_empty() {
            toks.push(dict[rng.usize(..dict.len())].to_string());
            continue;
        }
        let i = rng.usize(..toks.len());
        let word = |t: &str| {
            t.chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        };
        match rng.u8(..14) {
            0 => {
                toks.remove(i);
            }
            1 => {
                let t = toks[i].clone();
                toks.insert(i, t);
            }
            2 => {
                let j = rng.usize(..toks.len());
                toks.swap(i, j);
            }
            3 | 4 => toks[i] = dict[rng.usize(..dict.len())].to_string(),
            5 => toks.insert(i, dict[rng.usize(..dict.len())].to_string()),
            6 | 7 => {
                // A word for another word of the input, a number for another number.
                if word(&toks[i]) {
                    let words: Vec<usize> = (0..toks.len()).filter(|&j| word(&toks[j])).collect();
                    let j = words[rng.usize(..words.len())];
                    toks[i] = if toks[i].starts_with(|c: char| c.is_ascii_digit()) {
                        ["0", "1", "2", "3", "7", "64", "1000", "-1"][rng.usize(..8)].to_string()
                    } else {
                        toks[j].clone()
                    };
                }
            }
            8 | 9 => {
                // Repeat a stretch of tokens (a statement, a line) elsewhere.
                let n = rng.usize(1..=40).min(toks.len() - i);
                let stretch: Vec<String> = toks[i..i + n].to_vec();
                let at = rng.usize(..=toks.len());
                toks.splice(at..at, stretch);
            }
            10 => {
                // Delete a stretch.
                let n = rng.usize(1..=20).min(toks.len() - i);
                toks.drain(i..i + n);
            }
            11 => {
                if rng.u8(..4) == 0 {
                    toks.truncate(i.max(1));
                }
            }
            _ => {
                // Nesting: parentheses or braces around a token, up to 64 deep.
                let d = rng.usize(1..=64);
                let (o, c) = if rng.bool() { ("(", ")") } else { ("{", "}") };
                let t = format!("{}{}{}", o.repeat(d), toks[i], c.repeat(d));
                toks[i] = t;
            }
        }
    }
    let mut out: String = toks.concat();
    if out.len() > max {
        let mut cut = max;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
    }
    out
}

// ---------------------------------------------------------------------------------------
// C: front end and sequentialization

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
// program exponentially with U (a bounded input, unbounded memory: see the README).
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
        ..Options::default()
    }
}

/// Runs `f` on a thread with the check's stack, as `ladr` runs a check.
fn on_check_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        let h = std::thread::Builder::new()
            .stack_size(ladr_check::STACK)
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

// ---------------------------------------------------------------------------------------
// ladr.toml

const CONFIG_SEED: &str = r#"# the gate
rounds = 2
unwind = 2
timeout = 300
deepen = true
data-model = "lp64"
flags = ["-Iinclude", "-DNDEBUG"]
compile-commands = "build/compile_commands.json"

[[harness]]
name = "example"
files = ["main.c", "src/*.c"]
max-races = 2

[[harness]]
name = "second"
files = ["src/a.c"]
rounds = 3
flags = ["-DX=1"]

[[allow]]
variable = "stats.hits"
reason = "statistics, read without the lock on purpose"

[[allow]]
fingerprint = "0123456789abcdef"
reason = "known"
"#;

const TOML_DICT: &[&str] = &[
    "[[harness]]",
    "[[allow]]",
    "[harness]",
    "[",
    "]",
    "[[",
    "]]",
    "{",
    "}",
    "=",
    ",",
    ".",
    "\"",
    "'",
    "'''",
    "\"\"\"",
    "#",
    "\n",
    " ",
    "\\",
    "\\u0000",
    "\\uD800",
    "é",
    "\u{1b}",
    "name",
    "files",
    "flags",
    "rounds",
    "unwind",
    "timeout",
    "deepen",
    "data-model",
    "max-races",
    "compile-commands",
    "variable",
    "function",
    "fingerprint",
    "reason",
    "\"main.c\"",
    "\"src/*.c\"",
    "\"src/[\"",
    "\"src/{a,b}.c\"",
    "\"*\"",
    "\"\"",
    "\"a b\"",
    "\"ilp32\"",
    "\"lp64\"",
    "true",
    "false",
    "0",
    "1",
    "-1",
    "100",
    "101",
    "1001",
    "4294967296",
    "18446744073709551616",
    "1e400",
    "nan",
    "inf",
    "-inf",
    "0.5",
    "1979-05-27T07:32:00Z",
    "[]",
    "{}",
    "[1, 2]",
    "{ a = 1 }",
];

#[test]
fn ladr_toml() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::create_dir_all(dir.path().join("build")).unwrap();
    for f in [
        "main.c",
        "src/a.c",
        "src/b.c",
        "build/compile_commands.json",
    ] {
        std::fs::write(dir.path().join(f), "").unwrap();
    }
    let path = dir.path().join("ladr.toml");
    drive("ladr-toml", DEFAULT_CASES * 4, |rng, f| {
        let text = mutate(rng, CONFIG_SEED, TOML_DICT, MAX_TEXT);
        // Globs outside the directory (`/**`, `../`) walk the file system: refusing them
        // is issue 28 item 7's, and its tests'.
        if text.contains("..") || text.contains("\"/") || text.contains("'/") {
            return Ok(());
        }
        match ladr_project::config::Config::parse(&text, &path) {
            Ok(_) => Ok(()),
            Err(e) => {
                f.rejected += 1;
                let prefix = format!("{}:", path.display());
                let located = e.message.strip_prefix(&prefix).is_some_and(|rest| {
                    let mut it = rest.splitn(3, ':');
                    let line = it.next().and_then(|l| l.parse::<u32>().ok());
                    let col = it.next().and_then(|c| c.parse::<u32>().ok());
                    line.is_some_and(|l| l > 0) && col.is_some_and(|c| c > 0)
                });
                if located {
                    Ok(())
                } else {
                    Err(format!(
                        "not located at ladr.toml:LINE:COL: {} (input: {})",
                        e.message,
                        keep("ladr-toml", &text)
                    ))
                }
            }
        }
    });
}

// ---------------------------------------------------------------------------------------
// JSON inputs: compile databases, baselines, swarm manifests

const JSON_DICT: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "\\u0000",
    "\\ud800",
    "\\\"",
    "null",
    "true",
    "false",
    "0",
    "-0",
    "1",
    "-1",
    "4294967296",
    "18446744073709551616",
    "1e400",
    "0.5",
    "\"\"",
    "\"x\"",
    "[]",
    "{}",
    "\n",
    " ",
    "é",
    "\u{1b}[2J",
    "\"directory\"",
    "\"file\"",
    "\"command\"",
    "\"arguments\"",
    "\"output\"",
    "\"cc\"",
    "\"-I\"",
    "\"-Iinc\"",
    "\"-D\"",
    "\"-include\"",
    "\"-o\"",
    "\"-x\"",
    "\"-std=c11\"",
    "\"a.c\"",
    "\"\\\"\"",
    "\"'\"",
    "\"runs\"",
    "\"results\"",
    "\"partialFingerprints\"",
    "\"ladrRace/v1\"",
    "\"baselineState\"",
    "\"absent\"",
    "\"message\"",
    "\"text\"",
    "\"races\"",
    "\"harnesses\"",
    "\"outcome\"",
    "\"fingerprint\"",
    "\"schema\"",
    "\"files\"",
    "\"cpp_args\"",
    "\"compile_commands\"",
    "\"rounds\"",
    "\"unwind\"",
    "\"max_unwind\"",
    "\"ilp32\"",
    "\"instances\"",
    "\"contexts\"",
    "\"prog.i\"",
    "\"missing.i\"",
    "100",
    "101",
    "1000",
    "100000",
];

/// A JSON error names `path`; a syntax error (serde_json's "at line L column C") also a
/// position.
fn json_error_located(message: &str, path: &Path, syntax: bool) -> bool {
    let named = message.contains(&path.display().to_string());
    let positioned = message.contains(" line ") && message.contains(" column ");
    named && (!syntax || positioned)
}

const COMPDB_SEED: &str = r#"[
  { "directory": "DIR", "command": "cc -I inc -DA=\"x y\" -c a.c -o a.o", "file": "a.c" },
  { "directory": "DIR/sub", "arguments": ["cc", "-I..", "-include", "cfg.h", "-std=gnu11", "-c", "../b.c"], "file": "../b.c", "output": "b.o" }
]"#;

#[test]
fn compile_databases() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("sub")).unwrap();
    let seed = COMPDB_SEED.replace("DIR", &d.display().to_string());
    let path = d.join("compile_commands.json");
    drive("compile-db", DEFAULT_CASES * 4, |rng, f| {
        let text = mutate(rng, &seed, JSON_DICT, MAX_TEXT);
        std::fs::write(&path, &text).map_err(|e| e.to_string())?;
        match ladr_project::compdb::Database::load(d) {
            Ok(db) => {
                let files = vec![d.join("a.c"), d.join("b.c"), d.join("main.c")];
                let _ = ladr_project::compdb::inputs(&files, Some(&db), &["-DX".into()]);
                Ok(())
            }
            Err(e) => {
                f.rejected += 1;
                let syntax = true; // every error of a compile database is located

                if json_error_located(&e.message, &path, syntax) {
                    Ok(())
                } else {
                    Err(format!(
                        "not located: {} (input: {})",
                        e.message,
                        keep("compile-db", &text)
                    ))
                }
            }
        }
    });
}

/// ladr's own documents as baselines: a SARIF log and a combined JSON.
fn baseline_seeds() -> Vec<String> {
    let sarif = serde_json::json!({
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": { "name": "ladr", "rules": [{ "id": "data-race" }] } },
            "results": [
                { "ruleId": "data-race", "message": { "text": "race on g" },
                  "partialFingerprints": { "ladrRace/v1": "0011223344556677" },
                  "locations": [{ "physicalLocation": { "artifactLocation": { "uri": "a.c" },
                                  "region": { "startLine": 3, "startColumn": 5 } } }] },
                { "ruleId": "data-race", "message": { "text": "gone" }, "baselineState": "absent",
                  "partialFingerprints": { "ladrRace/v1": "8899aabbccddeeff" } }
            ]
        }]
    });
    let json = serde_json::json!({
        "harnesses": [
            { "name": "h", "outcome": { "verdict": "race", "races": [
                { "fingerprint": "0011223344556677", "message": "race on g" } ] } }
        ]
    });
    let single = serde_json::json!({ "races": [ { "fingerprint": "ff", "message": "m" } ] });
    vec![
        serde_json::to_string_pretty(&sarif).unwrap(),
        serde_json::to_string_pretty(&json).unwrap(),
        serde_json::to_string(&single).unwrap(),
    ]
}

#[test]
fn baselines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("baseline.json");
    let seeds = baseline_seeds();
    drive("baseline", DEFAULT_CASES * 4, |rng, f| {
        let seed = &seeds[rng.usize(..seeds.len())];
        let text = mutate(rng, seed, JSON_DICT, MAX_TEXT);
        std::fs::write(&path, &text).map_err(|e| e.to_string())?;
        match ladr_project::baseline::load(&path) {
            Ok(_) => Ok(()),
            Err(e) => {
                f.rejected += 1;
                let syntax = serde_json::from_str::<serde_json::Value>(&text).is_err();
                if json_error_located(&e.message, &path, syntax) {
                    Ok(())
                } else {
                    Err(format!(
                        "not located: {} (input: {})",
                        e.message,
                        keep("baseline", &text)
                    ))
                }
            }
        }
    });
}

/// A small preprocessed program for the manifests to name (`.i`: no preprocessor run).
const SWARM_PROGRAM: &str = "int g;\nvoid *w(void *a) { g = 1; return 0; }\n\
    typedef unsigned long pthread_t;\n\
    int pthread_create(pthread_t *t, const void *attr, void *(*f)(void *), void *arg);\n\
    int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); g = 2; return 0; }\n";

#[test]
fn swarm_manifests() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("prog.i"), SWARM_PROGRAM).unwrap();
    let swarm = d.join("swarm");
    std::fs::create_dir_all(&swarm).unwrap();
    let manifest = swarm.join("manifest.json");
    let seed = serde_json::to_string_pretty(&serde_json::json!({
        "schema": 1,
        "tool": { "name": "ladr", "version": "0.1.0" },
        "files": [d.join("prog.i")],
        "cpp_args": ["-DX"],
        "compile_commands": null,
        "rounds": 2,
        "unwind": 2,
        "max_unwind": 100,
        "ilp32": false,
        "contexts": 4,
        "instances": 2,
        "timeout_s": 0
    }))
    .unwrap();
    let dict: Vec<String> = JSON_DICT
        .iter()
        .map(|s| s.to_string())
        .chain([format!("\"{}\"", d.join("prog.i").display())])
        .collect();
    let dict: Vec<&str> = dict.iter().map(String::as_str).collect();
    drive("swarm-manifest", DEFAULT_CASES, |rng, f| {
        let text = mutate(rng, &seed, &dict, MAX_TEXT);
        // The manifest names files to preprocess: only the `.i` programs here (a `.c`
        // would run gcc with the manifest's arguments: issue 28 item 3's tests).
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) {
            let files_ok = v["files"].as_array().is_none_or(|fs| {
                fs.iter()
                    .all(|f| f.as_str().is_none_or(|s| s.ends_with(".i")))
            });
            if !files_ok || !v["compile_commands"].is_null() {
                return Ok(());
            }
        }
        std::fs::write(&manifest, &text).map_err(|e| e.to_string())?;
        let out = Command::new("sh")
            .arg("-c")
            // A memory limit (KiB of address space): a blow-up is an abort, not a swap storm.
            .arg("ulimit -v 4000000; exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_ladr"))
            .args(["swarm", "collect", "--color", "never"])
            .arg(&swarm)
            .env("LADR_CBMC", "/nonexistent")
            .output()
            .map_err(|e| e.to_string())?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        match out.status.code() {
            Some(0 | 1 | 3) => Ok(()),
            Some(2) => {
                f.rejected += 1;
                // The swarm directory (the manifest, an instance's file) or a file the
                // manifest names.
                let named: Vec<String> = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|v| v["files"].as_array().cloned())
                    .into_iter()
                    .flatten()
                    .filter_map(|f| f.as_str().map(String::from))
                    .collect();
                if stderr.contains(&swarm.display().to_string())
                    || named.iter().any(|f| stderr.contains(&format!("`{f}`")))
                {
                    Ok(())
                } else {
                    Err(format!(
                        "not located: {stderr} (input: {})",
                        keep("swarm-manifest", &text)
                    ))
                }
            }
            c => Err(format!(
                "exit {c:?}: {stderr} (input: {})",
                keep("swarm-manifest", &text)
            )),
        }
    });
}

/// Found by `swarm_manifests`: `rounds: 100000` in a manifest made collect allocate until
/// it aborted ("memory allocation of 1 bytes failed" under a 4 GB limit); the numbers are
/// now checked against the command line's ranges.
#[test]
fn a_swarm_manifest_out_of_range_names_its_field() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prog.i"), SWARM_PROGRAM).unwrap();
    let swarm = dir.path().join("swarm");
    std::fs::create_dir_all(&swarm).unwrap();
    for (field, value) in [
        ("rounds", 100_000u64),
        ("rounds", 0),
        ("unwind", 4_294_967_298),
        ("max_unwind", 1001),
        ("instances", 100_001),
    ] {
        let mut manifest = serde_json::json!({
            "schema": 1, "files": [dir.path().join("prog.i")], "cpp_args": [],
            "compile_commands": null, "rounds": 2, "unwind": 2, "max_unwind": 100,
            "ilp32": false, "instances": 1
        });
        manifest[field] = value.into();
        std::fs::write(swarm.join("manifest.json"), manifest.to_string()).unwrap();
        let out = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 4000000; exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_ladr"))
            .args(["swarm", "collect", "--color", "never"])
            .arg(&swarm)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{field} = {value}: {stderr}");
        assert!(
            stderr.contains(&format!("`{field}`")),
            "{field} = {value}: {stderr}"
        );
    }
}

/// Found by `swarm_manifests`: a manifest with no files made collect say "no C file to
/// check", naming neither the manifest nor the field.
#[test]
fn a_swarm_manifest_without_files_names_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = serde_json::json!({
        "schema": 1, "files": [], "cpp_args": [], "compile_commands": null, "rounds": 2,
        "unwind": 2, "max_unwind": 100, "ilp32": false, "instances": 1
    });
    std::fs::write(dir.path().join("manifest.json"), manifest.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .args(["swarm", "collect", "--color", "never"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("manifest.json") && stderr.contains("`files`"),
        "{stderr}"
    );
}
