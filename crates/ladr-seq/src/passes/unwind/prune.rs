//! Dead code after `unwind`: statements behind a certain cut, a `goto` or a `return` are
//! removed (keeping what a label may reach), so no `pthread_create` behind one makes a slot.

use super::constants::constant;
use crate::normal_form::havoced_var;
use ladr_c::syntax::build::*;
use ladr_c::syntax::names;
use ladr_c::syntax::query;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// Removes statements that cannot run because an earlier statement of their block never
/// completes (`__CPROVER_assume(0)` — a certain cut —, `goto`, `return`, or a block or
/// `if` all of whose ways end so). A statement containing a label is kept (a goto may
/// reach it) and makes the rest live again; a dead declaration is kept, with its N4 havoc,
/// only when a label follows it in its block (otherwise no code can use it). Returns true
/// if `s`
/// never completes. This keeps `pthread_create` calls behind a certain cut from becoming
/// thread slots.
pub(super) fn prune(s: &mut Node<Statement>) -> bool {
    match &mut s.node {
        Statement::Compound(items) => {
            let labelled: Vec<bool> = items
                .iter()
                .map(|it| matches!(&it.node, BlockItem::Statement(st) if has_label(st)))
                .collect();
            // Declarations after the block's last label: dead ones go with their havoc (N4).
            let last_label = labelled.iter().rposition(|l| *l);
            let mut dead = false;
            // Dead declarations kept (a label follows) keep N4: the havoc, or the assignment
            // that stood for it, of each becomes (stays) `__CPROVER_havoc_object(&x);`.
            let mut kept: HashSet<String> = HashSet::new();
            let mut k = 0;
            items.retain_mut(|it| {
                let at = k;
                k += 1;
                match &mut it.node {
                    BlockItem::Statement(st) => {
                        if dead && !labelled[at] {
                            let Some(x) = defined_by(st).filter(|x| kept.contains(*x)) else {
                                return false;
                            };
                            let x = x.to_string();
                            let sp = st.span;
                            *st = expr_stmt(call(abi::HAVOC, vec![addr(ident(&x, sp), sp)], sp));
                            kept.remove(&x);
                            return true;
                        }
                        if labelled[at] {
                            dead = false;
                        }
                        if prune(st) {
                            dead = true;
                        }
                        true
                    }
                    BlockItem::Declaration(d) if dead => {
                        if last_label.is_none_or(|l| l < at) {
                            return false;
                        }
                        kept.extend(
                            d.node
                                .declarators
                                .iter()
                                .filter_map(|id| declarator_name(&id.node.declarator.node))
                                .filter(|x| !names::is_temporary(x))
                                .map(String::from),
                        );
                        true
                    }
                    _ => !(dead && last_label.is_none_or(|l| l < at)),
                }
            });
            dead
        }
        Statement::Labeled(l) => prune(&mut l.node.statement),
        Statement::If(i) => {
            let t = prune(&mut i.node.then_statement);
            let e = i.node.else_statement.as_mut().is_some_and(|e| prune(e));
            t && e
        }
        Statement::Goto(_) | Statement::Return(_) => true,
        Statement::Expression(Some(e)) => match &e.node {
            Expression::Call(c) => {
                callee_name(&c.node) == Some(abi::ASSUME)
                    && c.node.arguments.len() == 1
                    && constant(&c.node.arguments[0], &HashMap::new()) == Some(0)
            }
            _ => false,
        },
        _ => false,
    }
}

/// The variable `s` gives its first value to by N4: `__CPROVER_havoc_object(&x);` or
/// `x = e;`.
fn defined_by(s: &Node<Statement>) -> Option<&str> {
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    match &e.node {
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
            ident_name(&b.node.lhs)
        }
        e => havoced_var(e),
    }
}

/// Does `s` contain a labeled statement (a possible goto target)?
fn has_label(s: &Node<Statement>) -> bool {
    query::any_stmt(s, query::InExpressions::Skip, |s| {
        matches!(s.node, Statement::Labeled(_))
    })
}
