//! The GitHub Action of contrib/github-action: it parses as YAML, each shell step is valid
//! bash, every `ladr` option it passes exists in this ladr's `--help`, the scripts it runs
//! exist, and the actions it uses are the ones docs/gate.md documents; the README's fresh-Debian
//! commands are what `.ci/run` runs, and every link of the README and docs/ resolves.

use std::path::Path;
use std::process::Command;
use yaml_rust2::{Yaml, YamlLoader};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn load(rel: &str) -> Yaml {
    let text = std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap();
    let mut docs = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert_eq!(docs.len(), 1, "{rel}");
    docs.remove(0)
}

/// The help text of `ladr ARGS --help`.
fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `${{ … }}` expressions replaced by a word, as the runner would substitute them.
fn substituted(script: &str) -> String {
    let mut out = String::new();
    let mut rest = script;
    while let Some(at) = rest.find("${{") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find("}}").expect("closed expression") + at + 2;
        out.push_str("EXPR");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn the_action_runs_commands_that_exist() {
    let action = load("contrib/github-action/action.yml");
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    let inputs = action["inputs"].as_hash().unwrap();
    let steps = action["runs"]["steps"].as_vec().unwrap();
    let check_help = help(&["check"]);
    let mut ladr_calls = 0;
    let mut uses = vec![];
    for step in steps {
        if let Some(u) = step["uses"].as_str() {
            uses.push(u.to_string());
            continue;
        }
        let script = step["run"].as_str().expect("a step runs or uses");
        assert_eq!(step["shell"].as_str(), Some("bash"), "{script}");
        // Valid bash.
        let script = substituted(script);
        let syntax = Command::new("bash")
            .args(["-n", "-c", &script])
            .output()
            .unwrap();
        assert!(
            syntax.status.success(),
            "{script}\n{}",
            String::from_utf8_lossy(&syntax.stderr)
        );
        // Every input an expression names is declared.
        for line in step["env"].as_hash().into_iter().flatten() {
            let v = line.1.as_str().unwrap_or_default();
            if let Some(name) = v
                .strip_prefix("${{ inputs.")
                .and_then(|r| r.strip_suffix(" }}"))
            {
                assert!(
                    inputs.contains_key(&Yaml::String(name.into())),
                    "input {name}"
                );
            }
        }
        // Every option given to `ladr check` exists: on lines that run it (`ladr … check`)
        // or build its arguments (`args=(check …`, `args+=(--…`).
        for line in script.lines() {
            let runs = line.contains("ladr check") || line.contains("args=(check");
            if !(runs || line.contains("args+=(--")) {
                continue;
            }
            ladr_calls += usize::from(runs);
            for w in line.split(|c: char| c.is_whitespace() || "()\"".contains(c)) {
                if w.starts_with("--") {
                    assert!(
                        check_help.contains(w),
                        "`ladr check {w}` does not exist:\n{check_help}"
                    );
                }
            }
        }
        // Scripts of this repository it runs exist and are executable.
        for w in script.split_whitespace() {
            if let Some(rel) = w.trim_matches('"').strip_prefix("$src/") {
                let p = Path::new(ROOT).join(rel);
                let meta = std::fs::metadata(&p).unwrap_or_else(|_| panic!("{rel} is missing"));
                use std::os::unix::fs::PermissionsExt;
                assert!(
                    meta.permissions().mode() & 0o111 != 0,
                    "{rel} is not executable"
                );
            }
        }
    }
    assert!(
        ladr_calls >= 2,
        "the action runs ladr check (base and head)"
    );
    assert_eq!(
        uses,
        [
            "actions/cache@v4",
            "actions/cache@v4",
            "github/codeql-action/upload-sarif@v3"
        ],
        "docs/gate.md documents these"
    );
    // `cargo install --locked` needs the lock file.
    assert!(Path::new(ROOT).join("Cargo.lock").exists());
}

#[test]
fn the_example_workflow_uses_the_action() {
    let wf = load("contrib/github-action/example-workflow.yml");
    let steps = wf["jobs"]["ladr"]["steps"].as_vec().unwrap();
    let uses: Vec<&str> = steps.iter().filter_map(|s| s["uses"].as_str()).collect();
    assert!(
        uses.iter().any(|u| u.contains("/contrib/github-action@")),
        "{uses:?}"
    );
    assert_eq!(
        wf["permissions"]["security-events"].as_str(),
        Some("write"),
        "the SARIF upload needs it"
    );
}

/// The README's quick start keeps the two commands of a fresh Debian 12, and its test
/// command is the one `.ci/run` runs (with the same install scripts before it).
#[test]
fn the_readme_test_command_is_what_ci_runs() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let ci = std::fs::read_to_string(Path::new(ROOT).join(".ci/run")).unwrap();
    let example = "    scripts/install-cbmc && cargo run --release -- examples/racy_counter.c";
    assert!(
        readme.lines().any(|l| l == example),
        "README lacks `{example}`"
    );
    let tests = "    scripts/install-cbmc && scripts/install-chromium && cargo test --release --no-fail-fast";
    assert!(readme.lines().any(|l| l == tests), "README lacks `{tests}`");
    let ci_lines: Vec<&str> = ci.lines().map(str::trim).collect();
    for step in tests.trim().split(" && ") {
        assert!(
            ci_lines.iter().any(|l| l.starts_with(step)),
            "`.ci/run` does not run `{step}`, which the README says it runs"
        );
    }
    assert!(
        readme.contains("cargo install --path ."),
        "no install-on-PATH step"
    );
    assert!(
        readme.lines().count() < 120,
        "the README is to stay a quick start"
    );
}

