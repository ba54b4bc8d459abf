//! Synchronisation (C11 5.1.2.4) and the phase flags of `race`: which visible statements
//! may synchronise (a release or an acquire), `P1`/`P2` in front of an instrumented
//! statement, and where C1 ends and C2 stops checking.

use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi::{self, C1_SITE, C2_SYNC, P1, P2, RELEASED};
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

/// `__CPROVER_assume(!(dr0 && !dr1 && c1_site))`, in front of a statement that may be a
/// release: C1 sets no flag before such a statement of its own (a release after the
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

/// `c2_sync = c2_sync || dr1 && released;`, in front of a statement that may be an acquire
/// (after the phase flags, so that the statement's own accesses are still checked): C2's
/// later accesses may be ordered after C1's by it, if a release came after C1's access.
/// No release comes between C1's access and C2's start ([`c1_ends_before`]); one after it
/// sets `released` ([`released_after`]). Without one, the acquire reads from no release
/// that follows C1's access, and orders nothing after it (C11 5.1.2.4): an acquiring
/// test-and-set after a plain unlocking store still races.
pub(super) fn c2_ends_after(span: Span) -> Node<Statement> {
    let acquired = and(ident(abi::DR1, span), ident(RELEASED, span), span);
    expr_stmt(assign(
        ident(C2_SYNC, span),
        or(ident(C2_SYNC, span), acquired, span),
        span,
    ))
}

/// `released = released || dr1;`, in front of a statement that may be a release (after
/// [`c2_ends_after`]: its own acquire reads from an earlier release).
pub(super) fn released_after(span: Span) -> Node<Statement> {
    expr_stmt(assign(
        ident(RELEASED, span),
        or(ident(RELEASED, span), ident(abi::DR1, span), span),
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

/// The memory order `e` names: `__ATOMIC_RELAXED` 0, `CONSUME` 1, `ACQUIRE` 2, `RELEASE` 3,
/// `ACQ_REL` 4, `SEQ_CST` 5 (gcc's numbers, or stdatomic's `memory_order_*`).
fn memory_order(e: &Node<Expression>) -> Option<u64> {
    match &e.node {
        Expression::Identifier(i) => match i.node.name.as_str() {
            "memory_order_relaxed" => Some(0),
            "memory_order_consume" => Some(1),
            "memory_order_acquire" => Some(2),
            "memory_order_release" => Some(3),
            "memory_order_acq_rel" => Some(4),
            "memory_order_seq_cst" => Some(5),
            _ => None,
        },
        Expression::Cast(c) => memory_order(&c.node.expression),
        other => constant::int_literal(other),
    }
}

/// How an `__atomic_*` builtin call `c` may synchronise, from its memory orders (the last
/// argument, and for a compare-and-exchange the last two); `None` for any other call or an
/// order that is not a constant. A relaxed operation orders nothing (C11 5.1.2.4); an
/// acquire (or consume) only orders what its thread does after it, a release only what its
/// thread did before it.
fn atomic_synchronisation(c: &CallExpression) -> Option<Synchronisation> {
    let name = callee_name(c)?;
    if !name.starts_with("__atomic_") {
        return None;
    }
    let orders = if name.starts_with("__atomic_compare_exchange") {
        2
    } else {
        1
    };
    let args = &c.arguments;
    if args.len() < orders {
        return None;
    }
    let mut sync = Synchronisation::NONE;
    for order in &args[args.len() - orders..] {
        let o = memory_order(order)?;
        sync.acquire |= matches!(o, 1 | 2 | 4 | 5);
        sync.release |= matches!(o, 3..=5);
        if o > 5 {
            return None;
        }
    }
    Some(sync)
}

/// How a visible statement may synchronise with another thread (C11 5.1.2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Synchronisation {
    /// It may be a release: what its thread did before it may be ordered before what
    /// another thread does after a matching acquire.
    pub(super) release: bool,
    /// It may be an acquire: what its thread does after it may be ordered after what
    /// another thread did before a matching release.
    pub(super) acquire: bool,
}

impl Synchronisation {
    const NONE: Synchronisation = Synchronisation {
        release: false,
        acquire: false,
    };
    const BOTH: Synchronisation = Synchronisation {
        release: true,
        acquire: true,
    };
}

/// How the visible statement `s` may synchronise with another thread. Conservatively as
/// a release and an acquire for an atomic section, inline assembly, an access of an
/// `_Atomic` object by a plain operator (sequentially consistent) and any call but the
/// `__atomic_*` builtins with constant orders ([`atomic_synchronisation`]) and
/// [`never_synchronises`]; plain accesses and relaxed atomic operations do not synchronise
/// (C11 5.1.2.4), so a race ordered only by them is reported.
pub(super) fn synchronisation(
    s: &Node<Statement>,
    atomic_section: bool,
    vars: &Vars,
) -> Synchronisation {
    struct SynchronisationFinder<'a> {
        vars: &'a Vars,
        found: Synchronisation,
    }
    impl Visitor for SynchronisationFinder<'_> {
        /// Found a statement that may be both a release and an acquire.
        type Error = ();
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, ()> {
            match &s.node {
                Statement::Asm(_) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            match &e.node {
                Expression::Call(c) => {
                    if let Some(sync) = atomic_synchronisation(&c.node) {
                        self.found.release |= sync.release;
                        self.found.acquire |= sync.acquire;
                        return Ok(Walk::Skip);
                    }
                    if callee_name(&c.node).is_some_and(never_synchronises) {
                        Ok(Walk::Descend)
                    } else {
                        Err(())
                    }
                }
                // An address is no access.
                Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                    Ok(Walk::Skip)
                }
                Expression::Identifier(_) | Expression::Member(_) => lvalue(self.vars, e),
                Expression::UnaryOperator(u)
                    if u.node.operator.node == UnaryOperator::Indirection =>
                {
                    lvalue(self.vars, e)
                }
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                    lvalue(self.vars, e)
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
    if atomic_section {
        return Synchronisation::BOTH;
    }
    let mut finder = SynchronisationFinder {
        vars,
        found: Synchronisation::NONE,
    };
    match visit::stmt(&mut finder, s) {
        Err(()) => Synchronisation::BOTH,
        Ok(()) => finder.found,
    }
}
