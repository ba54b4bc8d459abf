//! Tasks at the level of the translation unit: their file-scope state, the wait for every
//! task at the end of `main`, and the check that no task's code depends on the thread it
//! runs on (which the model does not choose: a task is its own thread).

use super::lower::{Failure, R};
use super::task::{task_state, tasks_finished};
use crate::syntax::build::*;
use crate::syntax::names;
use crate::syntax::walk::visit::{self, Visitor};
use crate::syntax::walk::visit_mut::{self, VisitorMut};
use crate::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// The tasks' state.
pub fn state() -> Vec<Node<ExternalDeclaration>> {
    let span = Span::none();
    task_state()
        .into_iter()
        .map(|d| node(ExternalDeclaration::Declaration(d), span))
        .collect()
}

/// `main` waits for every task before it returns (the end of the program's implicit
/// parallel region): before each `return` and at the end of its body.
pub fn main_waits(f: &mut Node<FunctionDefinition>) {
    struct Returns;
    impl VisitorMut for Returns {
        type Error = Infallible;
        fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk, Infallible> {
            if matches!(s.node, Statement::Return(_)) {
                let span = s.span;
                let ret = std::mem::replace(s, empty_stmt(span));
                let mut stmts = tasks_finished(0, span);
                stmts.push(ret);
                *s = block_of(stmts, span);
                return Ok(Walk::Skip);
            }
            Ok(Walk::Descend)
        }
    }
    let Ok(()) = visit_mut::stmt(&mut Returns, &mut f.node.statement);
    let span = f.node.statement.span;
    if let Statement::Compound(items) = &mut f.node.statement.node {
        items.extend(tasks_finished(0, span).into_iter().map(item));
    }
}

/// Refuses a task whose code (its routine and every function it reaches) uses the OpenMP
/// thread number, a team barrier (a worksharing construct) or a `threadprivate` variable:
/// each depends on which team thread runs the task, which the model leaves open.
pub fn check_routines(
    unit: &TranslationUnit,
    routines: &[(String, Span)],
    threadprivate: &HashSet<String>,
) -> R<()> {
    if routines.is_empty() {
        return Ok(());
    }
    let mut forbidden: HashSet<String> = threadprivate.clone();
    forbidden.insert(names::OMP_THREAD_NUM.to_string());
    forbidden.insert(names::OMP_BARRIER.to_string());
    forbidden.insert("omp_get_thread_num".to_string());
    let mut graph: HashMap<String, (HashSet<String>, Option<String>)> = HashMap::new();
    for ext in &unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
            let Some(name) = function_name(&f.node) else {
                continue;
            };
            let mut n = Names(HashSet::new());
            let Ok(()) = visit::stmt(&mut n, &f.node.statement);
            let bad = n.0.iter().find(|x| forbidden.contains(*x)).cloned();
            graph.insert(name.to_string(), (n.0, bad));
        }
    }
    for (routine, span) in routines {
        let mut seen = HashSet::new();
        let mut todo = vec![routine.clone()];
        while let Some(f) = todo.pop() {
            if !seen.insert(f.clone()) {
                continue;
            }
            let Some((uses, bad)) = graph.get(&f) else {
                continue;
            };
            if let Some(bad) = bad {
                let what = names::original_name(bad);
                return Err(refusal(*span, what));
            }
            todo.extend(uses.iter().filter(|u| graph.contains_key(*u)).cloned());
        }
    }
    Ok(())
}

fn refusal(span: Span, what: &str) -> Failure {
    (
        span,
        format!(
            "a task whose code uses `{what}` (the OpenMP thread number, a barrier or \
             threadprivate data: which thread runs a task is not modelled)"
        ),
    )
}

/// Every identifier a statement names.
struct Names(HashSet<String>);
impl Visitor for Names {
    type Error = Infallible;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        if let Some(n) = ident_name(e) {
            self.0.insert(n.to_string());
        }
        Ok(Walk::Descend)
    }
}
