//! Hostile inputs (issue 28): ladr runs in CI on pull requests, so the C files, `ladr.toml`,
//! a compile database and a swarm directory may come from someone the user does not trust.
//! Each test builds such an input and asserts that nothing happened: the command it would
//! run left no marker file, nothing outside was read or written.

use std::path::Path;
use std::process::Command;

/// A race-free program with one thread.
const PROGRAM: &str = "#include <pthread.h>\nint x;\nvoid *t(void *a) { x = 1; return 0; }\n\
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); return x; }\n";

/// Runs `ladr` in `dir`: exit status, stdout and stderr together.
fn ladr_in(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .current_dir(dir)
        // `ladr check`'s result cache: this test's own.
        .env("XDG_CACHE_HOME", dir.join(".xdg-cache"))
        .args(args)
        .output()
        .expect("run ladr");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

/// A repository with `main.c` and a `ladr.toml` of `harness` (the text after `[[harness]]`)
/// and `top` (the top-level keys).
fn repo(top: &str, harness: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    write(&d.path().join("main.c"), PROGRAM);
    write(
        &d.path().join("ladr.toml"),
        &format!("{top}\n[[harness]]\nname = \"h\"\n{harness}\n"),
    );
    d
}

#[test]
fn flags_in_ladr_toml_cannot_run_a_command() {
    for flags in [
        r#"["-wrapper", "/bin/sh,-c,touch MARK"]"#,
        r#"["-DX", "-wrapper", "/bin/sh,-c,touch MARK"]"#,
        r#"["-fplugin=./MARK.so"]"#,
        r#"["-B", "."]"#,
        r#"["-specs=./MARK.specs"]"#,
        r#"["-I", "-wrapper"]"#,
    ] {
        let d = repo(&format!("flags = {flags}"), "files = [\"main.c\"]");
        let (code, out) = ladr_in(d.path(), &["check", "--format", "json"]);
        assert!(!d.path().join("MARK").exists(), "{flags}: the command ran");
        assert_eq!(code, 2, "{flags}: {out}");
        assert!(
            out.contains("ladr.toml:1:") && out.contains("not"),
            "{flags}: not a located error:\n{out}"
        );
    }
}

#[test]
fn a_file_named_like_an_option_is_read_as_c() {
    let d = tempfile::tempdir().unwrap();
    let mark = d.path().join("MARK");
    // As a response file gcc would read `-wrapper` from it and run the command.
    write(
        &d.path().join("@opts.c"),
        &format!("-wrapper /bin/sh,-c,'touch {}'\n", mark.display()),
    );
    let (code, out) = ladr_in(d.path(), &["--no-deepen", "--", "@opts.c"]);
    assert!(
        !mark.exists(),
        "gcc read @opts.c as a response file:\n{out}"
    );
    assert_eq!(code, 2, "{out}");
    // A file named like an option is preprocessed and checked.
    write(&d.path().join("-rf.c"), PROGRAM);
    let (code, out) = ladr_in(d.path(), &["--no-deepen", "--", "-rf.c"]);
    assert_eq!(code, 0, "-rf.c was not checked:\n{out}");
}

/// `ladr swarm emit` of `PROGRAM` into `d/swarm`, with `--cbmc cbmc`.
fn emit(d: &Path, cbmc: &str) -> (i32, String) {
    write(&d.join("main.c"), PROGRAM);
    ladr_in(d, &["swarm", "emit", "swarm", "main.c", "--cbmc", cbmc])
}

#[test]
fn a_tampered_swarm_manifest_runs_nothing_and_is_range_checked() {
    let d = tempfile::tempdir().unwrap();
    let cbmc = ladr_cbmc::locate(None).expect("CBMC");
    let (code, out) = emit(d.path(), &cbmc.display().to_string());
    assert_eq!(code, 0, "{out}");
    let manifest = d.path().join("swarm/manifest.json");
    let original: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let mark = d.path().join("MARK");
    for (key, value) in [
        (
            "cpp_args",
            serde_json::json!(["-wrapper", format!("/bin/sh,-c,touch {}", mark.display())]),
        ),
        ("rounds", serde_json::json!(4_000_000_000u64)),
        ("unwind", serde_json::json!(100_000)),
        ("max_unwind", serde_json::json!(5000)),
        ("instances", serde_json::json!(4_000_000_000u64)),
    ] {
        let mut m = original.clone();
        m[key] = value;
        write(&manifest, &m.to_string());
        let t0 = std::time::Instant::now();
        let (code, out) = ladr_in(d.path(), &["swarm", "collect", "swarm"]);
        assert!(!mark.exists(), "{key}: the manifest's command ran");
        assert_eq!(code, 2, "{key}: {out}");
        assert!(out.contains(key), "{key}: {out}");
        assert!(t0.elapsed().as_secs() < 20, "{key}: not refused at once");
    }
}

#[test]
fn the_cbmc_path_in_run_sh_is_quoted() {
    let d = tempfile::tempdir().unwrap();
    let mark = d.path().join("MARK");
    // A directory whose name is a command substitution, holding a stand-in `cbmc`.
    let weird = d.path().join(format!("x$(touch {})", mark.display()));
    std::fs::create_dir_all(&weird).unwrap();
    let fake = weird.join("cbmc");
    write(
        &fake,
        "#!/bin/sh\necho ran > \"$(dirname \"$0\")/ran\"\nexit 0\n",
    );
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let (code, out) = emit(d.path(), &fake.display().to_string());
    assert_eq!(code, 0, "{out}");
    let run = Command::new("sh")
        .arg("swarm/0/run.sh")
        .current_dir(d.path())
        .env_remove("LADR_CBMC")
        .output()
        .unwrap();
    assert!(!mark.exists(), "run.sh ran the command in the CBMC path");
    assert!(run.status.success(), "{run:?}");
    assert!(
        weird.join("ran").exists(),
        "run.sh did not run the named CBMC"
    );
}

#[test]
fn globs_and_includes_stay_in_the_repository() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.h");
    write(&secret, "SECRET_TOKEN_4711 is not C\n");
    write(&outside.path().join("other.c"), PROGRAM);
    let rel = format!(
        "../{}/other.c",
        outside.path().file_name().unwrap().to_str().unwrap()
    );
    for (top, files) in [
        (
            "",
            format!("files = [\"main.c\", {:?}]", outside.path().join("*.c")),
        ),
        ("", format!("files = [\"main.c\", {rel:?}]")),
        (
            &*format!("flags = [\"-include\", {:?}]", secret.display().to_string()),
            "files = [\"main.c\"]".to_string(),
        ),
    ] {
        let d = repo(top, &files);
        let (code, out) = ladr_in(d.path(), &["check", "--format", "json"]);
        assert_eq!(code, 2, "{top} {files}: accepted:\n{out}");
        assert!(
            out.contains("ladr.toml:"),
            "{top} {files}: not located:\n{out}"
        );
        assert!(!out.contains("SECRET_TOKEN"), "{out}");
    }
    // A symbolic link in the repository to a file outside.
    let d = repo("", "files = [\"*.c\"]");
    std::os::unix::fs::symlink(outside.path().join("other.c"), d.path().join("link.c")).unwrap();
    let (code, out) = ladr_in(d.path(), &["check", "--format", "json"]);
    assert_eq!(code, 2, "a link outside accepted:\n{out}");
    // A compile database including a file outside.
    let d = repo("compile-commands = \"build\"", "files = [\"main.c\"]");
    std::fs::create_dir(d.path().join("build")).unwrap();
    let db = serde_json::json!([{
        "directory": d.path().join("build"),
        "file": d.path().join("main.c"),
        "arguments": ["cc", "-c", "-include", secret, "../main.c"],
    }]);
    write(
        &d.path().join("build/compile_commands.json"),
        &db.to_string(),
    );
    let (code, out) = ladr_in(d.path(), &["check", "--format", "json"]);
    assert_eq!(code, 2, "-include outside accepted:\n{out}");
    assert!(!out.contains("SECRET_TOKEN"), "{out}");
    assert!(out.contains("compile_commands.json"), "{out}");
}