/// Every relative link of the README and of docs/*.md names a file that exists, and a
/// `#fragment` a heading of it (GitHub's anchors: lower case, punctuation dropped, spaces
/// to `-`).
#[test]
fn links_of_the_readme_and_docs_resolve() {
    let mut pages = vec![Path::new(ROOT).join("README.md")];
    for e in std::fs::read_dir(Path::new(ROOT).join("docs"))
        .unwrap()
        .flatten()
    {
        if e.path().extension().is_some_and(|x| x == "md") {
            pages.push(e.path());
        }
    }
    let anchors = |text: &str| -> Vec<String> {
        let mut fence = false;
        let mut out = vec![];
        for l in text.lines() {
            if l.starts_with("```") {
                fence = !fence;
            }
            if fence || !l.starts_with('#') {
                continue;
            }
            let title = l.trim_start_matches('#').trim().to_lowercase();
            let slug: String = title
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect();
            out.push(slug);
        }
        out
    };
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if target.starts_with("http") || target.contains(' ') || target.is_empty() {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            assert!(
                path.exists(),
                "{}: link to missing {target}",
                page.display()
            );
            if !fragment.is_empty() {
                let there = std::fs::read_to_string(&path).unwrap();
                assert!(
                    anchors(&there).iter().any(|a| a == fragment),
                    "{}: no heading for #{fragment} in {file}",
                    page.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} links");
}

/// `scripts/install-cbmc` picks its route by the distribution, without the network: fake
/// `apt-cache`, `apt-get`, `sudo` and `curl` first on `PATH` (the fake `curl` logs each URL
/// and serves a fake CBMC release package), a fake os-release and apt configuration.
#[test]
fn install_cbmc_picks_the_route_for_the_distribution() {
    let d = tempfile::tempdir().unwrap();
    let bin = d.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = d.path().join("log");
    fake_tools(&bin, &log);
    let (deb, sha) = fake_release_package(d.path());
    let cadical_deb = fake_cadical_package(d.path());
    // A CaDiCaL of the machine's own on PATH is found, and nothing is downloaded for it.
    let own_cadical = ["/usr/bin/cadical", "/bin/cadical"]
        .iter()
        .any(|p| Path::new(p).exists());
    let os = |name: &str, text: &str| {
        let p = d.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let ubuntu24 = os(
        "ubuntu24",
        "ID=ubuntu\nVERSION_ID=\"24.04\"\nVERSION_CODENAME=noble\n",
    );
    let ubuntu22 = os(
        "ubuntu22",
        "ID=ubuntu\nVERSION_ID=\"22.04\"\nVERSION_CODENAME=jammy\n",
    );
    let debian = os(
        "debian",
        "ID=debian\nVERSION_ID=\"12\"\nVERSION_CODENAME=bookworm\n",
    );
    let apt_etc = d.path().join("apt");
    std::fs::create_dir_all(apt_etc.join("sources.list.d")).unwrap();
    std::fs::write(
        apt_etc.join("sources.list"),
        "deb http://mirror.invalid/debian bookworm main\n",
    )
    .unwrap();
    let run = |os_release: &Path, candidate: &str, sha: Option<&str>, home: &str| {
        let _ = std::fs::remove_file(&log);
        // What a fake `apt-get install` put on PATH before.
        let _ = std::fs::remove_file(bin.join("cbmc"));
        let mut c = Command::new(Path::new(ROOT).join("scripts/install-cbmc"));
        c.arg("--print-path")
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("LADR_HOME", d.path().join(home))
            .env("LADR_OS_RELEASE", os_release)
            .env("LADR_APT_ETC", &apt_etc)
            .env("FAKE_CANDIDATE", candidate)
            .env("FAKE_DEB", &deb)
            .env("FAKE_CADICAL_DEB", &cadical_deb)
            .env_remove("LADR_CBMC")
            .env_remove("LADR_CBMC_DEB_SHA256");
        if let Some(s) = sha {
            c.env("LADR_CBMC_DEB_SHA256", s);
        }
        let out = c.output().unwrap();
        let logged = std::fs::read_to_string(&log).unwrap_or_default();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            logged,
        )
    };
    let release =
        "https://github.com/diffblue/cbmc/releases/download/cbmc-6.9.0/ubuntu-24.04-cbmc-6.9.0-Linux.deb";
    // Ubuntu 24.04, the archive's cbmc too old: the release package, checked against the
    // pinned checksum (which the fake does not match: refused, nothing installed).
    let (code, _, err, logged) = run(&ubuntu24, "5.10-5", None, "h1");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("SHA256 mismatch"), "{err}");
    assert_eq!(logged.trim(), format!("curl {release}"), "{err}");
    assert!(!d.path().join("h1/bin/cbmc").exists());
    // With a checksum that matches: unpacked, a launcher that runs it; a second run finds it
    // and downloads nothing.
    let (code, out, err, logged) = run(&ubuntu24, "5.10-5", Some(&sha), "h2");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out.trim(),
        d.path().join("h2/bin/cbmc").display().to_string()
    );
    assert!(logged.contains(release), "{logged}");
    assert!(err.contains("installed cbmc 6.9.0"), "{err}");
    // Then CaDiCaL, from the distribution's package (apt's own mirror), linked in bin.
    if !own_cadical {
        assert!(logged.contains("apt-get download cadical"), "{logged}");
        let cadical = d.path().join("h2/bin/cadical");
        let ran = Command::new(&cadical).arg("--version").output().unwrap();
        assert_eq!(String::from_utf8_lossy(&ran.stdout).trim(), "9.9.9");
        assert!(err.contains("installed cadical"), "{err}");
    }
    let (code, _, err, logged) = run(&ubuntu24, "5.10-5", None, "h2");
    assert_eq!(code, Some(0), "{err}");
    assert!(logged.is_empty(), "{logged}");
    assert!(err.contains("found cadical"), "{err}");
    // Ubuntu 22.04: no verified checksum pinned yet, so no download at all.
    let (code, _, err, logged) = run(&ubuntu22, "5.10-5", None, "h3");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("not pinned yet"), "{err}");
    assert!(logged.is_empty(), "{logged}");
    // A distribution whose own package is new enough: apt installs it.
    let (code, _, err, logged) = run(&ubuntu24, "6.7.0-1", None, "h4");
    assert_eq!(code, Some(0), "{err}");
    assert!(logged.contains("apt-get install -y cbmc"), "{logged}");
    assert!(!logged.contains("curl"), "{logged}");
    // Debian 12: Debian 13's packages from the mirror apt names, never the release package.
    let (code, _, err, logged) = run(&debian, "(none)", None, "h5");
    assert_ne!(code, Some(0), "{err}");
    assert!(
        logged.contains(
            "curl http://mirror.invalid/debian/dists/trixie/main/binary-amd64/Packages.xz"
        ),
        "{logged}\n{err}"
    );
    assert!(!logged.contains("github.com"), "{logged}");
}

