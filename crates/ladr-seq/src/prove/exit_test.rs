//! A claim loop's exit test (`worksharing`): `if (!(i < E [&& …])) { …; goto L; }`, the
//! range it gives the loop's variable for the rest of the body ([`exit_test`]), and the
//! end `E` it tests ([`tested_end`]).

use super::worksharing::{name_of, Claim};
use ladr_c::syntax::walk::visit;
use lang_c::ast::*;
use lang_c::span::Node;

/// `if (!(x < E [&& …])) …` (or `x <= E`): `x`, `E`, and 1 for `<=` (0 for `<`).
pub(super) fn tested_end(item: &Node<BlockItem>) -> Option<(&str, &Node<Expression>, i64)> {
    let BlockItem::Statement(s) = &item.node else {
        return None;
    };
    let Statement::If(t) = &s.node else {
        return None;
    };
    let Expression::UnaryOperator(u) = &t.node.condition.node else {
        return None;
    };
    if u.node.operator.node != UnaryOperator::Negate {
        return None;
    }
    let tested = match &u.node.operand.node {
        Expression::BinaryOperator(a) if a.node.operator.node == BinaryOperator::LogicalAnd => {
            &a.node.lhs
        }
        _ => &u.node.operand,
    };
    let Expression::BinaryOperator(b) = &tested.node else {
        return None;
    };
    // `x <= E` is `x < E + 1`.
    let closed = match b.node.operator.node {
        BinaryOperator::Less => 0,
        BinaryOperator::LessOrEqual => 1,
        _ => return None,
    };
    Some((name_of(&b.node.lhs)?, &b.node.rhs, closed))
}

/// The claim body's first statement `if (!(i < E [&& …])) { …; goto L; }` (`E` a constant,
/// possibly cast: [`super::collapse::widened`], or a name; `L` no label of the loop, a
/// positive step): its address, and `E`. After it, `i` is in `[lb, E)`: `k` is at least the
/// counter, never negative ([`super::bounds::counter_from_zero`]); `…`: the no-wrap test.
pub(super) fn exit_test(c: &Claim) -> Option<(usize, super::decls::ClaimEnd)> {
    let first = c.body.first()?;
    let BlockItem::Statement(s) = &first.node else {
        return None;
    };
    let Statement::If(t) = &s.node else {
        return None;
    };
    if c.step <= 0 || t.node.else_statement.is_some() {
        return None;
    }
    let (x, end, closed) = tested_end(first)?;
    if x != c.i {
        return None;
    }
    let print = |e: &Node<Expression>| ladr_c::print::expr_to_string(&e.node);
    let hi = match (super::collapse::widened(end), &end.node) {
        (Some(hi), _) => super::decls::ClaimEnd::Const(hi.checked_add(closed)?),
        (None, Expression::BinaryOperator(m))
            if m.node.operator.node == BinaryOperator::Multiply && closed == 0 =>
        {
            super::decls::ClaimEnd::Product(print(&m.node.lhs), print(&m.node.rhs))
        }
        _ => match super::invariant::name_offset(end) {
            Some((v, c)) => super::decls::ClaimEnd::Name(v.to_string(), c.checked_add(closed)?),
            // Any other end: the test still bounds `i` from below.
            None => super::decls::ClaimEnd::Unknown,
        },
    };
    let leaves = match &t.node.then_statement.node {
        Statement::Compound(items) => items.last().is_some_and(
            |i| matches!(&i.node, BlockItem::Statement(s) if matches!(s.node, Statement::Goto(_))),
        ),
        Statement::Goto(_) => true,
        _ => false,
    };
    let labels_inside = c.body.iter().any(|i| {
        let mut l = super::bounds::Labels(false);
        let _ = visit::block_item(&mut l, i);
        l.0
    });
    (leaves && !labels_inside).then_some((first as *const Node<BlockItem> as usize, hi))
}
