//! Snapshot tests of `race` (after the passes up to `visible`, without `racefree`): the
//! instrumented items of each slot and the table of instrumented accesses
//! (`Program::sites`), on the minimal fixtures of `common::fixtures`.

use crate::common;

/// The passes up to `race`; each slot's instrumented items, then the sites.
fn check(src: &str) -> String {
    let (p, map) =
        common::passes_instrumenting_all(common::PTHREAD_PRELUDE, src, 2, common::PassId::Race)
            .unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"));
    format!("{}{}", common::show_code(&p), common::show_sites(&p, &map))
}

crate::fixture_snapshots!(check);

/// With the pair of `main`'s and `w`'s writes of `g` excluded (`Options::exclude`), C1's code
/// records the key of its write (`c1_write_key`, 0 for an access not excluded) and C2's
/// checks of those writes skip the other's key; every copy of an excluded access is
/// excluded, since the key is the source span.
#[test]
fn two_threads_write_a_global_with_the_pair_excluded() {
    use ladr_ir::program::Options;
    let src = common::fixtures::TWO_WRITERS;
    let opts = Options {
        unwind: 2,
        ..Options::default()
    };
    let (p, _) =
        common::passes_with(common::PTHREAD_PRELUDE, src, &opts, common::PassId::Race).unwrap();
    let writes: Vec<_> = p
        .sites
        .iter()
        .filter(|s| s.write && s.expr == "g")
        .map(|s| s.span.into())
        .collect();
    assert_eq!(writes.len(), 2);
    let opts = Options {
        exclude: vec![[writes[0], writes[1]]],
        ..opts
    };
    let (p, map) =
        common::passes_with(common::PTHREAD_PRELUDE, src, &opts, common::PassId::Race).unwrap();
    insta::assert_snapshot!(format!(
        "{}{}",
        common::show_code(&p),
        common::show_sites(&p, &map)
    ));
}

/// The shadow-memory calls get a pointer-typed object's address as `void ***` unless the
/// lvalue names a variable or a member of one: CBMC 6.6 matches an address of type `T **`
/// (T no pointer) with no array of non-pointers, so `names[i].str` had no flags. The
/// choice is made at compile time (`__builtin_choose_expr` on `__builtin_classify_type`),
/// so a non-pointer element (`names[i].id`) keeps its own address type.
#[test]
fn pointer_member_of_an_array_element() {
    insta::assert_snapshot!(check(
        r#"
struct name { int id; const char *str; };
struct name names[2];
const char *last;
void *w(void *a) { names[1].str = "x"; last = "y"; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  int i = names[0].id;
  last = names[i].str;
  return 0;
}
"#
    ));
}

/// A locked `asm` (`lock`, `xchg`) accesses its memory operands atomically (`w` only, and
/// checks `wna`); its register operands are plain accesses by the compiler's code around it.
#[test]
fn locked_asm_memory_operands_are_atomic() {
    insta::assert_snapshot!(check(
        r#"
int g;
int h;
void *w(void *a) {
  __asm__ volatile("lock; xchgl %0, %1" : "=r"(h), "+m"(g) : : "memory");
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  g = 1;
  return 0;
}
"#
    ));
}

/// A pointer to arrays is a pointer value; indexing it (or `*p`) gives an array, which
/// decays (no access), and only the element is an access: the race pass once read `p[i]` of
/// `int (*p)[4]` as a pointer value, a false race with `p[i][j]`'s writes
/// (`ladr_ir::analysis::Vars::array_depth`).
#[test]
fn pointers_to_arrays_index_into_arrays() {
    use lang_c::ast::{BlockItem, ExternalDeclaration, Statement};
    let parse = |src: &str| ladr_c::frontend::parse_text(src, "t.c").expect("parses").1;
    let decls =
        "typedef int row[4];\nint (*p)[4]; int (*q)[3][4]; row *r; int *s[4]; int a[2][4];\n";
    let v = ladr_ir::analysis::Vars::new(&parse(decls), &Default::default());
    let depth = |e: &str| {
        let unit = parse(&format!("void f(void) {{ {e}; }}"));
        let ExternalDeclaration::FunctionDefinition(f) = &unit.0[0].node else {
            panic!("{e}")
        };
        let Statement::Compound(items) = &f.node.statement.node else {
            panic!("{e}")
        };
        let BlockItem::Statement(s) = &items[0].node else {
            panic!("{e}")
        };
        let Statement::Expression(Some(x)) = &s.node else {
            panic!("{e}")
        };
        v.array_depth(&x.node)
    };
    assert_eq!(
        ["p", "p[1]", "*p", "p[1][2]", "q[0]", "q[0][1]", "r[1]", "r[1][2]", "s[1]", "a[1]"]
            .map(depth),
        [0, 1, 1, 0, 2, 1, 1, 0, 0, 1]
    );
}
