//! Snapshot tests of `lazy`: the sequential program given to CBMC for the minimal fixtures
//! of `common::fixtures`, checked by gcc as a whole; the snapshots leave out the prelude
//! (`common::PTHREAD_PRELUDE`) and the pthread model, which never change.

use crate::common;

/// The whole pipeline but `racefree` (every shared access instrumented); the printed
/// program without prelude and model.
fn check(src: &str) -> String {
    let (p, _) =
        common::passes_instrumenting_all(common::PTHREAD_PRELUDE, src, 2, common::PassId::Lazy)
            .unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"));
    common::printed_without_model(common::PTHREAD_PRELUDE, &p)
        .unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"))
}

crate::fixture_snapshots!(check);

/// The vacuity query (`Options::vacuity_query`, issue 16): no race flags (the pipeline
/// skips `race`), one context of `main`, then one assertion that no thread slot is active;
/// the same assertion after each create of `main`, where an execution that created a thread
/// stops; the invariants hold after every pass.
#[test]
fn vacuity_query_runs_main_alone() {
    let src = "int x;\nvoid *w(void *a) { x = 1; return 0; }\n\
               int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); x = 2; return 0; }\n";
    let full = format!(
        "# 1 \"pthread.h\"\n{}\n# 1 \"test.c\"\n{src}",
        common::PTHREAD_PRELUDE
    );
    let (_, unit, _) = ladr_c::frontend::parse_text(&full, "test.c").expect("parses");
    let opts = ladr_ir::program::Options {
        vacuity_query: true,
        check_ir: true,
        rounds: 1,
        ..Default::default()
    };
    let p = ladr_seq::pipeline::translate(unit, &opts, ladr_seq::pipeline::Stage::Seq, |_, _| {})
        .expect("translates");
    let text = common::printed_without_model(common::PTHREAD_PRELUDE, &p).expect("gcc accepts");
    assert!(!text.contains(ladr_ir::abi::DRD), "{text}");
    insta::assert_snapshot!(text);
}

/// Block locals (issue 33): an inlined callee's local that no visible statement separates
/// from its other mentions (`r`) is declared in a block of the slot function, not at
/// file scope, so CBMC does not merge it at the slot's later labels; a local that lives
/// across a visible statement (`kept`) and one whose address is taken (`t`) stay `static`.
#[test]
fn locals_no_context_switch_separates_are_block_locals() {
    let src = "int x, y;\nstatic int six(void) { int r, s; y = 2; r = s + 1; return r; }\n\
               void *w(void *a) { int kept; int *p; int t; kept = x; y = 1; x = kept;\n\
               p = &t; *p = six(); return 0; }\n\
               int main(void) { pthread_t h; pthread_create(&h, 0, w, 0); return 0; }\n";
    let text = check(src);
    let declared = |name: &str, at_file_scope: bool| {
        text.lines().any(|l| {
            l.trim_start().starts_with("int ")
                && l.ends_with(&format!("_{name};"))
                && l.starts_with(' ') != at_file_scope
        }) || (at_file_scope
            && text
                .lines()
                .any(|l| l.starts_with("static int") && l.ends_with(&format!("_{name};"))))
    };
    for name in ["kept", "t"] {
        assert!(declared(name, true), "`{name}` at file scope:\n{text}");
        assert!(!declared(name, false), "`{name}` not in a block:\n{text}");
    }
    assert!(declared("r", false), "`r` in a block:\n{text}");
    assert!(!declared("r", true), "`r` not at file scope:\n{text}");
    insta::assert_snapshot!(text);
}