/// Fake `apt-cache` (candidate `$FAKE_CANDIDATE`), `apt-get` (logs; `install` puts a `cbmc`
/// of that version in `bin`), `sudo` and `curl` (logs each URL; serves `$FAKE_DEB` for a
/// `.deb`, fails otherwise) in `bin`.
fn fake_tools(bin: &Path, log: &Path) {
    let script = |name: &str, text: &str| {
        use std::os::unix::fs::PermissionsExt;
        let p = bin.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{text}")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    script(
        "apt-cache",
        "printf 'cbmc:\\n  Installed: (none)\\n  Candidate: %s\\n' \"$FAKE_CANDIDATE\"\n",
    );
    script(
        "apt-get",
        &format!(
            "echo \"apt-get $*\" >> {log}\n\
             if [ \"$1\" = install ]; then printf '#!/bin/sh\\necho %s\\n' \"$FAKE_CANDIDATE\" > {bin}/cbmc; chmod +x {bin}/cbmc; fi\n\
             if [ \"$1\" = download ]; then cp \"$FAKE_CADICAL_DEB\" ./cadical_9.9.9_amd64.deb; fi\n",
            log = log.display(),
            bin = bin.display()
        ),
    );
    script("sudo", "exec \"$@\"\n");
    script(
        "curl",
        &format!(
            "out=; url=; while [ $# -gt 0 ]; do case \"$1\" in -o) out=$2; shift;; -*) ;; *) url=$1;; esac; shift; done\n\
             echo \"curl $url\" >> {log}\n\
             case \"$url\" in *.deb) cp \"$FAKE_DEB\" \"$out\";; *) exit 22;; esac\n",
            log = log.display()
        ),
    );
}