#[cfg(unix)]
#[test]
fn kept_files_and_init_never_follow_links() {
    use std::os::unix::fs::symlink;
    let d = tempfile::tempdir().unwrap();
    write(&d.path().join("main.c"), PROGRAM);
    let keep = d.path().join("keep");
    std::fs::create_dir(&keep).unwrap();
    let victim = d.path().join("victim");
    write(&victim, "mine");
    symlink(&victim, keep.join("seq.i")).unwrap();
    write(&keep.join(".ladr-probe"), "mine too");
    let (_, out) = ladr_in(
        d.path(),
        &[
            "--no-deepen",
            "--no-prove",
            "--keep-files",
            "keep",
            "main.c",
        ],
    );
    assert!(
        std::fs::read_to_string(&victim).unwrap() == "mine",
        "--keep-files wrote through the link seq.i:\n{out}"
    );
    assert_eq!(
        std::fs::read_to_string(keep.join(".ladr-probe")).unwrap(),
        "mine too",
        "the user's .ladr-probe was removed or changed"
    );
    // `ladr init` beside a dangling link: the link's target is not created.
    let e = tempfile::tempdir().unwrap();
    let target = d.path().join("planted");
    symlink(&target, e.path().join("ladr.toml")).unwrap();
    let (code, out) = ladr_in(e.path(), &["init"]);
    assert!(!target.exists(), "init wrote through the link");
    assert_eq!(code, 2, "{out}");
    let (_, out) = ladr_in(e.path(), &["init", "--force"]);
    assert!(
        !target.exists(),
        "init --force wrote through the link:\n{out}"
    );
}

