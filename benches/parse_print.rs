//! Throughput of the front end and printer over the SV-COMP corpus (`$LADR_SVCOMP`, else
//! `../shared/svcomp`; see `tests/common`):
//! parse + print of every task input, in lines per second. Run with `cargo bench`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

fn main() {
    let Some(root) = common::svcomp_root() else {
        return;
    };
    let index = std::fs::read_to_string(root.join("index.tsv")).expect("read index.tsv");
    let inputs: Vec<_> = index
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').nth(1))
        .map(|f| root.join("c").join(f))
        .collect();
    let (mut lines, mut ok, mut failed) = (0usize, 0usize, 0usize);
    let start = Instant::now();
    for f in &inputs {
        match ladr_c::frontend::load(f, &Default::default()) {
            Ok(p) => {
                lines += p.text.lines().count();
                let printed = ladr_c::print::print_unit(&p.unit);
                std::hint::black_box(printed.text.len());
                ok += 1;
            }
            Err(_) => failed += 1,
        }
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "parse+print: {} inputs ({} failed), {} lines in {:.2} s = {:.0} lines/s",
        ok,
        failed,
        lines,
        t,
        lines as f64 / t
    );
}
