//! The GNU C of gcc's and glibc's own headers and of real projects (issue 33, issue 27
//! items 8 and 10): every standard, POSIX and common gcc header at once (`omp.h`, the x86
//! intrinsics), attributes in each position gcc accepts, K&R definitions, zero-width
//! bit-fields.

use super::{free, racy, racy_one_of};
use std::process::Command;

/// The headers `header_soup_*.c` includes that this machine lacks (each is behind
/// `__has_include` there, so the check still runs): said loudly, not silently skipped.
fn missing_headers() -> Vec<String> {
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/header_soup_racy.c"),
    )
    .expect("read the header soup");
    let probe: String = src
        .lines()
        .filter_map(|l| l.strip_prefix("#include <")?.strip_suffix('>'))
        .map(|h| format!("#if !__has_include(<{h}>)\nmissing {h}\n#endif\n"))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("probe.c");
    std::fs::write(&path, probe).unwrap();
    let out = Command::new("gcc")
        .arg("-E")
        .arg("-P")
        .arg(&path)
        .output()
        .expect("gcc -E");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("missing ").map(str::to_string))
        .collect()
}

#[test]
fn every_system_header_parses_links_and_answers() {
    let missing = missing_headers();
    if !missing.is_empty() {
        eprintln!(
            "WARNING: this machine lacks {} of the headers of header_soup_racy.c, checked \
             without them: {}",
            missing.len(),
            missing.join(" ")
        );
    }
    for must in ["pthread.h", "stdio.h", "stdatomic.h"] {
        assert!(!missing.iter().any(|m| m == must), "{must} is missing");
    }
    racy("header_soup_racy.c", (253, 257));
    free("header_soup_free.c");
}

#[test]
fn attributes_extension_and_builtins_of_gnu_c() {
    // `c.n` is read (statement expression) and written in the worker; either races.
    racy_one_of("gnu_syntax_racy.c", &[(11, 23), (17, 23)]);
    free("gnu_syntax_free.c");
}

#[test]
fn knr_definitions_are_inlined() {
    racy("knr_racy.c", (8, 14));
    free("knr_free.c");
}

/// `int : 0;` ends a memory location: `a` and `b` do not race, two writes of `a` do (and
/// CBMC no longer aborts on the struct in its trace).
#[test]
fn zero_width_bit_field_separates_memory_locations() {
    racy("zero_width_bit_field_racy.c", (3, 7));
    free("zero_width_bit_field_free.c");
}

/// A member name that is a bit-field in one struct and an ordinary member in another
/// (`flags` of Linux's `struct _ddebug` and `wait_queue_t`): the ordinary member's flags are
/// on its own address (CBMC refused `&x.format + 1` on the struct without `format`), the
/// bit-field's after the member before it.
#[test]
fn member_named_like_a_bit_field_elsewhere() {
    racy("member_name_bit_field_elsewhere_racy.c", (6, 10));
    free("member_name_bit_field_elsewhere_free.c");
}

/// Issue 27 item 10: a zero-width bit-field after named members of plain types (its run's
/// place computed from their sizes): the run after it is its own memory location.
#[test]
fn zero_width_bit_field_after_named_members() {
    racy("zero_width_after_member_racy.c", (3, 7));
    free("zero_width_after_member_free.c");
}

/// Two units that include the same system headers under different feature macros:
/// `intptr_t` is `long int` in one and `__intptr_t` in the other (the same type), and
/// `fd_set` has `fds_bits` in one and `__fds_bits` in the other (typedef names have no
/// linkage: renamed apart). They link, and the race between them is found.
#[test]
fn units_with_different_feature_macros_link() {
    let (code, out, err) = super::ladr(&[
        "tests/data/link/worker.c",
        "tests/data/link/main_racy.c",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let lines: Vec<_> = v["races"][0]["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["line"].as_u64().unwrap())
        .collect();
    assert!(lines.contains(&7) && lines.contains(&12), "{out}");
    let (code, out, err) =
        super::ladr(&["tests/data/link/worker.c", "tests/data/link/main_free.c"]);
    assert_eq!(code, 0, "{out}{err}");
}

/// GNU C that lang-c cannot read is refused with its name and location, not as a bare
/// syntax error: a computed goto (a coroutine library's `goto *ctx->label`).
#[test]
fn computed_goto_is_a_located_unsupported_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coroutine.c");
    std::fs::write(
        &path,
        "struct cr { void *label; };\n\
         void step(struct cr *ctx)\n\
         {\n\
         \x20   if (ctx->label)\n\
         \x20       goto *ctx->label;\n\
         }\n",
    )
    .unwrap();
    let (code, _, err) = super::ladr(&[path.to_str().unwrap(), "--emit", "parsed"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("computed goto `goto *expression`"), "{err}");
    assert!(err.contains("coroutine.c:5:"), "{err}");
}

/// A temporary whose type is `__typeof__` of a statement expression stays in its block (made
/// static there); one whose type names that temporary (`__typeof__(__builtin_expect(t & 1,
/// 0))`) stays with it: hoisted to file scope it came before its declaration and CBMC
/// refused the program ("failed to find symbol", thmap's `atomic_load_explicit` under
/// `__predict_false`).
#[test]
fn typeof_naming_a_statement_expression_temporary() {
    racy("typeof_of_statement_expression_racy.c", (8, 15));
    free("typeof_of_statement_expression_free.c");
}
