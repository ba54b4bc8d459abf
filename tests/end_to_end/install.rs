//! `scripts/install-cbmc` without the network: fake `apt-cache`, `apt-get`, `sudo` and `curl`
//! first on `PATH`, a fake os-release and apt configuration, a fake release package and a
//! fake distribution archive signed with a key made for the test. Each route is chosen by
//! the distribution, and nothing whose checksum or signature does not verify is unpacked.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

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
    let no_keys = d.path().join("no-keys.gpg");
    std::fs::write(&no_keys, "").unwrap();
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
            .env("LADR_ARCHIVE_KEYRING", &no_keys)
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
    // Ubuntu 22.04: no release checksum pinned, so never the release package (route 4,
    // the archive's packages: tested below; this fake mirror has no archive).
    let (code, _, err, logged) = run(&ubuntu22, "5.10-5", None, "h3");
    assert_eq!(code, Some(1), "{err}");
    assert!(!logged.contains("github.com"), "{logged}");
    assert!(!d.path().join("h3/bin/cbmc").exists());
    // A distribution whose own package is new enough: apt installs it.
    let (code, _, err, logged) = run(&ubuntu24, "6.7.0-1", None, "h4");
    assert_eq!(code, Some(0), "{err}");
    assert!(logged.contains("apt-get install -y cbmc"), "{logged}");
    assert!(!logged.contains("curl"), "{logged}");
    // Debian 12: never the release package (route 4: tested below).
    let (code, _, err, logged) = run(&debian, "(none)", None, "h5");
    assert_ne!(code, Some(0), "{err}");
    assert!(
        logged.contains("curl http://mirror.invalid/debian/dists/trixie/InRelease"),
        "{logged}\n{err}"
    );
    assert!(!logged.contains("github.com"), "{logged}");
}

