//! The one check before lowering: no `goto` into the body of a loop from outside it.

use ladr_c::diag::{Error, Result};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashSet;
use std::convert::Infallible;

/// Labels and gotos of a statement (outside statement expressions' own scopes too: labels
/// are per function).
#[derive(Default)]
struct Jumps {
    labels: HashSet<String>,
    gotos: Vec<(String, Span)>,
    loops: Vec<Node<Statement>>,
}

impl Visitor for Jumps {
    type Error = Infallible;
    fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, Infallible> {
        match &s.node {
            Statement::Labeled(l) => {
                if let Label::Identifier(i) = &l.node.label.node {
                    self.labels.insert(i.node.name.clone());
                }
            }
            Statement::Goto(g) => self.gotos.push((g.node.name.clone(), s.span)),
            Statement::While(_) | Statement::DoWhile(_) | Statement::For(_) => {
                self.loops.push(s.clone())
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
}

/// A `goto` from outside a loop to a label inside its body is unsupported: unwinding copies
/// the body (and renames its labels), so the jump would have no single target.
pub(super) fn no_goto_into_loop(body: &Node<Statement>) -> Result<()> {
    let mut all = Jumps::default();
    let Ok(()) = visit::stmt(&mut all, body);
    for l in &all.loops {
        let mut inside = Jumps::default();
        let Ok(()) = visit::stmt(&mut inside, l);
        if inside.labels.is_empty() {
            continue;
        }
        let inner: Vec<Span> = inside.gotos.iter().map(|(_, sp)| *sp).collect();
        if let Some((name, span)) = all
            .gotos
            .iter()
            .find(|(n, sp)| inside.labels.contains(n) && !inner.contains(sp))
        {
            return Err(Error::unsupported(
                *span,
                format!("a `goto {name}` into the body of a loop from outside it"),
            ));
        }
    }
    Ok(())
}
