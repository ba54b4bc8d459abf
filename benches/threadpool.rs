//! `cargo bench --bench threadpool`: the thread-pool benchmark of issue 17 — a pool library
//! of about 400 lines (`benches/threadpool/`: `pool.h`, `pool.c`, `harness.c`) whose race
//! needs 3 rounds, checked as a user would, with the default options (deepening from 2/2,
//! `--jobs` = the cores, the default time limit). Prints the wall time, the answer and the
//! bounds it was found at, for the racy program and for its race-free twin
//! (`-DPOOL_FIXED`, which shows how far the same time gets on a program without a race).
//! `$LADR_BENCH_ARGS` (space-separated) adds options, e.g. `--jobs 1` or `--no-deepen
//! --rounds 3`. Target (issue 17): the race in under 60 s on 2 cores.

use std::process::Command;
use std::time::Instant;

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = format!("{root}/benches/threadpool");
    let files: Vec<String> = ["pool.c", "harness.c"]
        .iter()
        .map(|f| format!("{dir}/{f}"))
        .collect();
    let extra: Vec<String> = std::env::var("LADR_BENCH_ARGS")
        .map(|v| v.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    for (name, defines) in [("racy", &[][..]), ("fixed", &["-DPOOL_FIXED"][..])] {
        let t0 = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
            .args(&files)
            .args(defines)
            .args(["--format", "json", "-q"])
            .args(&extra)
            .output();
        let Ok(out) = out else {
            eprintln!("skipped: cannot run ladr");
            return;
        };
        let wall = t0.elapsed().as_secs_f64();
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        let verdict = doc["verdict"].as_str().unwrap_or("?");
        let bounds = format!(
            "{}/{}",
            doc["bounds"]["rounds"].as_u64().unwrap_or(0),
            doc["bounds"]["unwind"].as_u64().unwrap_or(0)
        );
        let race: Vec<String> = doc["races"][0]["accesses"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| {
                let file = a["file"].as_str().unwrap_or("?");
                let file = file.rsplit('/').next().unwrap_or(file);
                format!("{file}:{}", a["line"].as_u64().unwrap_or(0))
            })
            .collect();
        let race = if race.is_empty() {
            String::new()
        } else {
            format!(" {}", race.join(" ↔ "))
        };
        println!(
            "threadpool {name:<6} exit {:?}  {verdict} at {bounds}{race}  {wall:.1} s",
            out.status.code()
        );
    }
}
