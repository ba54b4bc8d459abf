//! `cargo bench --bench jobs`: wall time of one check with the deepening schedule run one
//! bound pair at a time (`--jobs 1`) and at once (`--jobs 2`), without and with swarm
//! instances (`--swarm 4`), on e2e programs whose answer needs deeper bounds or several
//! bound pairs (the median of 3 runs of the `ladr` binary; CBMC must be installed).
//! `$LADR_BENCH_FILES` (colon-separated, `--32` for `.i` files) replaces the programs.

use std::process::Command;
use std::time::Instant;

const CONFIGS: [&[&str]; 4] = [
    &["--jobs", "1"],
    &["--jobs", "2"],
    &["--jobs", "1", "--swarm", "4"],
    &["--jobs", "2", "--swarm", "4"],
];

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    let files: Vec<String> = match std::env::var("LADR_BENCH_FILES") {
        Ok(v) => v.split(':').map(String::from).collect(),
        Err(_) => [
            "three_rounds_racy.c",
            "global_joined_free.c",
            "mutex_free.c",
        ]
        .iter()
        .map(|f| format!("{root}/tests/e2e/{f}"))
        .collect(),
    };
    for file in &files {
        for config in CONFIGS {
            let mut times = vec![];
            let mut status = None;
            for _ in 0..3 {
                let t0 = Instant::now();
                let mut cmd = Command::new(env!("CARGO_BIN_EXE_ladr"));
                cmd.arg(file)
                    .args(["--deepen", "--deepen-steps", "3", "--timeout", "120", "-q"])
                    .args(config);
                if file.ends_with(".i") {
                    cmd.arg("--32");
                }
                let Ok(out) = cmd.output() else {
                    eprintln!("skipped: cannot run ladr");
                    return;
                };
                if out.status.code() == Some(3) {
                    eprintln!("skipped: no verdict (is CBMC installed?)");
                    return;
                }
                status = out.status.code();
                times.push(t0.elapsed().as_secs_f64());
            }
            times.sort_by(f64::total_cmp);
            println!(
                "{:<40} {:<24} exit {:?}  median {:.2} s",
                file.rsplit('/').next().unwrap_or(file),
                config.join(" "),
                status,
                times[1]
            );
        }
    }
}
