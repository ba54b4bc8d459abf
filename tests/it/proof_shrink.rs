//! The static proof's verdicts on single objects in the bounded program
//! (`Options::proof_facts`, `Program::proved`; issue 30 item 2): a proved object's
//! accesses are not instrumented, a statement touching only proved objects without atomic
//! accesses is not visible, an atomic one stays visible.

use crate::common;
use ladr_ir::program::{Item, Options, Program};
use ladr_seq::pipeline::{translate, Stage};

const SRC: &str = r#"
struct account { pthread_mutex_t m; int balance; } acct;
_Atomic int flag;
int result;
void *w(void *a) {
  pthread_mutex_lock(&acct.m);
  acct.balance = 1;
  pthread_mutex_unlock(&acct.m);
  flag = 1;
  result = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_mutex_lock(&acct.m);
  acct.balance = 2;
  pthread_mutex_unlock(&acct.m);
  int f = flag;
  result = 2;
  pthread_join(t, 0);
  return f;
}
"#;

fn seq(proof_facts: bool) -> Program {
    let full = format!(
        "# 1 \"pthread.h\"\n{}\n# 1 \"test.c\"\n{SRC}",
        common::PTHREAD_PRELUDE
    );
    let (_, unit, _) = ladr_c::frontend::parse_text(&full, "test.c").unwrap();
    let opts = Options {
        proof_facts,
        check_ir: true,
        ..Options::default()
    };
    translate(unit, &opts, Stage::Seq, |_, _| {}).unwrap()
}

/// The lvalues of the instrumented accesses, sorted.
fn sites(p: &Program) -> Vec<String> {
    let mut s: Vec<String> = p.sites.iter().skip(1).map(|s| s.expr.clone()).collect();
    s.sort();
    s.dedup();
    s
}

/// Is a statement of some slot that prints as containing `text` visible (none: no such
/// statement)?
fn visible(p: &Program, text: &str) -> Option<bool> {
    p.code
        .iter()
        .flat_map(|c| &c.items)
        .find_map(|it| match it {
            Item::Visible { stmt, .. }
                if ladr_c::print::statement_to_string(&stmt.node).contains(text) =>
            {
                Some(true)
            }
            Item::Plain(stmt) if ladr_c::print::statement_to_string(&stmt.node).contains(text) => {
                Some(false)
            }
            _ => None,
        })
}

#[test]
fn proved_objects_are_not_instrumented_and_plain_ones_not_visible() {
    let with = seq(true);
    assert_eq!(
        with.proved.plain.iter().collect::<Vec<_>>(),
        vec!["acct"],
        "{:?}",
        with.proved
    );
    assert_eq!(with.proved.visible.iter().collect::<Vec<_>>(), vec!["flag"]);
    assert_eq!(sites(&with), vec!["result"]);
    assert_eq!(visible(&with, "balance = 1"), Some(false));
    assert_eq!(visible(&with, "balance = 2"), Some(false));
    // Atomic: may order other threads' accesses, stays a point of a context switch.
    assert_eq!(visible(&with, "flag = 1"), Some(true));
    assert_eq!(visible(&with, "result = 1"), Some(true));

    let without = seq(false);
    assert!(without.proved.plain.is_empty() && without.proved.visible.is_empty());
    assert_eq!(sites(&without), vec!["acct.balance", "flag", "result"]);
    assert_eq!(visible(&without, "balance = 1"), Some(true));
    let size = |p: &Program| p.code.iter().map(|c| c.size).sum::<u32>();
    assert!(size(&with) < size(&without));
}