/// A Debian package `name` of `version` holding `usr/bin/{name}`, a script that prints
/// `says`, built under `dir` (its directory `{name}-pkg`) as `deb`.
fn fake_package(
    dir: &Path,
    name: &str,
    version: &str,
    says: &str,
    deb: &str,
) -> std::path::PathBuf {
    let pkg = dir.join(format!("{name}-pkg"));
    std::fs::create_dir_all(pkg.join("DEBIAN")).unwrap();
    std::fs::create_dir_all(pkg.join("usr/bin")).unwrap();
    std::fs::write(
        pkg.join("DEBIAN/control"),
        format!("Package: {name}\nVersion: {version}\nArchitecture: amd64\nMaintainer: test <t@t>\nDescription: fake\n"),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        let c = pkg.join("usr/bin").join(name);
        std::fs::write(&c, format!("#!/bin/sh\necho {says}\n")).unwrap();
        std::fs::set_permissions(&c, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let deb = dir.join(deb);
    let built = Command::new("dpkg-deb")
        .args(["-b", "--root-owner-group"])
        .arg(&pkg)
        .arg(&deb)
        .output()
        .unwrap();
    assert!(built.status.success(), "{built:?}");
    deb
}

/// A `cadical` package (what `apt-get download cadical` fetches) whose `cadical` reports
/// 9.9.9, built under `dir`.
fn fake_cadical_package(dir: &Path) -> std::path::PathBuf {
    fake_package(dir, "cadical", "9.9.9", "9.9.9", "cadical.deb")
}

/// A release package holding a `cbmc` that reports 6.9.0, built under `dir`: its path and
/// SHA-256.
fn fake_release_package(dir: &Path) -> (std::path::PathBuf, String) {
    let deb = fake_package(dir, "cbmc", "6.9.0", "'6.9.0 (cbmc-6.9.0)'", "fake.deb");
    let sha = {
        let out = Command::new("sha256sum").arg(&deb).output().unwrap();
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    (deb, sha)
}
