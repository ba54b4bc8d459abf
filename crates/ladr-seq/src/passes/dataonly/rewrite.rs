//! `dataonly`'s rewrite: in the slots' code, a store whose every target is a data-only
//! array keeps only the evaluation of its place and its value, `(void)(place, value)`; an
//! increment of one keeps its place's, and `__CPROVER_havoc_object` of one becomes `0`.
//! Only stores in effect position (an expression statement, the operands of a comma in
//! one) are touched: their value is not used. Of the value only its side effects stay
//! ([`effects_of`]: the race instrumentation of its reads): reading a data-only element
//! whose value nothing uses costs CBMC a selection over the whole object (DRB014's
//! 80000-byte block filled the SAT solver's memory at 2/2).

use super::cells::Cell;
use super::{Analysis, Scope};
use ladr_c::syntax::build::{callee_name, cast, int, type_name};
use ladr_c::syntax::walk::{has_side_effect, is_assign_op, is_inc_dec};
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashSet;

pub fn stmt(a: &mut Analysis, sliceable: &HashSet<Cell>, s: &mut Node<Statement>) {
    match &mut s.node {
        Statement::Labeled(l) => stmt(a, sliceable, &mut l.node.statement),
        Statement::Compound(items) => {
            for it in items {
                if let BlockItem::Statement(s) = &mut it.node {
                    stmt(a, sliceable, s);
                }
            }
        }
        Statement::If(i) => {
            stmt(a, sliceable, &mut i.node.then_statement);
            if let Some(e) = &mut i.node.else_statement {
                stmt(a, sliceable, e);
            }
        }
        Statement::Expression(Some(e)) => effect(a, sliceable, e),
        _ => {}
    }
}

fn effect(a: &mut Analysis, sliceable: &HashSet<Cell>, e: &mut Node<Expression>) {
    let sc = Scope::global();
    let span = e.span;
    let within =
        |objs: &super::cells::Set| !objs.is_empty() && objs.iter().all(|c| sliceable.contains(&c));
    let replacement = match &mut e.node {
        Expression::Comma(es) => {
            for e in es.iter_mut() {
                effect(a, sliceable, e);
            }
            None
        }
        Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
            let (objs, _) = a.place(&sc, &b.node.lhs, true);
            within(&objs).then(|| {
                // The place's own reads (an index, a pointer: `c[*j] += v` reads `j`) are
                // accesses too, instrumented inside it: they stay with the value's.
                let value = effects_of(&b.node.rhs);
                let kept = if has_side_effect(&b.node.lhs.node) {
                    let place = effects_of(&b.node.lhs);
                    Node::new(Expression::Comma(Box::new(vec![place, value])), span)
                } else {
                    value
                };
                cast(type_name(&[TypeSpecifier::Void], 0, span), kept, span)
            })
        }
        Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
            let (objs, _) = a.place(&sc, &u.node.operand, true);
            within(&objs).then(|| effects_of(&u.node.operand))
        }
        Expression::Call(c) if callee_name(&c.node) == Some(abi::HAVOC) => {
            let mut targets = super::cells::Set::new();
            for x in &c.node.arguments {
                targets.union_with(&a.value(&sc, x).addrs);
            }
            within(&targets).then(|| int(0, span))
        }
        // A print's values decide nothing (`super::PRINTS`; CBMC's `printf` reads only its
        // format): only their side effects stay.
        Expression::Call(c) => {
            let values_from = match callee_name(&c.node) {
                Some("printf") => 1,
                Some("fprintf") => 2,
                _ => usize::MAX,
            };
            for x in c.node.arguments.iter_mut().skip(values_from) {
                *x = effects_of(x);
            }
            None
        }
        _ => None,
    };
    if let Some(r) = replacement {
        *e = r;
    }
}

/// `e` evaluated for its side effects only, in its order: its side-effect-free parts
/// become `0` (through commas, casts, unary operators and binary operators but `&&` and
/// `||`, whose right operand runs only sometimes).
fn effects_of(e: &Node<Expression>) -> Node<Expression> {
    let span = e.span;
    if !has_side_effect(&e.node) {
        return int(0, span);
    }
    let node = match &e.node {
        Expression::Comma(es) => {
            let mut es = es.clone();
            if let Some(last) = es.last_mut() {
                *last = effects_of(last);
            }
            Expression::Comma(es)
        }
        Expression::Cast(c) => return effects_of(&c.node.expression),
        Expression::UnaryOperator(u) if !is_inc_dec(&u.node.operator.node) => {
            return effects_of(&u.node.operand)
        }
        Expression::BinaryOperator(b)
            if !is_assign_op(&b.node.operator.node)
                && !matches!(
                    b.node.operator.node,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                ) =>
        {
            Expression::Comma(Box::new(vec![
                effects_of(&b.node.lhs),
                effects_of(&b.node.rhs),
            ]))
        }
        _ => return e.clone(),
    };
    Node::new(node, span)
}
