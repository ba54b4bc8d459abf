//! Synchronisation (C11 5.1.2.4) and the phase flags of `race`: which visible statements
//! may synchronise (a release or an acquire), `P1`/`P2` in front of an instrumented
//! statement, and where C1 ends and C2 stops checking.

use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi::{self, C1_SITE, C2_SYNC, P1, P2};
use ladr_ir::analysis::Vars;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// `P1 = dr0 && !dr1; P2 = dr1 && !c2_sync;`: in C1, any statement's access may be the
/// one that sets flags (a later statement of C1 that may synchronise rules it out,
/// [`c1_ends_before`]); in C2, every access before the first statement that may
/// synchronise ([`c2_ends_after`]) checks them.
pub(super) fn phase_flags(span: Span) -> Vec<Node<Statement>> {
    let p1 = in_c1(span);
    let p2 = and(ident(abi::DR1, span), not(ident(C2_SYNC, span), span), span);
    vec![
        expr_stmt(assign(ident(P1, span), p1, span)),
        expr_stmt(assign(ident(P2, span), p2, span)),
    ]
}

/// `__CPROVER_assume(!(dr0 && !dr1 && c1_site))`, in front of a statement that may
/// synchronise: C1 sets no flag before such a statement of its own (a release after the
/// access would order it before what another thread does after the matching acquire).
pub(super) fn c1_ends_before(span: Span) -> Node<Statement> {
    let picked = and(in_c1(span), ident(C1_SITE, span), span);
    assume(not(picked, span), span)
}

/// `dr0 && !dr1`: the context running is C1.
fn in_c1(span: Span) -> Node<Expression> {
    and(
        ident(abi::DR0, span),
        not(ident(abi::DR1, span), span),
        span,
    )
}

/// `c2_sync = c2_sync || dr1;`, in front of a statement that may synchronise (after the
/// phase flags, so that the statement's own accesses are still checked): C2's later
/// accesses may be ordered after C1's by it (an acquire).
pub(super) fn c2_ends_after(span: Span) -> Node<Statement> {
    expr_stmt(assign(
        ident(C2_SYNC, span),
        or(ident(C2_SYNC, span), ident(abi::DR1, span), span),
        span,
    ))
}

/// Calls that never synchronise: ladr's assumptions, havoc and nondeterministic values.
fn never_synchronises(name: &str) -> bool {
    name == abi::ASSUME
        || name == abi::HAVOC
        || name == "__VERIFIER_assume"
        || name.starts_with(abi::NONDET_PREFIX)
}

/// Is `e` the memory order `__ATOMIC_RELAXED` (0, or stdatomic's `memory_order_relaxed`)?
fn relaxed(e: &Node<Expression>) -> bool {
    match &e.node {
        Expression::Identifier(i) => i.node.name == "memory_order_relaxed",
        Expression::Cast(c) => relaxed(&c.node.expression),
        other => constant::int_literal(other) == Some(0),
    }
}

/// Is `c` an `__atomic_*` builtin whose memory orders are all relaxed (C11 5.1.2.4: a
/// relaxed operation is atomic but orders nothing)? The orders are the last argument, and
/// for a compare-and-exchange the last two.
fn relaxed_atomic(c: &CallExpression) -> bool {
    let Some(name) = callee_name(c) else {
        return false;
    };
    if !name.starts_with("__atomic_") {
        return false;
    }
    let orders = if name.starts_with("__atomic_compare_exchange") {
        2
    } else {
        1
    };
    let args = &c.arguments;
    args.len() >= orders && args[args.len() - orders..].iter().all(relaxed)
}

/// May the visible statement `s` synchronise with another thread (a release or an
/// acquire)? Conservatively yes for an atomic section, inline assembly, an access of an
/// `_Atomic` object by a plain operator (sequentially consistent) and any call but the
/// relaxed `__atomic_*` builtins and [`never_synchronises`]; plain accesses and relaxed
/// atomic operations do not (C11 5.1.2.4), so a race ordered only by them is reported.
pub(super) fn synchronises(s: &Node<Statement>, atomic_section: bool, vars: &Vars) -> bool {
    struct SynchronisationFinder<'a>(&'a Vars);
    impl Visitor for SynchronisationFinder<'_> {
        /// Found one.
        type Error = ();
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, ()> {
            match &s.node {
                Statement::Asm(_) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            match &e.node {
                Expression::Call(c) if relaxed_atomic(&c.node) => Ok(Walk::Skip),
                Expression::Call(c) if callee_name(&c.node).is_some_and(never_synchronises) => {
                    Ok(Walk::Descend)
                }
                Expression::Call(_) => Err(()),
                // An address is no access.
                Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                    Ok(Walk::Skip)
                }
                Expression::Identifier(_) | Expression::Member(_) => lvalue(self.0, e),
                Expression::UnaryOperator(u)
                    if u.node.operator.node == UnaryOperator::Indirection =>
                {
                    lvalue(self.0, e)
                }
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                    lvalue(self.0, e)
                }
                _ => Ok(Walk::Descend),
            }
        }
    }
    /// An access of an `_Atomic` object by a plain operator is sequentially consistent.
    fn lvalue(vars: &Vars, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
        if vars.is_atomic(&e.node) {
            Err(())
        } else {
            Ok(Walk::Descend)
        }
    }
    atomic_section || visit::stmt(&mut SynchronisationFinder(vars), s).is_err()
}