/// Route 4, a newer release's packages from the machine's own mirror: the suite's InRelease
/// must verify against the archive keyring, the index against the signed Release, each
/// package against the index; then the packages are unpacked and the launcher runs `cbmc`
/// through the unpacked loader. On Ubuntu the newest suite of the list that the mirror has
/// and whose cbmc is new enough is taken.
#[test]
fn install_cbmc_unpacks_only_signed_archive_packages() {
    if Command::new("gpg").arg("--version").output().is_err() {
        eprintln!("SKIPPED install_cbmc_unpacks_only_signed_archive_packages: no `gpg` to sign a fake archive");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let bin = d.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = d.path().join("log");
    fake_tools(&bin, &log);
    let archive_key = Signer::new(d.path(), "archive");
    let other_key = Signer::new(d.path(), "other");
    let (mirror, libc6) = fake_mirror(d.path(), &archive_key, &other_key);

    let run = |os_release: &str, archive: &str, home: &str| {
        let _ = std::fs::remove_file(&log);
        let os = d.path().join(format!("os-{home}"));
        std::fs::write(&os, os_release).unwrap();
        let apt = d.path().join(format!("apt-{home}"));
        std::fs::create_dir_all(apt.join("sources.list.d")).unwrap();
        let codename = os_release.split("VERSION_CODENAME=").nth(1).unwrap().trim();
        std::fs::write(
            apt.join("sources.list"),
            format!("deb http://mirror.invalid/{archive} {codename} main universe\n"),
        )
        .unwrap();
        let out = Command::new(Path::new(ROOT).join("scripts/install-cbmc"))
            .arg("--print-path")
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("LADR_HOME", d.path().join(home))
            .env("LADR_OS_RELEASE", &os)
            .env("LADR_APT_ETC", &apt)
            .env("LADR_ARCHIVE_KEYRING", &archive_key.keyring)
            .env("FAKE_CANDIDATE", "(none)")
            .env("FAKE_MIRROR", &mirror)
            .env("FAKE_CADICAL_DEB", &libc6)
            .env_remove("LADR_CBMC")
            .env_remove("LADR_CBMC_DEB_SHA256")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            std::fs::read_to_string(&log).unwrap_or_default(),
        )
    };
    let debian12 = "ID=debian\nVERSION_ID=\"12\"\nVERSION_CODENAME=bookworm\n";
    let (code, out, err, logged) = run(debian12, "debian", "h1");
    assert_eq!(code, Some(0), "{err}");
    let launcher = d.path().join("h1/bin/cbmc");
    assert_eq!(out.trim(), launcher.display().to_string(), "{err}");
    assert!(
        err.contains(
            "verified the signature of http://mirror.invalid/debian/dists/trixie/InRelease"
        ),
        "{err}"
    );
    assert!(err.contains("installed cbmc 6.6.0"), "{err}");
    for url in [
        "dists/trixie/main/binary-amd64/Packages.xz",
        "pool/main/cbmc_6.6.0_amd64.deb",
        "pool/main/libc6_2.41-1_amd64.deb",
        "pool/main/minisat_2.2.1_amd64.deb",
    ] {
        assert!(
            logged.contains(&format!("curl http://mirror.invalid/debian/{url}")),
            "{url}: {logged}"
        );
    }
    assert!(!logged.contains("gcc"), "gcc is not needed: {logged}");
    let ran = Command::new(&launcher).arg("--version").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&ran.stdout).trim(),
        "6.6.0 (cbmc-6.6.0)"
    );

    let (code, _, err, _) = run(debian12, "tampered", "h2");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("SHA256 mismatch") && err.contains("cbmc_6.6.0_amd64.deb"),
        "{err}"
    );
    assert!(!d.path().join("h2/bin/cbmc").exists());
    assert!(!d.path().join("h2/cbmc-trixie").exists());

    let (code, _, err, logged) = run(debian12, "forged", "h3");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("does not verify"), "{err}");
    assert!(
        !logged.contains("Packages.xz") && !logged.contains("pool/"),
        "{logged}"
    );
    assert!(!d.path().join("h3/bin/cbmc").exists());

    let jammy = "ID=ubuntu\nVERSION_ID=\"22.04\"\nVERSION_CODENAME=jammy\n";
    let (code, _, err, logged) = run(jammy, "ubuntu", "h4");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        logged.contains("curl http://mirror.invalid/ubuntu/dists/resolute/InRelease"),
        "{logged}"
    );
    assert!(
        logged.contains("curl http://mirror.invalid/ubuntu/pool/universe/cbmc_6.7.0_amd64.deb"),
        "{logged}"
    );
    assert!(
        !logged.contains("plucky") && !logged.contains("github.com"),
        "{logged}"
    );
    let ran = Command::new(d.path().join("h4/bin/cbmc"))
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&ran.stdout).trim(),
        "6.7.0 (cbmc-6.7.0)"
    );
}

