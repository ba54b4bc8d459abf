//! `--format html` in a real browser: headless Chromium (scripts/install-chromium) renders
//! the page of a racy program, a screenshot is kept as a test artifact
//! (`target/tmp/html-report/`), and the DOM after the page's script ran must show both
//! accesses, every context of the interleaving and the locks held. The `ladr eval` quantile
//! plot is rendered the same way and must have one point per correct task. Without Chromium
//! the test prints `skipped: chromium not found` and passes. Needs CBMC.

use serde_json::Value;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-report");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Chromium headless on `file` with `args` (its own profile directory); stdout.
fn browse(browser: &str, file: &Path, args: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", file.canonicalize().unwrap().display()))
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn ladr(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("run ladr");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn html_report_in_chromium() {
    let Some(browser) = chromium() else {
        let _ = writeln!(
            std::io::stderr(),
            "skipped: chromium not found (scripts/install-chromium)"
        );
        return;
    };
    let dir = artifacts();
    let file = "tests/e2e/lock_kinds_racy.c";
    let (code, html) = ladr(&[file, "--format", "html"]);
    assert_eq!(code, 1);
    // Self-contained: no external resources.
    for external in ["<link", "src=\"http", "href=\"http", "@import", "url("] {
        assert!(!html.contains(external), "`{external}` in the page");
    }
    let page = dir.join("lock_kinds_racy.html");
    std::fs::write(&page, &html).unwrap();
    let (_, json) = ladr(&[file, "--format", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let race = &v["races"][0];
    let contexts = race["interleaving"].as_array().unwrap().len();

    let dom = browse(browser, &page, &["--dump-dom"]);
    // The script ran (it counts the contexts it found in the DOM).
    assert!(
        dom.contains(&format!("data-ready=\"{contexts}\"")),
        "script did not run or saw another number of contexts than {contexts}"
    );
    for k in 1..=contexts {
        assert!(
            dom.contains(&format!("data-context=\"{k}\"")),
            "context {k} missing"
        );
    }
    for role in ["first", "second"] {
        assert!(
            dom.contains(&format!("data-access=\"{role}\"")),
            "{role} access"
        );
        assert!(
            dom.contains(&format!("data-access-line=\"{role}\"")),
            "{role} access not highlighted in the source"
        );
    }
    // Both racing lines appear in the source excerpt, with their text.
    for a in race["accesses"].as_array().unwrap() {
        let line = a["line"].as_u64().unwrap();
        assert!(
            dom.contains(&format!("<td class=\"no\">{line}</td>")),
            "line {line}"
        );
    }
    assert!(
        dom.contains("q-&gt;n = q-&gt;n + 1;"),
        "escaped source text"
    );
    // Code spans of the report are code elements (issue 32 item 8).
    assert!(dom.contains("holds <code>q-&gt;lock</code> (mutex)"));
    assert!(dom.contains("no lock is held by both"));
    assert!(dom.contains("id=\"verdict\""));

    let shot = dir.join("lock_kinds_racy.png");
    let _ = std::fs::remove_file(&shot);
    browse(
        browser,
        &page,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1280,1600",
            "--hide-scrollbars",
        ],
    );
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(
        png.len() > 10_000 && png.starts_with(b"\x89PNG"),
        "screenshot"
    );
}

#[test]
fn quantile_plot_in_chromium() {
    let Some(browser) = chromium() else {
        let _ = writeln!(
            std::io::stderr(),
            "skipped: chromium not found (scripts/install-chromium)"
        );
        return;
    };
    let dir = artifacts();
    // A past run's results: three correct answers, one unknown, one error.
    let task = |name: &str, status: &str, answer: &str, cpu: f64| {
        serde_json::json!({ "task": name, "subfolder": "s", "input": name, "expected": false,
            "answer": answer, "status": status, "exit_code": 1, "reason": null,
            "wall_s": cpu, "cpu_s": cpu, "peak_mb": null })
    };
    let run = serde_json::json!({
        "settings": { "ladr_version": "0", "date": 0, "dir": "d", "filter": null, "rounds": 2,
                      "unwind": 2, "timeout_s": 20.0, "memory_mb": 4000, "jobs": 1, "cbmc": "c",
                      "deepen": true },
        "complete": true, "elapsed_s": 9.0, "cpu_s": 9.0,
        "tasks": [task("a", "correct-false", "false", 0.4), task("b", "correct-true", "true", 3.0),
                  task("c", "unknown", "unknown", 20.0), task("d", "correct-false", "false", 1.5),
                  task("e", "error", "error", 0.1)],
    });
    let results = dir.join("results.json");
    std::fs::write(&results, run.to_string()).unwrap();
    let svg = dir.join("quantile.svg");
    let (code, out) = ladr(&[
        "eval",
        "--plot-only",
        results.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    let dom = browse(browser, &svg, &["--dump-dom"]);
    assert_eq!(
        dom.matches("<circle").count(),
        3,
        "one point per correct task"
    );
    let shot = dir.join("quantile.png");
    browse(
        browser,
        &svg,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=900,560",
        ],
    );
    assert!(std::fs::metadata(&shot).is_ok_and(|m| m.len() > 1000));
}
