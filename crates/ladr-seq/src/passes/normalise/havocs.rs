//! N4's havoc of an uninitialised local, dropped again where the next statement that
//! mentions the local overwrites all of it ([`DropOverwrittenHavocs`]).

use crate::normal_form::havoced_var;
use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::visit_mut::VisitorMut;
use ladr_c::syntax::walk::{mentions, Walk};
use lang_c::ast::*;
use lang_c::span::Node;
use std::convert::Infallible;

/// Removes N4's `__CPROVER_havoc_object(&x);` when the next statement of the block that
/// mentions `x` assigns all of it (`x = e;`, `e` without `x`) and only declarations and
/// expression statements come between: every path overwrites the arbitrary value unread.
/// The havoc is not free: after lazy sequentialisation a context may end between the two,
/// so CBMC merges the arbitrary value into `x`'s value set, and a pointer that may point
/// anywhere makes every later access through it expensive.
pub(super) struct DropOverwrittenHavocs;

impl VisitorMut for DropOverwrittenHavocs {
    type Error = Infallible;
    fn stmt(&mut self, s: &mut Node<Statement>) -> std::result::Result<Walk, Infallible> {
        if let Statement::Compound(items) = &mut s.node {
            let mut k = 0;
            while k < items.len() {
                let first = havoced_name(&items[k]).or_else(|| {
                    k.checked_sub(1)
                        .and_then(|j| null_pointer_start(&items[j], &items[k]))
                });
                match first {
                    Some(x) if overwritten_next(&items[k + 1..], x) => {
                        items.remove(k);
                    }
                    _ => k += 1,
                }
            }
        }
        Ok(Walk::Descend)
    }
    fn expr(&mut self, _e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
        Ok(Walk::Skip)
    }
}

/// `x` for the statement `__CPROVER_havoc_object(&x);`.
fn havoced_name(it: &Node<BlockItem>) -> Option<&str> {
    match &it.node {
        BlockItem::Statement(s) => match &s.node {
            Statement::Expression(Some(e)) => havoced_var(&e.node),
            _ => None,
        },
        _ => None,
    }
}

/// `x` when `item` is `x = 0;` right after the declaration `decl` of the pointer `x`: the
/// null start N4 gives an uninitialised pointer (see `Normaliser::declaration`).
fn null_pointer_start<'a>(decl: &Node<BlockItem>, item: &'a Node<BlockItem>) -> Option<&'a str> {
    let BlockItem::Declaration(d) = &decl.node else {
        return None;
    };
    let BlockItem::Statement(s) = &item.node else {
        return None;
    };
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    let Expression::BinaryOperator(b) = &e.node else {
        return None;
    };
    let (Expression::Identifier(x), Expression::Constant(c)) = (&b.node.lhs.node, &b.node.rhs.node)
    else {
        return None;
    };
    let zero = matches!(&c.node, Constant::Integer(i) if i.number.as_ref() == "0");
    let declares = d.node.declarators.iter().any(|i| {
        declarator_name(&i.node.declarator.node) == Some(x.node.name.as_str())
            && is_pointer_declarator(&i.node.declarator.node)
            && i.node.initializer.is_none()
    });
    (b.node.operator.node == BinaryOperator::Assign && zero && declares).then_some(&x.node.name)
}

/// See [`DropOverwrittenHavocs`].
fn overwritten_next(rest: &[Node<BlockItem>], x: &str) -> bool {
    for it in rest {
        let BlockItem::Statement(s) = &it.node else {
            continue; // declarations have no initialiser (N4) that could read `x`
        };
        match &s.node {
            Statement::Expression(None) => {}
            Statement::Expression(Some(_)) if havoced_name(it) == Some(x) => {}
            Statement::Expression(Some(e)) => {
                if let Expression::BinaryOperator(b) = &e.node {
                    if b.node.operator.node == BinaryOperator::Assign
                        && matches!(&b.node.lhs.node, Expression::Identifier(i) if i.node.name == x)
                    {
                        return !mentions(&expr_stmt((*b.node.rhs).clone()), &[x]);
                    }
                }
                if mentions(s, &[x]) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    false
}
