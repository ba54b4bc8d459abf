//! Tests of `dataonly`: which file-scope objects it finds data-only (no branch, address,
//! assumption or library call depends on their contents), that the stores of a data-only
//! array are dropped and no other store is, and when a set-up loop's step is exact. Each
//! rule beside a case where it must not apply.

use crate::common;
use ladr_ir::program::Program;

fn program(src: &str) -> Program {
    common::passes(common::PTHREAD_PRELUDE, src, 2, common::PassId::Dataonly)
        .unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"))
        .0
}

/// The data-only objects among `names` (the original names: `threads` renames locals).
fn data_only(src: &str, names: &[&str]) -> Vec<String> {
    let p = program(src);
    let mut out: Vec<String> = names
        .iter()
        .filter(|n| {
            p.data_only
                .iter()
                .any(|d| ladr_c::syntax::names::original_name(d) == **n)
        })
        .map(|n| n.to_string())
        .collect();
    out.sort();
    out
}

/// Two workers run `body` (with `long k = (long)arg;`); `a`, `b` are int arrays, `n`, `x`
/// ints, `p` a pointer.
fn workers(body: &str) -> String {
    format!(
        r#"
int a[100]; int b[100]; int n; int x; int *p;
void *w(void *arg) {{ long k = (long)arg; {body} return 0; }}
int main(void) {{
  pthread_t t1, t2;
  pthread_create(&t1, 0, w, (void *)1);
  pthread_create(&t2, 0, w, (void *)2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}}
"#
    )
}

const ALL: &[&str] = &["a", "b", "n", "x", "p"];

#[test]
fn values_only_stored_and_printed_are_data_only() {
    assert_eq!(
        data_only(&workers("a[k] = a[k + 1] + 1; b[n] = a[k]; x = 2;"), ALL),
        ["a", "b", "x"]
    );
    assert_eq!(
        data_only(&workers(r#"printf("%d", a[k]); x = n;"#), ALL),
        ["a", "n", "x"]
    );
}

#[test]
fn a_value_that_decides_is_relevant() {
    // A branch.
    assert!(!data_only(&workers("if (a[k]) n = 1;"), ALL).contains(&"a".into()));
    // An index.
    assert!(!data_only(&workers("b[a[k]] = 1;"), ALL).contains(&"a".into()));
    // Through a store into something that decides.
    assert!(!data_only(&workers("x = a[k]; if (x) n = 1;"), ALL).contains(&"a".into()));
    assert!(!data_only(&workers("b[0] = a[k]; if (b[0]) n = 1;"), ALL).contains(&"a".into()));
    // Through a pointer to it.
    assert!(!data_only(&workers("p = a; if (p[3]) n = 1;"), ALL).contains(&"a".into()));
    assert!(!data_only(&workers("p = &a[2]; x = *p; if (x) n = 1;"), ALL).contains(&"a".into()));
    // A condition of `&&` and of `?:`.
    assert!(!data_only(&workers("x = a[k] && n;"), ALL).contains(&"a".into()));
    assert!(!data_only(&workers("x = a[k] ? 1 : 2;"), ALL).contains(&"a".into()));
    // An assumption.
    assert!(!data_only(&workers("__VERIFIER_assume(a[k] > 0);"), ALL).contains(&"a".into()));
    // A printed value whose count is used.
    assert!(
        !data_only(&workers(r#"x = printf("%d", a[k]); if (x) n = 1;"#), ALL).contains(&"a".into())
    );
    // A library function may branch on all its arguments point to.
    assert!(!data_only(&workers("x = memcmp(a, b, 4);"), ALL).contains(&"a".into()));
    // The pointer dereferenced is relevant.
    assert!(!data_only(&workers("*p = 1;"), ALL).contains(&"p".into()));
}

#[test]
fn pointers_stored_in_arrays_are_followed() {
    let src = r#"
int a[4]; int *ptrs[2]; int n;
void *w(void *arg) { ptrs[0] = a; if (*ptrs[0]) n = 1; return 0; }
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, w, 0);
  pthread_create(&t2, 0, w, 0);
  return 0;
}
"#;
    assert_eq!(data_only(src, &["a", "ptrs", "n"]), ["n"]);
}

/// How many stores `arr[…] = ` the code has (one per thread slot running it) (not `&arr[…]`, not `==`).
fn stores(code: &str, arr: &str) -> usize {
    let pat = format!("{arr}[");
    let mut n = 0;
    for (at, _) in code.match_indices(&pat) {
        let before = code[..at].chars().next_back().unwrap_or(' ');
        if before.is_alphanumeric() || before == '_' || before == '&' {
            continue;
        }
        let rest = &code[at + pat.len()..];
        let Some(close) = rest.find(']') else {
            continue;
        };
        let after = &rest[close + 1..];
        if after.starts_with(" = ") {
            n += 1;
        }
    }
    n
}

/// The stores into a data-only array keep their value's evaluation and lose the store; a
/// relevant array's stores stay.
#[test]
fn stores_into_data_only_arrays_are_dropped() {
    let src = workers("a[k] = a[k + 1] + 1; b[k] = 2; if (b[n]) x = 1;");
    let before = common::passes(common::PTHREAD_PRELUDE, &src, 2, common::PassId::Race)
        .unwrap()
        .0;
    let before = common::show_code(&before);
    let code = common::show_code(&program(&src));
    assert_eq!(
        (stores(&before, "a"), stores(&before, "b")),
        (2, 2),
        "{before}"
    );
    assert_eq!((stores(&code, "a"), stores(&code, "b")), (0, 2), "{code}");
    assert!(code.contains("(void)("), "{code}");
}

fn setup(body: &str) -> Program {
    program(&format!(
        r#"
int a[2000]; int idx[2000]; int n;
void *w(void *arg) {{ long k = (long)arg; {body} return 0; }}
int main(void) {{
  pthread_t t1, t2; int i;
  for (i = 0; i < 2000; i++) {{ a[i] = i; idx[i] = i; }}
  pthread_create(&t1, 0, w, (void *)1);
  pthread_create(&t2, 0, w, (void *)2);
  return 0;
}}
"#
    ))
}

/// A set-up step is exact when everything it gives arbitrary values is data-only.
#[test]
fn setup_steps_are_exact_only_when_their_values_decide_nothing() {
    let p = setup("a[k] = a[k + 1];");
    assert_eq!(p.summaries.len(), 1);
    assert!(p.exact_summaries);
    let p = setup("a[idx[k]] = 1;");
    assert_eq!(p.summaries.len(), 1);
    assert!(!p.exact_summaries);
    let p = setup("if (a[k] > 5) n = 1;");
    assert!(!p.exact_summaries);
}

/// Anything it does not follow gives up: nothing data-only, no step exact.
#[test]
fn assembly_gives_up() {
    let src = |asm: &str| {
        format!(
            r#"
int a[2000];
void *w(void *arg) {{ a[1] = a[2]; {asm} return 0; }}
int main(void) {{
  pthread_t t1, t2; int i;
  for (i = 0; i < 2000; i++) a[i] = i;
  pthread_create(&t1, 0, w, 0);
  pthread_create(&t2, 0, w, 0);
  return 0;
}}
"#
        )
    };
    let p = program(&src(""));
    assert!(p.exact_summaries && p.data_only.contains("a"));
    let p = program(&src(r#"__asm__ volatile("" : : : "memory");"#));
    assert!(!p.exact_summaries && p.data_only.is_empty());
}

/// A floating-point scalar that decides nothing loses its stores too (a floating-point
/// operation is thousands of clauses); an integer scalar keeps them (cheap, and shown in
/// the report's steps); a floating-point scalar that decides something keeps them.
#[test]
fn floating_point_scalars_that_decide_nothing_lose_their_stores() {
    let src = |body: &str| {
        format!(
            r#"
double d; int n; int x;
void *w(void *arg) {{ {body} return 0; }}
int main(void) {{
  pthread_t t1, t2;
  pthread_create(&t1, 0, w, 0);
  pthread_create(&t2, 0, w, 0);
  return 0;
}}
"#
        )
    };
    let code = |body: &str| common::show_code(&program(&src(body)));
    let c = code("d = d * d + 1.0; n = n + 1;");
    assert!(!c.contains(" d = "), "{c}");
    assert!(c.contains(" n = "), "{c}");
    let c = code("d = d * d + 1.0; if (d > 2.0) x = 1;");
    assert!(c.contains(" d = "), "{c}");
}

/// Two workers run `body` (with `long k = (long)arg;`) over `g` and `h`, two heap blocks
/// `main` allocates (two allocation sites) before `main_tail`; `a` an int array, `n` an
/// int, `p` a pointer.
fn heap(body: &str, main_tail: &str) -> String {
    format!(
        r#"
void *calloc(unsigned long k, unsigned long n); void free(void *q);
int memcmp(const void *x, const void *y, unsigned long n);
int *g; int *h; int a[100]; int n; int *p;
void *w(void *arg) {{ long k = (long)arg; {body} return 0; }}
int main(void) {{
  pthread_t t1, t2;
  g = malloc(100 * sizeof(int));
  h = calloc(100, sizeof(int));
  pthread_create(&t1, 0, w, (void *)1);
  pthread_create(&t2, 0, w, (void *)2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  {main_tail}
  return 0;
}}
"#
    )
}

/// The stores `(g, h, p)[…] = ` of `body` left in the sequential program (two per store
/// written: one per thread slot).
fn heap_stores(body: &str, main_tail: &str) -> (usize, usize, usize) {
    let code = common::show_code(&program(&heap(body, main_tail)));
    (
        stores(&code, "g"),
        stores(&code, "h"),
        // `p[0]`, its read instrumented: `(…, p)[0] = `.
        stores(&code, "p") + code.matches("p)[0] = ").count(),
    )
}

/// A heap block is an object per allocation site: one whose contents decide nothing loses
/// its stores (`free` reads the pointer, not the block), whatever the other block does.
#[test]
fn heap_blocks_that_decide_nothing_lose_their_stores() {
    assert_eq!(heap_stores("g[k] = g[k + 1] + 1; h[k] = 2;", ""), (0, 0, 0));
    assert_eq!(
        heap_stores("g[k] = g[k + 1] + 1; h[k] = 2;", "free(g); free(h);"),
        (0, 0, 0)
    );
    // `g` decides a branch, `h` nothing: only `h`'s stores go.
    assert_eq!(
        heap_stores("g[k] = 2; h[k] = 2; if (g[n]) n = 1;", ""),
        (2, 0, 0)
    );
}

/// A heap block whose contents reach a branch, an index or a function without a body
/// keeps its stores; so does a store through a pointer that may point to such a block,
/// even when it may also point to a data-only one.
#[test]
fn heap_blocks_that_decide_keep_their_stores() {
    assert_eq!(heap_stores("h[k] = 2; if (h[n]) n = 1;", ""), (0, 2, 0));
    assert_eq!(heap_stores("h[k] = 2; a[h[n]] = 1;", ""), (0, 2, 0));
    assert_eq!(heap_stores("h[k] = 2; n = memcmp(h, a, 4);", ""), (0, 2, 0));
    assert_eq!(
        heap_stores("p = k ? g : h; p[0] = 1; if (h[0]) n = 1;", ""),
        (0, 0, 2)
    );
    assert_eq!(
        heap_stores("p = k ? g : h; p[0] = 1; if (a[0]) n = 1;", ""),
        (0, 0, 0)
    );
}

/// A block reached through the normaliser's temporary of the call
/// (`__typeof__(malloc(n)) t; t = malloc(n); m = (int *)t;`): a call's type is no array,
/// so `m` points to the block, not to `t`, and the stores through it go.
#[test]
fn a_block_through_the_temporary_of_its_call() {
    let src = r#"
int *g;
void *w(void *arg) { long k = (long)arg; g[k] = 2; return 0; }
int main(void) {
  pthread_t t1, t2;
  int *m = (int *)malloc(100 * sizeof(int));
  g = m;
  pthread_create(&t1, 0, w, (void *)1);
  pthread_create(&t2, 0, w, (void *)2);
  return 0;
}
"#;
    let p = program(src);
    let decls = ladr_c::print::print_unit(&p.unit).text;
    assert!(decls.contains("__typeof__(malloc("), "{decls}");
    let code = common::show_code(&p);
    assert_eq!(stores(&code, "g"), 0, "{code}");
}
