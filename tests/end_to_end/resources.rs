//! Resources and signals (issue 28, items 12, 14, 15): inputs nested too deeply for the
//! parser, signals and a killed ladr, and a `--jobs` larger than the machine holds.

use super::cli::Sandbox;
use serde_json::Value;

/// 200 000 nested parentheses or prefix minuses overflowed the stack (exit 134, no
/// document): now a located "too deeply nested" error, exit 2, in every format.
#[test]
fn deep_nesting_is_a_located_error_not_a_stack_overflow() {
    let s = Sandbox::new();
    let n = 200_000;
    s.write(
        "parens.c",
        &format!(
            "int y;\nint x = {}1{};\nint main(void) {{ return x; }}\n",
            "(".repeat(n),
            ")".repeat(n)
        ),
    );
    s.write(
        "minus.c",
        &format!(
            "int y;\nint main(void) {{\n  y = {}1;\n  return y;\n}}\n",
            "- ".repeat(n)
        ),
    );
    // The first character beyond 1000 levels (`main`'s brace is one of them).
    for (file, line, column) in [("parens.c", 2, 9 + 1000), ("minus.c", 3, 7 + 2 * 999)] {
        let r = s.run(&[file, "--format", "json"]);
        assert_eq!(r.code, 2, "{file}: {}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(v["verdict"], "error", "{file}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("too deeply nested"),
            "{file}: {v}"
        );
        assert_eq!(v["error"]["location"]["line"], line, "{file}: {v}");
        assert_eq!(v["error"]["location"]["column"], column, "{file}: {v}");
        let r = s.run(&[file]);
        assert_eq!(r.code, 2, "{file}: {}", r.stderr);
        assert!(r.stderr.contains("too deeply nested"), "{}", r.stderr);
    }
}
