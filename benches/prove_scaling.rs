//! The static race proof's time against program size (issue 30: "grows no worse than about
//! linearly"): a program of `n` modules — each a global counter, its mutex, a heap block
//! handed to a worker, a loop, a call chain and a thread created in a counted loop — proved
//! race-free at n = 250, 500, 1 000, 2 000 and 4 000 (about 14 to 230 thousand lines), and
//! each time's ratio to the first. Linear growth gives ratios near 2, 4, 8 and 16. Run with
//! `cargo bench --bench prove_scaling`.

use std::fmt::Write;

/// `n` modules and a `main` that starts each module's workers (every access holds its module's mutex) and joins them.
fn program(n: usize) -> String {
    let mut s = String::from("#include <pthread.h>\n#include <stdlib.h>\n");
    for i in 0..n {
        let _ = write!(
            s,
            "int c{i}; pthread_mutex_t m{i} = PTHREAD_MUTEX_INITIALIZER, n{i} = PTHREAD_MUTEX_INITIALIZER;\n\
             struct box{i} {{ int v; int w; }};\n\
             static void add{i}(int k) {{\n  pthread_mutex_lock(&m{i});\n  c{i} += k;\n  pthread_mutex_unlock(&m{i});\n}}\n\
             static int step{i}(int k) {{\n  int r = 0;\n  for (int j = 0; j < k; j++) {{\n    if (j % 3)\n      r += j;\n    else\n      add{i}(j);\n  }}\n  return r;\n}}\n\
             void *work{i}(void *arg) {{\n  struct box{i} *b = arg;\n  int r = step{i}(4);\n  pthread_mutex_lock(&n{i});\n  b->v = r;\n  b->w = b->v + 1;\n  pthread_mutex_unlock(&n{i});\n  add{i}(r);\n  return 0;\n}}\n\
             void start{i}(void) {{\n  pthread_t t[2];\n  for (int j = 0; j < 2; j++) {{\n    struct box{i} *b = malloc(sizeof *b);\n    pthread_create(&t[j], 0, work{i}, b);\n  }}\n  for (int j = 0; j < 2; j++)\n    pthread_join(t[j], 0);\n}}\n"
        );
    }
    s.push_str("int main(void) {\n");
    for i in 0..n {
        let _ = writeln!(s, "  start{i}();");
    }
    s.push_str("  return 0;\n}\n");
    s
}

fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut first = None;
    for n in [250, 500, 1_000, 2_000, 4_000] {
        let path = dir.path().join(format!("modules{n}.c"));
        let text = program(n);
        let lines = text.lines().count();
        std::fs::write(&path, text).unwrap();
        let parsed = ladr_c::frontend::load(&path, &Default::default()).expect("parses");
        let request = ladr_check::Request::proof_only(Default::default());
        let answer = ladr_check::check(&parsed, &request, &|_, _: &ladr_ir::program::Options| {})
            .expect("the analysis runs");
        let proof = answer.proof.expect("a proof answer");
        let s = proof.time_s;
        let base = *first.get_or_insert(s);
        println!(
            "{n:>5} modules, {lines:>6} lines: proved {}, {s:.3} s (ratio to 250: {:.1})",
            proof.proved,
            s / base
        );
    }
}
