//! `target`: the region runs on the host, as the host fallback of every OpenMP runtime
//! runs it (no device, or `if(0)`): the encountering thread executes the region and waits
//! for it, and a mapped variable is the variable itself. The construct lowers to its body.
//!
//! What the host fallback leaves out, and so what is refused:
//! - A device's copy-in and copy-out of mapped data happen at the region's ends, for every
//!   mapped element, also those the region never touches; on the host nothing is copied.
//!   They can race only with threads running beside the region, so `target` is modelled
//!   only where none can: outside every `parallel` region, in a program without task
//!   constructs and without POSIX or C11 threads, in `main` or in a function that no
//!   `parallel` region's code reaches ([`serial_only`]: then only the initial thread runs
//!   it, and only while it runs alone).
//! - A scalar the region uses without mapping it is firstprivate there (OpenMP 4.5): the
//!   region's writes to it do not reach the variable. A region that assigns such a scalar
//!   outside every construct that privatises it (`private`, `firstprivate`, a worksharing
//!   loop's variable) is refused.
//! - Clauses other than `map`, `device` and `if` (`nowait`, `depend`, `private`,
//!   `defaultmap`, …), and the combined and data constructs (`target parallel`, `target
//!   data`, `target update`) are not modelled; `target teams` is split in two and its
//!   `teams` lowered by [`super::teams`].

use super::callgraph::CallGraph;
use super::directive::Directive;
use super::lower::{fail, Lowering, R};
use crate::syntax::query::{any_expr, Operands};
use crate::syntax::walk::visit::{self, Visitor};
use crate::syntax::walk::{is_assign_op, is_inc_dec, Walk};
use lang_c::ast::*;
use lang_c::span::Node;
use lang_c::span::Span;
use std::collections::HashSet;

/// The map types a `map` clause may name before its list.
const MAP_TYPES: &[&str] = &["to", "from", "tofrom", "alloc"];

impl Lowering {
    /// Checks the `target` directive `d` governing `s` with the directives `with` (before
    /// `s` is lowered): where it is, its clauses and what its region assigns (see the
    /// module).
    pub(super) fn check_target(
        &mut self,
        d: &Directive,
        with: &[Directive],
        s: &Node<Statement>,
    ) -> R<()> {
        self.no_clauses(d, &["map", "device", "if"])?;
        if self.parallel_depth > 0 || self.in_teams {
            return fail(
                d,
                "OpenMP `target` inside a `parallel` region (other threads may run beside it \
                 and race with the copying of its mapped data)",
            );
        }
        if self.function_name != "main" {
            // Checked on the lowered unit: no thread's code may reach the function.
            self.serial_targets
                .push((self.function_name.clone(), super::lower::dspan(d)));
        }
        if self.has_tasks || self.posix_threads {
            return fail(
                d,
                "OpenMP `target` in a program with tasks or POSIX threads (they may run beside \
                 it and race with the copying of its mapped data)",
            );
        }
        let mut mapped = HashSet::new();
        for c in d.clauses.iter().filter(|c| c.name == "map") {
            let args = c.args.as_deref().unwrap_or("");
            // `map(to: a[0:n])`: a map type before the list (the colon of an array
            // section `a[0:n]` is not one).
            let list = match args.split_once(':') {
                Some((kind, list)) if MAP_TYPES.contains(&kind.trim()) => list,
                Some((kind, _)) if !kind.contains('[') => {
                    return fail(d, "a `map` clause of this form is not modelled")
                }
                _ => args,
            };
            for item in list.split(',') {
                let base: String = item
                    .trim()
                    .chars()
                    .take_while(|ch| ch.is_alphanumeric() || *ch == '_')
                    .collect();
                mapped.insert(base);
            }
        }
        // A mapped variable is the variable itself: its writes are modelled.
        let mut w = Writes {
            lowering: self,
            private: vec![
                mapped.into_iter().collect(),
                with.iter().flat_map(|w| private_copies(w, s)).collect(),
            ],
            found: None,
        };
        match visit::stmt(&mut w, s) {
            Ok(()) => Ok(()),
            Err(()) => fail(d, unmapped_write(&w.found.unwrap_or_default())),
        }
    }
}

