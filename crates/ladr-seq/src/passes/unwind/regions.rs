//! Backward `goto` regions in `unwind`: the items from a label to the last goto back to it,
//! in one block or across blocks, copied U times with each copy's goto jumping to the next
//! copy and the last one's cut; and the check that no backward goto is left.

use super::Unwinder;
use ladr_c::syntax::build::*;
use ladr_c::syntax::copy::{labels_defined, Copier, GotoTo, Rename};
use ladr_c::syntax::query;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use ladr_ir::program::{Cut, CutKind};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashSet;
use std::convert::Infallible;

impl Unwinder<'_> {
    /// Copies items[pos..=last] (starting with label `label`) U times.
    pub(super) fn unwind_region(
        &mut self,
        items: &mut Vec<Node<BlockItem>>,
        pos: usize,
        label: &str,
        last: usize,
        front: bool,
    ) {
        let order = jumps_in_order(&items[pos]);
        let forward = order
            .iter()
            .take_while(|(m, def)| !(*def && m == label))
            .any(|(m, _)| m == label);
        if !front && forward {
            // A forward goto to `L` before it in its item stays in its copy: it jumps to a
            // second label on `L`'s statement, which each copy renames like its others.
            let alias = self.names.label("L");
            let mut split = SplitForward {
                label: label.to_string(),
                alias,
                seen: false,
            };
            let Ok(()) = visit_mut::block_item(&mut split, &mut items[pos]);
        }
        let region: Vec<Node<BlockItem>> = items.drain(pos..=last).collect();
        let span = region[0].span;
        let mut decls = vec![];
        let mut stmts = vec![];
        for it in region {
            match it.node {
                BlockItem::Statement(s) if front => stmts.push(item(strip_label(s, label))),
                BlockItem::Statement(s) => stmts.push(item(s)),
                _ => decls.push(it),
            }
        }
        let as_stmt = block(stmts, span);
        let inner_labels = labels_defined(&as_stmt.node);
        let starts: Vec<String> = (0..self.unwind)
            .map(|k| {
                if k == 0 {
                    label.to_string()
                } else {
                    self.names.label("L")
                }
            })
            .collect();
        let end = self.names.label("bend");
        let mut out = decls;
        for k in 0..self.unwind {
            let mut body = as_stmt.clone();
            let mut cp = Copier::new(self.names, Rename::All);
            if k > 0 {
                for l in &inner_labels {
                    let n = cp.names.label("L");
                    cp.labels.insert(l.clone(), n);
                }
                if !front {
                    // The label inside the copy is where copy k starts.
                    cp.labels.insert(label.to_string(), starts[k].clone());
                }
            }
            let to = match starts.get(k + 1) {
                Some(next) => GotoTo::Label(next.clone()),
                None => GotoTo::Cut,
            };
            cp.gotos.insert(label.to_string(), to);
            cp.stmt(&mut body);
            let cuts = std::mem::take(&mut cp.cuts);
            self.cuts.extend(cuts.into_iter().map(|span| Cut {
                kind: CutKind::Loop,
                span,
            }));
            let Statement::Compound(b) = body.node else {
                continue;
            };
            if front {
                out.push(item(labeled(&starts[k], empty_stmt(span), span)));
            }
            out.extend(b);
            if k + 1 < self.unwind {
                out.push(item(goto(&end, span)));
            }
        }
        out.push(item(labeled(&end, empty_stmt(span), span)));
        let tail = items.split_off(pos);
        items.extend(out);
        items.extend(tail);
    }
}

/// Removes label `l` from the front of `s` (`l: A: s` → `A: s`).
fn strip_label(s: Node<Statement>, l: &str) -> Node<Statement> {
    match s.node {
        Statement::Labeled(lab) => {
            let is_l = matches!(&lab.node.label.node, Label::Identifier(i) if i.node.name == l);
            if is_l {
                *lab.node.statement
            } else {
                let span = s.span;
                let LabeledStatement { label, statement } = lab.node;
                node(
                    Statement::Labeled(node(
                        LabeledStatement {
                            label,
                            statement: Box::new(strip_label(*statement, l)),
                        },
                        lab.span,
                    )),
                    span,
                )
            }
        }
        _ => s,
    }
}

/// Labels on the front of a statement (`A: B: s`).
fn front_labels(s: &Statement) -> Vec<String> {
    let mut out = vec![];
    let mut s = s;
    while let Statement::Labeled(l) = s {
        if let Label::Identifier(i) = &l.node.label.node {
            out.push(i.node.name.clone());
        }
        s = &l.node.statement.node;
    }
    out
}

/// Gotos anywhere in an item (their target labels).
fn gotos_in(it: &Node<BlockItem>) -> Vec<String> {
    struct GotoTargets(Vec<String>);
    impl Visitor for GotoTargets {
        type Error = Infallible;
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, Infallible> {
            if let Statement::Goto(l) = &s.node {
                self.0.push(l.node.name.clone());
            }
            Ok(Walk::Descend)
        }
        fn expr(&mut self, _e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            Ok(Walk::Skip)
        }
    }
    let mut g = GotoTargets(vec![]);
    let Ok(()) = visit::block_item(&mut g, it);
    g.0
}

