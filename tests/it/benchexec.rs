//! The BenchExec tool-info module (`contrib/benchexec/ladr.py`) works with this ladr:
//! runs `scripts/test-benchexec`, which installs BenchExec into `.tools/benchexec-venv` on
//! first use (needs the Python package index pip is configured with).

use std::process::Command;

#[test]
fn benchexec_tool_info_module() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/test-benchexec");
    let out = Command::new(script)
        .env("LADR", env!("CARGO_BIN_EXE_ladr"))
        .output()
        .expect("scripts/test-benchexec runs");
    assert!(
        out.status.success(),
        "scripts/test-benchexec failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
