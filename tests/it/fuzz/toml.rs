//! The `ladr.toml` target: mutations of the config of docs/gate.md.

use super::mutate::mutate;
use super::{drive, keep, DEFAULT_CASES, MAX_TEXT};

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
