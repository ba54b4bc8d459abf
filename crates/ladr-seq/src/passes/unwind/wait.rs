//! Loops that only wait (issue 33): `while (!flag);`, `while (!ready)
//! pthread_cond_wait(&cv, &m);`, a body of `sched_yield()` or sleeps. Their condition reads
//! and nothing else (no assignment, increment or call), and their body only waits or
//! reads. Such a loop is one copy and the exit condition assumed, `if (c) { body;
//! __CPROVER_assume(!c); }`, not U copies and a `loop` cut: every iteration but the last
//! changes no state (its reads and its wait, a mutex released and taken again, leave
//! everything as it was), and the context bound lets the last test run at any later
//! visible point, so the executions that leave the loop are all there; one that never
//! leaves it only reads, and those reads are the first test's.

use ladr_c::syntax::build::ident_name;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::{is_assign_op, Walk};
use lang_c::ast::*;
use lang_c::span::Node;
use std::convert::Infallible;

/// Calls a waiting loop's body may make: they wait, and write nothing the program reads
/// (a condition wait releases its mutex and takes it again; a spurious wake-up is allowed).
const WAITS: &[&str] = &[
    "pthread_cond_wait",
    "sched_yield",
    "pthread_yield",
    "usleep",
    "sleep",
];

/// `while (c) body` only waits: `c` only reads, the body only waits or reads.
pub(super) fn is_wait_loop(w: &Node<WhileStatement>) -> bool {
    only_reads(&w.node.expression) && waits_only(&w.node.statement)
}

fn waits_only(s: &Node<Statement>) -> bool {
    match &s.node {
        Statement::Compound(items) => items.iter().all(|it| match &it.node {
            BlockItem::Statement(s) => waits_only(s),
            _ => false,
        }),
        Statement::Expression(None) => true,
        Statement::Expression(Some(e)) => match &e.node {
            Expression::Call(c) => {
                ident_name(&c.node.callee).is_some_and(|f| WAITS.contains(&f))
                    && c.node.arguments.iter().all(only_reads)
            }
            _ => only_reads(e),
        },
        _ => false,
    }
}

/// `e` has no side effect: no assignment, increment, decrement, call or statement
/// expression.
fn only_reads(e: &Node<Expression>) -> bool {
    struct Effects(bool);
    impl Visitor for Effects {
        type Error = Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
            self.0 |= match &e.node {
                Expression::BinaryOperator(b) => is_assign_op(&b.node.operator.node),
                Expression::UnaryOperator(u) => matches!(
                    u.node.operator.node,
                    UnaryOperator::PreIncrement
                        | UnaryOperator::PreDecrement
                        | UnaryOperator::PostIncrement
                        | UnaryOperator::PostDecrement
                ),
                Expression::Call(_)
                | Expression::Statement(_)
                | Expression::VaArg(_)
                | Expression::CompoundLiteral(_) => true,
                _ => false,
            };
            Ok(Walk::Descend)
        }
    }
    let mut effects = Effects(false);
    let Ok(()) = visit::expr(&mut effects, e);
    !effects.0
}