/// The fake mirror of `install_cbmc_unpacks_only_signed_archive_packages` under `dir`:
/// `debian` (trixie: cbmc 6.6.0, libc6 whose loader runs the program it is given, minisat),
/// `tampered` (a package changed after the index was signed), `forged` (signed by `other`)
/// and `ubuntu` (no `resolute`; `questing` with cbmc 6.7.0 in universe, `plucky` with
/// 6.4.1). Returns the mirror's root and the libc6 package.
fn fake_mirror(
    dir: &Path,
    archive_key: &Signer,
    other_key: &Signer,
) -> (std::path::PathBuf, std::path::PathBuf) {
    // The unpacked loader: skips the options the launcher gives it and runs the program.
    let loader = "while [ $# -gt 0 ]; do case \"$1\" in --library-path|--argv0) shift 2;; *) break;; esac; done\nexec \"$@\"";
    let libc6 = fake_deb(
        dir,
        "libc6",
        "2.41-1",
        &[("usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", loader)],
        "libc6_2.41-1_amd64.deb",
    );
    let minisat = fake_package(dir, "minisat", "2.2.1", "2.2.1", "minisat_2.2.1_amd64.deb");
    let cbmc = |v: &str| {
        let deb = format!("cbmc_{v}_amd64.deb");
        let says = format!("'{v} (cbmc-{v})'");
        Package::new(fake_package(dir, "cbmc", v, &says, &deb), "cbmc", v)
            .depends("gcc, libc6 (>= 2.38), minisat (>= 1:2.2.1)")
    };
    let base = vec![
        Package::new(libc6.clone(), "libc6", "2.41-1"),
        Package::new(minisat.clone(), "minisat", "2.2.1"),
    ];
    let mirror = dir.join("mirror");
    let debian = Archive {
        root: mirror.join("debian"),
        signer: archive_key,
    };
    debian.suite(
        "trixie",
        &[("main", [vec![cbmc("6.6.0")], base.clone()].concat())],
    );
    // A suite whose package was changed after the index was signed, and one signed by a key
    // the keyring does not hold.
    let tampered = Archive {
        root: mirror.join("tampered"),
        signer: archive_key,
    };
    tampered.suite(
        "trixie",
        &[("main", [vec![cbmc("6.6.0")], base.clone()].concat())],
    );
    std::fs::copy(&libc6, tampered.root.join("pool/main/cbmc_6.6.0_amd64.deb")).unwrap();
    let forged = Archive {
        root: mirror.join("forged"),
        signer: other_key,
    };
    forged.suite(
        "trixie",
        &[("main", [vec![cbmc("6.6.0")], base.clone()].concat())],
    );
    // Ubuntu: the mirror has no `resolute`; `questing` has a new enough cbmc in universe.
    let ubuntu = Archive {
        root: mirror.join("ubuntu"),
        signer: archive_key,
    };
    ubuntu.suite(
        "questing",
        &[("main", base.clone()), ("universe", vec![cbmc("6.7.0")])],
    );
    ubuntu.suite(
        "plucky",
        &[("main", base.clone()), ("universe", vec![cbmc("6.4.1")])],
    );

    (mirror, libc6)
}

/// A signing key made for one test in its own GnuPG home, and the public keyring that
/// `gpgv --keyring` reads.
struct Signer {
    home: std::path::PathBuf,
    keyring: std::path::PathBuf,
}

impl Signer {
    fn new(dir: &Path, name: &str) -> Signer {
        use std::os::unix::fs::PermissionsExt;
        let home = dir.join(format!("gnupg-{name}"));
        std::fs::create_dir(&home).unwrap();
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
        let signer = Signer {
            keyring: dir.join(format!("{name}.gpg")),
            home,
        };
        signer.gpg(&[
            "--passphrase",
            "",
            "--quick-gen-key",
            &format!("{name} <{name}@test.invalid>"),
            "ed25519",
            "sign",
            "never",
        ]);
        let exported = signer.gpg(&["--export"]);
        std::fs::write(&signer.keyring, exported).unwrap();
        signer
    }

    fn gpg(&self, args: &[&str]) -> Vec<u8> {
        let out = Command::new("gpg")
            .arg("--homedir")
            .arg(&self.home)
            .args(["--batch", "--yes", "--pinentry-mode", "loopback"])
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "gpg {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    fn clearsign(&self, input: &Path, output: &Path) {
        let (i, o) = (input.display().to_string(), output.display().to_string());
        self.gpg(&["--passphrase", "", "--output", &o, "--clearsign", &i]);
    }
}

impl Drop for Signer {
    fn drop(&mut self) {
        let _ = Command::new("gpgconf")
            .arg("--homedir")
            .arg(&self.home)
            .args(["--kill", "gpg-agent"])
            .output();
    }
}

/// A package of a fake archive: its .deb, name, version and Depends.
#[derive(Clone)]
struct Package {
    deb: std::path::PathBuf,
    name: String,
    version: String,
    depends: String,
}

impl Package {
    fn new(deb: std::path::PathBuf, name: &str, version: &str) -> Package {
        Package {
            deb,
            name: name.into(),
            version: version.into(),
            depends: String::new(),
        }
    }

    fn depends(mut self, depends: &str) -> Package {
        self.depends = depends.into();
        self
    }
}

