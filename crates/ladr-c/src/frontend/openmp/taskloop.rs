//! `taskloop`: its loop's iterations made tasks (the finest split OpenMP allows), in an
//! implicit `taskgroup` unless `nogroup` (docs/openmp.md).

use super::directive::{Clause, Directive};
use super::lower::{dspan, fail, Lowering, R};
use super::vars::Form;
use crate::syntax::build::*;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

impl Lowering {
    /// `taskloop`: each iteration a task (the finest split OpenMP allows: any two
    /// iterations may be in different tasks, and the iterations of one task run in
    /// sequence, one interleaving of theirs), the loop variables firstprivate; in an
    /// implicit `taskgroup` unless `nogroup`. The generating loop runs on private copies
    /// of the loop variables.
    pub fn taskloop(&mut self, d: &Directive, body: Node<Statement>) -> R<Node<Statement>> {
        self.no_clauses(
            d,
            &[
                "private",
                "firstprivate",
                "shared",
                "default",
                "if",
                "final",
                "untied",
                "priority",
                "nogroup",
                "collapse",
            ],
        )?;
        let depth = match d.clause("collapse").and_then(|c| c.args.as_deref()) {
            None => 1,
            Some(a) => match a.trim().parse::<usize>() {
                Ok(n @ 1..=3) => n,
                _ => return fail(d, "`collapse` of `taskloop` that is not 1, 2 or 3"),
            },
        };
        let span = dspan(d);
        // The loop variables (outermost first) and the scopes of those the loops declare.
        let mut vars = vec![];
        let mut declared_scope = HashMap::new();
        {
            let mut s = &body;
            for level in 0..depth {
                let Statement::For(f) = &s.node else {
                    return fail(
                        d,
                        "`taskloop` not followed by a perfect nest of `for` loops",
                    );
                };
                let (var, decl) = match &f.node.initializer.node {
                    ForInitializer::Expression(e) => match &e.node {
                        Expression::BinaryOperator(b)
                            if b.node.operator.node == BinaryOperator::Assign =>
                        {
                            (ident_name(&b.node.lhs).map(str::to_string), false)
                        }
                        _ => (None, false),
                    },
                    ForInitializer::Declaration(decl) => {
                        declared_scope.extend(super::vars::declared(&decl.node));
                        (
                            super::vars::declared(&decl.node).pop().map(|(n, _)| n),
                            true,
                        )
                    }
                    _ => (None, false),
                };
                let Some(var) = var else {
                    return fail(d, "a `taskloop` loop that does not start `i = ...`");
                };
                vars.push((var, decl));
                if level + 1 < depth {
                    s = single_statement(&f.node.statement).ok_or((
                        span,
                        "`taskloop collapse` of loops that are not perfectly nested".to_string(),
                    ))?;
                }
            }
        }
        let mut clauses = d.clauses.clone();
        clauses.retain(|c| !["nogroup", "collapse"].contains(&c.name.as_str()));
        clauses.push(Clause {
            name: "firstprivate".into(),
            args: Some(
                vars.iter()
                    .map(|(v, _)| v.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
        });
        let task = Directive {
            at: d.at,
            end: d.end,
            words: vec!["task".into()],
            clauses,
        };
        self.scopes.push(declared_scope);
        let lowered = self.task_in_nest(&task, body, depth);
        self.scopes.pop();
        let mut out = lowered?;
        // The generating loop's own copies of the loop variables not declared by it.
        let mut copies = vec![];
        for (v, declared) in &vars {
            if *declared {
                continue;
            }
            let Some(var) = self.lookup(v).cloned() else {
                return fail(d, format!("the loop variable `{v}` is not declared"));
            };
            copies.push(decl_item(var.declare(v, Form::Same, None, false, span)));
        }
        if !copies.is_empty() {
            let ospan = out.span;
            copies.push(item(out));
            out = block(copies, ospan);
        }
        if d.clause("nogroup").is_none() {
            let group = Directive {
                at: d.at,
                end: d.end,
                words: vec!["taskgroup".into()],
                clauses: vec![],
            };
            out = self.taskgroup(&group, out)?;
        }
        Ok(out)
    }

    /// The innermost body of a nest of `depth` `for` loops made a task.
    fn task_in_nest(
        &mut self,
        d: &Directive,
        mut s: Node<Statement>,
        depth: usize,
    ) -> R<Node<Statement>> {
        if depth == 0 {
            return self.task(d, s);
        }
        let Statement::For(f) = &mut s.node else {
            return fail(d, "`taskloop` not followed by a `for` loop");
        };
        let inner = std::mem::replace(&mut *f.node.statement, empty_stmt(s.span));
        let inner = if depth > 1 { take_single(inner) } else { inner };
        *f.node.statement = self.task_in_nest(d, inner, depth - 1)?;
        Ok(s)
    }
}

/// The one statement of `s` (itself, or a block's only statement).
fn single_statement(s: &Node<Statement>) -> Option<&Node<Statement>> {
    match &s.node {
        Statement::Compound(items) => match items.as_slice() {
            [Node {
                node: BlockItem::Statement(st),
                ..
            }] => Some(st),
            _ => None,
        },
        _ => Some(s),
    }
}

/// [`single_statement`], taken.
fn take_single(s: Node<Statement>) -> Node<Statement> {
    match s.node {
        Statement::Compound(mut items) if items.len() == 1 => match items.pop().unwrap().node {
            BlockItem::Statement(st) => st,
            other => node(Statement::Compound(vec![node(other, s.span)]), s.span),
        },
        other => node(other, s.span),
    }
}