fn unmapped_write(name: &str) -> String {
    format!(
        "OpenMP `target` region assigning `{name}`, which is not mapped: a scalar is \
         firstprivate in a `target` region, and its writes are not modelled"
    )
}

/// Finds a write, in a `target` region, to a variable declared outside it and not made
/// private by a construct inside it (`found`, and the walk stops).
struct Writes<'a> {
    lowering: &'a Lowering,
    /// Per enclosing construct inside the region, the names it makes private.
    private: Vec<Vec<String>>,
    found: Option<String>,
}

impl Writes<'_> {
    /// Whether an assignment to `name` reaches a variable outside the region.
    fn outside(&self, name: &str) -> bool {
        self.lowering.lookup(name).is_some() && !self.private.iter().flatten().any(|p| p == name)
    }
}

impl Visitor for Writes<'_> {
    type Error = ();

    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, ()> {
        let Some(inner) = self.lowering.governing.get(&s.span.start) else {
            return Ok(Walk::Descend);
        };
        let names: Vec<String> = inner
            .iter()
            .filter(|d| !d.is(&["target"]))
            .flat_map(|d| private_copies(d, s))
            .collect();
        if names.is_empty() {
            return Ok(Walk::Descend);
        }
        self.private.push(names);
        let r = visit::stmt_children(self, &s.node);
        self.private.pop();
        r.map(|()| Walk::Skip)
    }

    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, ()> {
        let target = match &e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => &b.node.lhs,
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => &u.node.operand,
            _ => return Ok(Walk::Descend),
        };
        if let Expression::Identifier(i) = &target.node {
            if self.outside(&i.node.name) {
                self.found = Some(i.node.name.clone());
                return Err(());
            }
        }
        Ok(Walk::Descend)
    }
}

/// The names directive `d` gives each thread its own copy of without writing it back:
/// `private`, `firstprivate` and the variable of a loop it divides (not `lastprivate`,
/// `reduction` or `linear`, which assign the variable at the end).
fn private_copies(d: &Directive, s: &Node<Statement>) -> Vec<String> {
    let mut names: Vec<String> = ["private", "firstprivate"]
        .iter()
        .flat_map(|c| d.vars_of(c))
        .collect();
    names.extend(super::lower::divided_loop_variable(d, s));
    names
}

/// Whether `unit` names `pthread_create` or `thrd_create`: threads of its own that may run
/// beside a `target` region.
pub(super) fn creates_threads(unit: &TranslationUnit) -> bool {
    unit.0.iter().any(|ext| match &ext.node {
        ExternalDeclaration::FunctionDefinition(f) => {
            any_expr(&f.node.statement, Operands::All, |e| {
                matches!(&e.node, Expression::Identifier(i)
                    if ["pthread_create", "thrd_create"].contains(&i.node.name.as_str()))
            })
        }
        _ => false,
    })
}

/// Refuses a `target` in a function (`targets`: the function, the directive) that the code
/// of a thread may reach: on the lowered unit, every function named other than as the
/// callee of a call (a `parallel` region's or a task's start routine, a function pointer)
/// is a root, and nothing reachable from a root by calls may hold a `target`.
pub(super) fn serial_only(unit: &TranslationUnit, targets: &[(String, Span)]) -> R<()> {
    if targets.is_empty() {
        return Ok(());
    }
    let graph = CallGraph::of(unit);
    let threads = graph.reachable(graph.values.iter().filter(|f| *f != "main").cloned());
    if let Some((_, at)) = targets.iter().find(|(f, _)| threads.contains(f)) {
        return Err((
            *at,
            "OpenMP `target` in a function that the code of a `parallel` region or thread may \
             call (other threads may run beside it and race with the copying of its mapped \
             data)"
                .to_string(),
        ));
    }
    Ok(())
}
