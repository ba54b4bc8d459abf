//! Dead code after `unwind`: statements behind a certain cut, a `goto` or a `return`, and
//! the branch a constant condition never takes, are removed (keeping what a goto that can run
//! may reach), so no `pthread_create` behind one makes a slot.

use super::constants::constant;
use crate::normal_form::havoced_var;
use ladr_c::syntax::build::*;
use ladr_c::syntax::names;
use ladr_c::syntax::query;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// Removes statements that cannot run: those behind a statement of their block that never
/// completes (`__CPROVER_assume(0)` — a certain cut —, `goto`, `return`, or a block or `if`
/// all of whose ways end so), and the branch of an `if` whose condition is an integer
/// constant expression and never takes it (`if (!DEBUG) return;` with `DEBUG` a macro:
/// what follows is dead). A label revives the code from it on only when a goto that can run
/// targets it: after `unwind` every goto jumps forward, so one pass in textual order has
/// seen every goto to a label before it reaches the label (a backward goto left over is
/// refused right after this pass). A dead declaration is kept, with its N4 havoc, only when
/// a label follows it in its block (code after the label may use it). Returns true if `s`
/// never completes. This keeps `pthread_create` calls behind a certain cut from becoming
/// thread slots, and dead code from becoming visible statements and resumption points.
/// `known`: the constant globals the function may read ([`super::constants::foldable_globals`]
/// less its locals), so `if (verbosity >= 3)` is a constant condition too.
pub(super) fn prune(s: &mut Node<Statement>, known: &HashMap<String, i128>) -> bool {
    !Pruner {
        reached: HashSet::new(),
        known,
    }
    .stmt(s, true)
}

/// The labels that a goto in code that can run targets, gathered in textual order.
struct Pruner<'a> {
    reached: HashSet<String>,
    /// The constant globals and their values.
    known: &'a HashMap<String, i128>,
}

impl Pruner<'_> {
    /// Prunes `s`, entered at its start when `entry`; whether control can leave its end.
    fn stmt(&mut self, s: &mut Node<Statement>, entry: bool) -> bool {
        match &mut s.node {
            Statement::Compound(items) => self.block(items, entry),
            Statement::Labeled(l) => {
                let revives = match &l.node.label.node {
                    Label::Identifier(i) => self.reached.contains(&i.node.name),
                    _ => true,
                };
                self.stmt(&mut l.node.statement, entry || revives)
            }
            Statement::If(i) => {
                let value = constant(&i.node.condition, self.known);
                let then_entry = entry && value != Some(0);
                let else_entry = entry && value.is_none_or(|v| v == 0);
                let t = self.branch(&mut i.node.then_statement, then_entry);
                let e = match i.node.else_statement.as_mut() {
                    Some(e) => self.branch(e, else_entry),
                    None => else_entry,
                };
                t || e
            }
            Statement::Goto(l) => {
                if entry {
                    self.reached.insert(l.node.name.clone());
                }
                false
            }
            Statement::Return(_) => false,
            Statement::Expression(Some(e)) => match &e.node {
                Expression::Call(c)
                    if callee_name(&c.node) == Some(abi::ASSUME)
                        && c.node.arguments.len() == 1
                        && constant(&c.node.arguments[0], self.known) == Some(0) =>
                {
                    false
                }
                _ => entry,
            },
            // Loops and switches do not survive `unwind`; should one, every goto in it counts.
            _ => {
                let inside = entry || has_label(s);
                if inside {
                    query::for_each_stmt(s, query::InExpressions::Skip, |g| {
                        if let Statement::Goto(l) = &g.node {
                            self.reached.insert(l.node.name.clone());
                        }
                    });
                }
                inside
            }
        }
    }

    /// An `if` branch: emptied when control can reach no part of it.
    fn branch(&mut self, b: &mut Node<Statement>, entry: bool) -> bool {
        if !entry && !self.has_reached_label(b) {
            let sp = b.span;
            *b = block(vec![], sp);
            return false;
        }
        self.stmt(b, entry)
    }

    fn block(&mut self, items: &mut Vec<Node<BlockItem>>, entry: bool) -> bool {
        let labelled: Vec<bool> = items
            .iter()
            .map(|it| matches!(&it.node, BlockItem::Statement(st) if has_label(st)))
            .collect();
        let last_label = labelled.iter().rposition(|l| *l);
        let mut reach = entry;
        // Dead declarations kept (a label follows) keep N4: the havoc, or the assignment
        // that stood for it, of each becomes (stays) `__CPROVER_havoc_object(&x);`.
        let mut kept: HashSet<String> = HashSet::new();
        let mut k = 0;
        items.retain_mut(|it| {
            let at = k;
            k += 1;
            match &mut it.node {
                BlockItem::Statement(st) => {
                    if reach || self.has_reached_label(st) {
                        reach = self.stmt(st, reach);
                        return true;
                    }
                    let Some(x) = defined_by(st).filter(|x| kept.contains(*x)) else {
                        return false;
                    };
                    let x = x.to_string();
                    let sp = st.span;
                    *st = expr_stmt(call(abi::HAVOC, vec![addr(ident(&x, sp), sp)], sp));
                    kept.remove(&x);
                    true
                }
                BlockItem::Declaration(d) if !reach => {
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
                _ => true,
            }
        });
        reach
    }

    /// Does `s` hold a label that a goto which can run targets?
    fn has_reached_label(&self, s: &Node<Statement>) -> bool {
        query::any_stmt(s, query::InExpressions::Skip, |s| match &s.node {
            Statement::Labeled(l) => match &l.node.label.node {
                Label::Identifier(i) => self.reached.contains(&i.node.name),
                _ => true,
            },
            _ => false,
        })
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