/// Item 6: `#line 2 "/any/file"` made the text and HTML reports quote lines of that file
/// (a CI artefact could carry a runner's secrets). Only the checked file is read; a file
/// a line marker names is shown as far as the program itself shows it, or not at all.
#[test]
fn a_line_marker_never_makes_a_report_quote_another_file() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.txt");
    write(
        &secret,
        "SECRET-1\nSECRET-2\nSECRET-3\nSECRET-4\nSECRET-5\nSECRET-6\n",
    );
    let racy = format!(
        "#include <pthread.h>\nint x;\n#line 2 \"{}\"\nvoid *t(void *a) {{ x = 1; return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, t, 0);\n\
         pthread_create(&b, 0, t, 0); return 0; }}\n",
        secret.display()
    );
    let d = repo("", "files = [\"main.c\"]");
    write(&d.path().join("main.c"), &racy);
    for format in ["text", "json", "sarif"] {
        let (code, out) = ladr_in(
            d.path(),
            &[
                "main.c",
                "--no-deepen",
                "--color",
                "never",
                "--format",
                format,
            ],
        );
        assert_eq!(code, 1, "{format}: {out}");
        assert!(!out.contains("SECRET"), "{format}: {out}");
    }
    let html = d.path().join("html");
    let (code, out) = ladr_in(d.path(), &["check", "--html", html.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    for page in std::fs::read_dir(&html).unwrap() {
        let text = std::fs::read_to_string(page.unwrap().path()).unwrap_or_default();
        assert!(!text.contains("SECRET"), "{text}");
    }
}

/// Item 10: control characters of the source (`ESC [2J`, an OSC title sequence ended by
/// BEL) reached the terminal raw; they are shown as the control pictures `␛`, `␇`.
#[test]
fn control_characters_of_the_source_reach_no_terminal() {
    let d = tempfile::tempdir().unwrap();
    write(
        &d.path().join("ctl.c"),
        "#include <pthread.h>\nint x;\nvoid *t(void *a) { x = 1; /* \u{1b}[2J\u{1b}]0;pwned\u{7} */ \
         return 0; }\nint main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0);\n\
         pthread_create(&b, 0, t, 0); return 0; }\n",
    );
    let (code, out) = ladr_in(d.path(), &["ctl.c", "--no-deepen", "--color", "never"]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
    assert!(out.contains("\u{241b}[2J"), "{out}");
}

/// Item 9: a SARIF baseline's results that are no longer found were copied verbatim into
/// the output as `absent` (a location `file:///etc/shadow`, any field at all); they are
/// rebuilt from the fingerprint and a bounded message without control characters, and a
/// fingerprint ladr could not have written is dropped.
#[test]
fn a_hostile_baseline_is_not_copied_into_the_output() {
    let d = repo("", "files = [\"main.c\"]");
    let result = |fp: &str| {
        serde_json::json!({
            "ruleId": "data-race", "message": {"text": "old \u{1b}]0;pwned\u{7} race"},
            "partialFingerprints": {"ladrRace/v1": fp},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": "file:///etc/shadow"}}}],
            "properties": {"injected": true}
        })
    };
    let base = serde_json::json!({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "ladr"}},
        "results": [result("deadbeef"), result("../../not-a-fingerprint")]}]});
    write(&d.path().join("base.sarif"), &base.to_string());
    let (code, out) = ladr_in(
        d.path(),
        &["check", "--baseline", "base.sarif", "--sarif", "out.sarif"],
    );
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(d.path().join("out.sarif")).unwrap();
    assert!(
        !text.contains("shadow") && !text.contains("injected"),
        "{text}"
    );
    assert!(
        !text.contains("not-a-fingerprint") && !text.contains("\\u001b"),
        "{text}"
    );
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let absent: Vec<&serde_json::Value> = v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["baselineState"] == "absent")
        .collect();
    assert_eq!(absent.len(), 1, "{text}");
    assert_eq!(absent[0]["partialFingerprints"]["ladrRace/v1"], "deadbeef");
}

/// Item 5: `ladr check --html DIR` wrote a harness name unescaped into `index.html`
/// (`x"onmouseover="…` became an event handler) and used it as a file name (`../x`
/// wrote a page outside DIR). Page names keep to DIR; every attribute is escaped.
#[test]
fn harness_names_neither_leave_the_html_dir_nor_enter_its_markup() {
    let d = tempfile::tempdir().unwrap();
    let racy = "#include <pthread.h>\nint x;\nvoid *t(void *a) { x = 1; return 0; }\n\
        int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0);\n\
        pthread_create(&b, 0, t, 0); return 0; }\n";
    std::fs::create_dir_all(d.path().join("repo")).unwrap();
    let repo = d.path().join("repo");
    write(&repo.join("main.c"), racy);
    write(
        &repo.join("ladr.toml"),
        "[[harness]]\nname = \"../../escaped\"\nfiles = [\"main.c\"]\n\n\
         [[harness]]\nname = \"x\\\"onmouseover=\\\"alert(1)\"\nfiles = [\"main.c\"]\n",
    );
    let (code, out) = ladr_in(&repo, &["check", "--html", "pages"]);
    assert_eq!(code, 1, "{out}");
    assert!(!d.path().join("escaped-1.html").exists());
    let pages: Vec<String> = std::fs::read_dir(repo.join("pages"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(pages.len(), 3, "{pages:?}");
    let index = std::fs::read_to_string(repo.join("pages/index.html")).unwrap();
    assert!(!index.contains("\"onmouseover"), "{index}");
}