/// The latest label of this block with a backward goto at or after it: (position, label,
/// last item with such a goto).
pub(super) fn backward_region(items: &[Node<BlockItem>]) -> Option<(usize, String, usize)> {
    let gotos: Vec<Vec<String>> = items.iter().map(gotos_in).collect();
    for pos in (0..items.len()).rev() {
        let BlockItem::Statement(s) = &items[pos].node else {
            continue;
        };
        for l in front_labels(&s.node) {
            if let Some(last) = (pos..items.len()).rev().find(|&j| gotos[j].contains(&l)) {
                return Some((pos, l, last));
            }
        }
    }
    None
}

/// A backward goto across blocks (a loop built with `goto`): the latest label `L` defined
/// inside an item of this block (not on its front: [`backward_region`]) with a goto to it
/// after it in the same item or a later one, none of whose blocks holds both (those are
/// unwound first, inside): (position, label, last item with such a goto). The items from
/// the label's to that last one are the region, as in [`backward_region`], except that
/// copy k+1 starts at the label inside it, where C's `goto` enters the block again (its
/// locals new, their values indeterminate: the copy's fresh ones). A forward goto to `L`
/// before it in its item stays in its copy ([`SplitForward`]).
pub(super) fn nested_backward_region(items: &[Node<BlockItem>]) -> Option<(usize, String, usize)> {
    let gotos: Vec<Vec<String>> = items.iter().map(gotos_in).collect();
    for pos in (0..items.len()).rev() {
        let order = jumps_in_order(&items[pos]);
        let labels: Vec<&String> = order
            .iter()
            .filter_map(|(l, def)| def.then_some(l))
            .collect();
        for l in labels.into_iter().rev() {
            let at = order.iter().position(|(m, def)| *def && m == l)?;
            let after = order[at..].iter().any(|(m, def)| !def && m == l);
            let later = (pos + 1..items.len()).rev().find(|&j| gotos[j].contains(l));
            let last = match (later, after) {
                (Some(j), _) => j,
                (None, true) => pos,
                (None, false) => continue,
            };
            return Some((pos, l.clone(), last));
        }
    }
    None
}

/// Retargets the gotos to `label` before it (in textual order) to `alias`, a second label
/// put on `label`'s statement: `goto L; … L: s` → `goto A; … L: A: s`.
struct SplitForward {
    label: String,
    alias: String,
    seen: bool,
}

impl VisitorMut for SplitForward {
    type Error = Infallible;
    fn stmt(&mut self, s: &mut Node<Statement>) -> std::result::Result<Walk, Infallible> {
        match &mut s.node {
            Statement::Labeled(l) if !self.seen => {
                if matches!(&l.node.label.node, Label::Identifier(i) if i.node.name == self.label) {
                    self.seen = true;
                    let inner = std::mem::replace(&mut *l.node.statement, empty_stmt(s.span));
                    let span = inner.span;
                    *l.node.statement = labeled(&self.alias, inner, span);
                }
            }
            Statement::Goto(g) if !self.seen && g.node.name == self.label => {
                g.node.name = self.alias.clone();
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
    fn expr(&mut self, _e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
        Ok(Walk::Skip)
    }
}

/// The labels an item defines (`true`) and the gotos it has (`false`), in textual order.
fn jumps_in_order(it: &Node<BlockItem>) -> Vec<(String, bool)> {
    struct JumpsInOrder(Vec<(String, bool)>);
    impl Visitor for JumpsInOrder {
        type Error = Infallible;
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, Infallible> {
            match &s.node {
                Statement::Labeled(l) => {
                    if let Label::Identifier(i) = &l.node.label.node {
                        self.0.push((i.node.name.clone(), true));
                    }
                }
                Statement::Goto(l) => self.0.push((l.node.name.clone(), false)),
                _ => {}
            }
            Ok(Walk::Descend)
        }
        fn expr(&mut self, _e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            Ok(Walk::Skip)
        }
    }
    let mut j = JumpsInOrder(vec![]);
    let Ok(()) = visit::block_item(&mut j, it);
    j.0
}

/// The first backward goto of a statement in textual order: (span, label).
pub(super) fn backward_goto(s: &Node<Statement>) -> Option<(Span, String)> {
    let mut seen: HashSet<String> = HashSet::new();
    query::find_stmt(s, query::InExpressions::Enter, |s| match &s.node {
        Statement::Labeled(l) => {
            if let Label::Identifier(i) = &l.node.label.node {
                seen.insert(i.node.name.clone());
            }
            query::Look::Descend
        }
        Statement::Goto(l) if seen.contains(&l.node.name) => {
            query::Look::Found((s.span, l.node.name.clone()))
        }
        _ => query::Look::Descend,
    })
}
