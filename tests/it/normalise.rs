//! Snapshot, syntax, semantic and corpus tests of the `normalise` pass.

use crate::common;

use ladr_c::frontend;
use ladr_ir::program::{Options, Program};
use ladr_seq::invariants::check_normal_form;
use ladr_seq::passes::normalise;
use std::io::Write;
use std::process::{Command, Stdio};

/// Prototypes the printed programs may use (gcc needs them only for the syntax check).
const PRELUDE: &str = "void __CPROVER_assume(int);\nvoid __CPROVER_havoc_object(void *);\n";

/// Parses, normalises, checks the normal form and prints.
fn normalise_text(src: &str) -> Result<String, String> {
    let (_, unit, _) = frontend::parse_text(src, "test.c").map_err(|e| e.to_string())?;
    let p = normalise::run(Program::new(unit), &Options::default()).map_err(|e| e.to_string())?;
    check_normal_form(&p.unit).map_err(|v| v.to_string())?;
    Ok(ladr_c::print::print_unit(&p.unit).text)
}

/// `gcc -fsyntax-only` on `text`; the error text when gcc rejects it.
fn gcc_syntax(text: &str) -> Result<(), String> {
    let mut child = Command::new("gcc")
        .args(["-fsyntax-only", "-w", "-x", "c", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{PRELUDE}{text}").as_bytes())
        .map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// The one helper of the snapshot tests: normalise, check N1–N6 and gcc, print.
fn check(src: &str) -> String {
    let out = normalise_text(src).unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"));
    if let Err(e) = gcc_syntax(&out) {
        panic!("gcc rejects the output:\n{e}\n--- output:\n{out}");
    }
    out
}

#[test]
fn switch_fallthrough_default_in_middle() {
    insta::assert_snapshot!(check(
        "int g(int);
int f(int x) {
  int r = 0;
  switch (g(x)) {
  case 1: r = 1;
  default: r += 2; break;
  case 3 ... 5: r = 3;
  case 6: { switch (r) { case 3: r = 7; break; } }
  }
  return r;
}"
    ));
}

#[test]
fn nested_loops_break_continue() {
    insta::assert_snapshot!(check(
        "int f(int n) {
  int s = 0;
  while (n > 0) {
    n--;
    for (int i = 0; i < n; i++) {
      if (i == 2) continue;
      if (i == 5) break;
      s += i;
    }
    if (s > 100) break;
  }
  return s;
}"
    ));
}

#[test]
fn do_while_continue() {
    insta::assert_snapshot!(check(
        "int g(void);
void f(int n) {
  do { if (n == 3) continue; n--; } while (g() && n > 0);
}"
    ));
}

#[test]
fn for_with_declaration() {
    insta::assert_snapshot!(check(
        "int a[10];
void f(void) { for (int i = 0, j = 9; i < j; i++, j--) a[i] = a[j]; }"
    ));
}

#[test]
fn short_circuit_and_conditional() {
    insta::assert_snapshot!(check(
        "int f(int); int g(int);
int h(int a) {
  int x = a && f(1);
  int y = a || g(2);
  int z = a ? f(3) : g(4);
  if (f(5) || g(6)) x = 1;
  while (x && f(7)) x--;
  return x + y + z;
}"
    ));
}

#[test]
fn chained_assignment() {
    insta::assert_snapshot!(check(
        "int f(void); int x, y;
void g(void) { x = y = f(); }"
    ));
}

#[test]
fn increments_in_indices() {
    insta::assert_snapshot!(check(
        "int a[10], b[10];
void f(int i, int j) { a[i++] = b[j--]; int y = i++; int z = ++j; }"
    ));
}

#[test]
fn locals_and_initialisers() {
    insta::assert_snapshot!(check(
        "struct P { int x, y; };
int g(void);
void f(void) {
  int u, v;
  const int c = 5;
  static int s = 3;
  struct P p = { .y = g(), .x = 1 };
  int a[] = { 1, 2, 3 };
  char str[] = \"abc\";
  int b[4] = { 1, g(), [3] = g() };
  int *const q = &u;
}"
    ));
}

/// An uninitialised pointer starts as a null pointer, also when a typedef (or a typedef of
/// one) makes it a pointer; an integer typedef and a struct (even one with pointer
/// members) keep N4's havoc.
#[test]
fn uninitialised_pointers_through_typedefs() {
    insta::assert_snapshot!(check(
        "struct node { struct node *next; };
typedef struct node *node_p;
typedef node_p node_q;
typedef void *(*run_t)(void *);
typedef unsigned long word;
void f(void) {
  node_p a;
  node_q b;
  run_t r;
  word w;
  struct node n;
  struct node *volatile v;
  int *p;
}"
    ));
}

#[test]
fn declarator_corner_cases() {
    insta::assert_snapshot!(check(
        "int g(int);
struct P { int x, y; };
void f(void) {
  int u;
  int *const *p2 = 0;
  int (*const fp)(int) = g;
  const char *const s = \"x\";
  const struct P cp = {1, 2};
  int arr2[2][2] = {{1, u}, {3, 4}};
  struct P ps[2] = {{1, 2}, {u, 4}};
  int n = 3;
  int vla[n + g(1)];
  register int r = 4;
  L: r = g(g(r));
  if (r) M: r++;
}"
    ));
}

#[test]
fn assert_and_svcomp_environment() {
    insta::assert_snapshot!(check(
        "void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void); void abort(void); int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int);
void f(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 0);
  ((x > 1) ? (void)0 : __assert_fail(\"x > 1\", \"t.c\", 3, __func__));
  if (x == 7) { reach_error(); abort(); }
}"
    ));
}

#[test]
fn atomic_sections() {
    insta::assert_snapshot!(check(
        "void __VERIFIER_atomic_begin(void); void __VERIFIER_atomic_end(void);
int g;
void __VERIFIER_atomic_inc(void) { g++; }
void f(void) {
  g = 0;
  __VERIFIER_atomic_begin();
  int t = g;
  g = t + 1;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_inc();
  t = 2;
}"
    ));
}

#[test]
fn statement_expression() {
    insta::assert_snapshot!(check(
        "int g(int);
int f(int a) { int x = ({ int y = g(a); y * 2; }) + 1; ({ x++; }); return x; }"
    ));
}

#[test]
fn pointer_increments_and_comma() {
    insta::assert_snapshot!(check(
        "int g(int);
void f(int *p, int *q, int n) {
  while (n-- > 0) *p++ = *q++;
  n = (g(1), n, g(2));
  int v = *p += g(n);
}"
    ));
}

#[test]
fn header_example() {
    insta::assert_snapshot!(check(
        "int f(int); int g(void);
void h(int n) { for (int i = 0; i < n; i++) if (f(i) && g()) break; }"
    ));
}

#[test]
fn unsupported_break_outside_loop() {
    let e = normalise_text("void f(void) { break; }").unwrap_err();
    assert!(e.contains("break"), "{e}");
}

#[test]
fn atomic_section_with_early_return() {
    insta::assert_snapshot!(check(
        "void __VERIFIER_atomic_begin(void); void __VERIFIER_atomic_end(void);
int flag, pending;
int inc(void) {
  __VERIFIER_atomic_begin();
  if (flag) { __VERIFIER_atomic_end(); return -1; } else { pending = pending + 1; }
  __VERIFIER_atomic_end();
  return 0;
}"
    ));
}

#[test]
fn unsupported_atomic_across_blocks() {
    let e = normalise_text(
        "void __VERIFIER_atomic_begin(void); void __VERIFIER_atomic_end(void);
void f(int c) { __VERIFIER_atomic_begin(); if (c) { __VERIFIER_atomic_end(); } }",
    )
    .unwrap_err();
    assert!(e.contains("__VERIFIER_atomic"), "{e}");
}

// ------------------------------------------------------------------ semantics

const RUN_PRELUDE: &str = "int printf(const char *, ...);
#define __CPROVER_assume(e) ((void)0)
#define __CPROVER_havoc_object(p) ((void)0)
";

fn compile_and_run(src: &str, dir: &std::path::Path, name: &str) -> String {
    let c = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&c, format!("{RUN_PRELUDE}{src}")).unwrap();
    let st = Command::new("gcc")
        .args(["-w", "-o"])
        .arg(&exe)
        .arg(&c)
        .status()
        .unwrap();
    assert!(st.success(), "gcc failed on {name}:\n{src}");
    let out = Command::new("timeout")
        .arg("10")
        .arg(&exe)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn same_behaviour(src: &str) {
    let dir = tempfile::tempdir().unwrap();
    let norm = check(src);
    let a = compile_and_run(src, dir.path(), "orig");
    let b = compile_and_run(&norm, dir.path(), "norm");
    assert!(!a.is_empty());
    assert_eq!(a, b, "--- normalised:\n{norm}");
}

#[test]
fn semantics_loops_and_switch() {
    same_behaviour(
        "int main(void) {
  int s = 0;
  for (int i = 0; i < 12; i++) {
    switch (i % 5) {
    case 0: s += 1;
    case 1: s += 10; break;
    default: s += 100;
    case 3 ... 4: s += 1000; if (i > 8) continue;
    }
    int k = 0;
    do { k++; if (k == 2) continue; s += k; } while (k < 4);
    printf(\"%d %d\\n\", i, s);
  }
  return 0;
}",
    );
}

#[test]
fn semantics_side_effects() {
    same_behaviour(
        "int a[8], b[8];
int next(int *p) { printf(\"next %d\\n\", *p); return (*p)++; }
int main(void) {
  int i = 0, j = 7, x, y;
  for (int k = 0; k < 8; k++) b[k] = k * k;
  a[i++] = b[j--];
  x = y = next(&i);
  y += x++ * ++i;
  int z = (x, next(&j), y--);
  printf(\"%d %d %d %d %d %d\\n\", i, j, x, y, z, a[0]);
  return 0;
}",
    );
}

#[test]
fn semantics_short_circuit() {
    same_behaviour(
        "int f(int v) { printf(\"f%d\\n\", v); return v; }
int main(void) {
  int r = 0;
  for (int i = 0; i < 3; i++) {
    r += f(i) && f(i + 10);
    r += f(i - 1) || f(i + 20);
    r += i ? f(100) : f(200);
    if (f(i) > 0 && f(-i) < 0) r++;
    while (r < 40 && f(r)) r += 5;
    printf(\"r=%d\\n\", r);
  }
  return 0;
}",
    );
}

#[test]
fn semantics_initialisers() {
    same_behaviour(
        "struct P { int x, y; };
int g(int v) { printf(\"g%d\\n\", v); return v; }
int main(void) {
  struct P p = { .y = g(1), .x = 2 };
  int a[] = { 1, 2, 3 };
  int b[5] = { g(4), 5, [3] = g(6) };
  const int c = g(7) + ({ int t = g(8); t * 2; });
  printf(\"%d %d %d %d %d %d %d %d\\n\", p.x, p.y, a[2], b[0], b[1], b[3], b[4], c);
  return 0;
}",
    );
}

#[test]
fn semantics_jumps_and_nesting() {
    same_behaviour(
        "struct S { int a, b; };
struct S mk(int v) { struct S s = { v, v + 1 }; printf(\"mk%d\\n\", v); return s; }
int id(int v) { printf(\"id%d\\n\", v); return v; }
void say(int v) { printf(\"say%d\\n\", v); }
int main(void) {
  int n = 0, x, y;
  for (;;) {
    switch (n) { case 2: n += 2; continue; case 7 ... 100: goto out; default: break; }
    do { if (n & 1) break; n = id(n) + 1; } while (0);
    n++;
    x = id(id(n) + mk(n).b) + (y = 3);
    printf(\"n=%d x=%d\\n\", n, x);
  }
out:
  (say(1), say(2));
  n ? say(3) : say(4);
  return id(n) - 7;
}",
    );
}

// ------------------------------------------------------------------ corpus

#[test]
fn svcomp_corpus() {
    let Some(svcomp) = common::svcomp_root() else {
        return;
    };
    let root = svcomp.join("c");
    let mut inputs: Vec<String> = std::fs::read_to_string(svcomp.join("index.tsv"))
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').nth(1).map(str::to_string))
        .collect();
    inputs.sort();
    inputs.dedup();
    // The inputs on all cores; the results in input order.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![None; inputs.len()]);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(input) = inputs.get(i) else { break };
                let r = corpus_input(&root.join(input));
                results.lock().unwrap()[i] = Some(r);
            });
        }
    });
    let mut failures: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let (mut parsed, mut ok) = (0, 0);
    for (input, r) in inputs.iter().zip(results.into_inner().unwrap()) {
        let Some(group) = r.expect("every input ran") else {
            continue;
        };
        parsed += 1;
        match group {
            None => ok += 1,
            Some((g, _detail)) => failures.entry(g).or_default().push(input.clone()),
        }
    }
    eprintln!(
        "corpus: {} inputs, {parsed} parse, {ok} normalise cleanly",
        inputs.len()
    );
    for (g, files) in &failures {
        eprintln!("  {} × {g}  (e.g. {})", files.len(), files[0]);
    }
    let panics = failures.get("panic").map_or(0, Vec::len);
    assert_eq!(panics, 0, "normalise panicked");
    let bad: usize = failures
        .iter()
        .filter(|(g, _)| !g.starts_with("unsupported"))
        .map(|(_, f)| f.len())
        .sum();
    assert_eq!(bad, 0, "normal form or gcc failures (see above)");
}

/// A corpus failure: its group (the message without names) and the detail.
type Failure = (String, String);

/// One corpus input: `None` when the front end refuses it; `Some(None)` when it normalises
/// cleanly (normal form holds, gcc accepts the printed program); else the failure.
fn corpus_input(path: &std::path::Path) -> Option<Option<Failure>> {
    let parsed_prog = frontend::load(path, &Default::default()).ok()?;
    let r = std::panic::catch_unwind(|| {
        normalise::run(Program::new(parsed_prog.unit.clone()), &Options::default())
    });
    let group = match r {
        Err(_) => Some(("panic".to_string(), String::new())),
        Ok(Err(e)) => Some((e.message.clone(), String::new())),
        Ok(Ok(p)) => match check_normal_form(&p.unit).map_err(|v| v.to_string()) {
            Err(e) => Some((
                format!(
                    "normal form: {}",
                    e.split_once(": ")
                        .map_or(e.as_str(), |x| x.1)
                        .split('`')
                        .next()
                        .unwrap_or("")
                ),
                e,
            )),
            Ok(()) => {
                let text = ladr_c::print::print_unit(&p.unit).text;
                match gcc_syntax(&text) {
                    Ok(()) => None,
                    Err(e) => {
                        let first = e
                            .lines()
                            .find(|l| l.contains("error"))
                            .unwrap_or("")
                            .split("error: ")
                            .nth(1)
                            .unwrap_or("")
                            .to_string();
                        Some((format!("gcc: {first}"), e))
                    }
                }
            }
        },
    };
    Some(group)
}