/// A fake distribution archive under `root`, its suites signed by `signer`.
struct Archive<'a> {
    root: std::path::PathBuf,
    signer: &'a Signer,
}

impl Archive<'_> {
    /// Writes `dists/{suite}` (each component's `Packages.xz`, a signed `InRelease` listing
    /// their SHA-256) and puts the packages in `pool/{component}`.
    fn suite(&self, suite: &str, components: &[(&str, Vec<Package>)]) {
        let dists = self.root.join("dists").join(suite);
        let mut release = format!("Origin: test\nSuite: {suite}\nCodename: {suite}\nSHA256:\n");
        for (component, packages) in components {
            let pool = self.root.join("pool").join(component);
            std::fs::create_dir_all(&pool).unwrap();
            let mut index = String::new();
            for p in packages {
                let file = p.deb.file_name().unwrap().to_str().unwrap().to_string();
                std::fs::copy(&p.deb, pool.join(&file)).unwrap();
                let depends = if p.depends.is_empty() {
                    String::new()
                } else {
                    format!("Depends: {}\n", p.depends)
                };
                index += &format!(
                    "Package: {}\nVersion: {}\nArchitecture: amd64\n{depends}Filename: pool/{component}/{file}\nSHA256: {}\n\n",
                    p.name, p.version, sha256(&p.deb)
                );
            }
            let dir = dists.join(component).join("binary-amd64");
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("Packages"), index).unwrap();
            let xz = Command::new("xz")
                .args(["-kf"])
                .arg(dir.join("Packages"))
                .output()
                .unwrap();
            assert!(xz.status.success(), "{xz:?}");
            let packed = dir.join("Packages.xz");
            let size = std::fs::metadata(&packed).unwrap().len();
            release += &format!(
                " {} {size} {component}/binary-amd64/Packages.xz\n",
                sha256(&packed)
            );
        }
        std::fs::write(dists.join("Release"), release).unwrap();
        self.signer
            .clearsign(&dists.join("Release"), &dists.join("InRelease"));
    }
}

fn sha256(file: &Path) -> String {
    let out = Command::new("sha256sum").arg(file).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

/// Fake `apt-cache` (candidate `$FAKE_CANDIDATE`), `apt-get` (logs; `install` puts a `cbmc`
/// of that version in `bin`), `sudo` and `curl` (logs each URL; serves the files under
/// `$FAKE_MIRROR` for `http://mirror.invalid/`, `$FAKE_DEB` for another `.deb`, fails
/// otherwise) in `bin`.
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
             case \"$url\" in\n\
               http://mirror.invalid/*) f=\"$FAKE_MIRROR/${{url#http://mirror.invalid/}}\"; [ -f \"$f\" ] || exit 22; cp \"$f\" \"$out\";;\n\
               *.deb) cp \"$FAKE_DEB\" \"$out\";;\n\
               *) exit 22;;\n\
             esac\n",
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
    let program = format!("usr/bin/{name}");
    fake_deb(
        dir,
        name,
        version,
        &[(&program, &format!("echo {says}"))],
        deb,
    )
}

/// A Debian package `name` of `version` holding each `(path, shell text)` of `files` as an
/// executable script, built under `dir` as `deb`.
fn fake_deb(
    dir: &Path,
    name: &str,
    version: &str,
    files: &[(&str, &str)],
    deb: &str,
) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let pkg = dir.join(format!("{name}-{version}-pkg"));
    std::fs::create_dir_all(pkg.join("DEBIAN")).unwrap();
    std::fs::write(
        pkg.join("DEBIAN/control"),
        format!("Package: {name}\nVersion: {version}\nArchitecture: amd64\nMaintainer: test <t@t>\nDescription: fake\n"),
    )
    .unwrap();
    for (path, text) in files {
        let f = pkg.join(path);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(&f, format!("#!/bin/sh\n{text}\n")).unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o755)).unwrap();
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
    let sha = sha256(&deb);
    (deb, sha)
}
