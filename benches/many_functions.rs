//! Translation time against the number of functions (issue 28, item 13): a program with
//! 5 000, 10 000 and 20 000 unused functions translated to the sequential program (no
//! CBMC), and the ratio of each time to the first. Linear translation gives ratios near
//! 2 and 4; the hygiene pre-passes once copied the set of file-scope names per function
//! (20 000 functions: 23.7 s, ratio 17 against 5 000). Run with
//! `cargo bench --bench many_functions`.

use std::fmt::Write;
use std::time::Instant;

/// `n` small functions nobody calls, one thread and `main`.
fn program(n: usize) -> String {
    let mut s = String::from("int x;\n");
    for i in 0..n {
        let _ = writeln!(s, "int f{i}(int a) {{ int b = a + {i}; return b * 2; }}");
    }
    s.push_str(
        "void *t(void *a) { x = 1; return 0; }\n\
         int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); \
         return x; }\n",
    );
    s
}

fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut first = None;
    for n in [5_000, 10_000, 20_000] {
        let path = dir.path().join(format!("many{n}.c"));
        std::fs::write(&path, format!("#include <pthread.h>\n{}", program(n))).unwrap();
        let start = Instant::now();
        let parsed = ladr_c::frontend::load(&path, &Default::default()).expect("parses");
        let t = ladr_check::recorded::translate(&parsed, &Default::default()).expect("translates");
        std::hint::black_box(t.printed.text.len());
        let s = start.elapsed().as_secs_f64();
        let base = *first.get_or_insert(s);
        println!(
            "{n:>6} functions: {s:.2} s (ratio to 5 000: {:.1})",
            s / base
        );
    }
}
