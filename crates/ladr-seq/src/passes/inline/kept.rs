//! The functions whose calls stay calls ([`kept_functions`],
//! [`Program::kept`](ladr_ir::program::Program::kept)): no context switch can happen in
//! them, so they are neither inlined nor bounded.

use super::functions::{is_atomic_function, FnInfo};
use crate::passes::visible;
use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// The functions whose calls stay calls
/// ([`Program::kept`](ladr_ir::program::Program::kept)): defined, neither `main`, nor
/// atomic, variadic or K&R-style; no statement of the body is visible
/// ([`visible::may_switch`], with the function's parameters and locals as its own objects:
/// each call has fresh ones); no loop, backward `goto` or `asm`; and every call is of
/// `__VERIFIER_nondet_*`, a `__CPROVER_*` builtin but `__CPROVER_assume`, or another kept
/// function (so no cycle: the set grows from the leaves); no `_Thread_local` object named
/// (`threads` renames those per slot in the slots' code only). Nothing in such a body needs
/// a later pass: no access to instrument, no label to guard, no bound to cut, no library
/// call to model.
pub(super) fn kept_functions(unit: &TranslationUnit, info: &FnInfo) -> HashSet<String> {
    let mut own_objects = HashSet::new();
    for def in info.defs.values() {
        own_objects.extend(objects_of(&def.node));
    }
    let vars = ladr_ir::analysis::Vars::new(unit, &own_objects);
    // `threads` gives each slot its own instance of a `_Thread_local` object and renames
    // its uses in the slots' code only: a kept function must not name one, even where the
    // visibility test would let it (a private object is no shared access).
    let per_thread: HashSet<String> =
        unit.0
            .iter()
            .filter_map(|e| match &e.node {
                ExternalDeclaration::Declaration(d)
                    if has_storage(&d.node, StorageClassSpecifier::ThreadLocal) =>
                {
                    Some(d.node.declarators.iter().filter_map(|id| {
                        declarator_name(&id.node.declarator.node).map(str::to_string)
                    }))
                }
                _ => None,
            })
            .flatten()
            .collect();
    let per_thread: Vec<&str> = per_thread.iter().map(String::as_str).collect();
    // Each candidate with the defined functions it calls.
    let mut candidates: Vec<(&String, HashSet<String>)> = vec![];
    for (name, def) in &info.defs {
        let plain_prototype = matches!(
            first_suffix(&def.node.declarator.node),
            Some(DerivedDeclarator::Function(f)) if matches!(f.node.ellipsis, Ellipsis::None)
        );
        if name == "main" || is_atomic_function(name) || !plain_prototype {
            continue;
        }
        let body = &def.node.statement;
        if visible::may_switch(&vars, body) {
            continue;
        }
        if ladr_c::syntax::walk::mentions(body, &per_thread) {
            continue;
        }
        if let Some(callees) = bounded_callees(body, &info.defs) {
            candidates.push((name, callees));
        }
    }
    let mut kept: HashSet<String> = HashSet::new();
    loop {
        let before = kept.len();
        for (name, callees) in &candidates {
            if !kept.contains(*name) && callees.iter().all(|c| kept.contains(c)) {
                kept.insert((*name).clone());
            }
        }
        if kept.len() == before {
            return kept;
        }
    }
}

/// The parameters and locals a function definition declares.
fn objects_of(f: &FunctionDefinition) -> HashSet<String> {
    struct Objects(HashSet<String>);
    impl Visitor for Objects {
        type Error = Infallible;
        fn declarator(&mut self, d: &Node<Declarator>) -> std::result::Result<Walk, Infallible> {
            if let Some(n) = declarator_name(&d.node) {
                self.0.insert(n.to_string());
            }
            Ok(Walk::Descend)
        }
        fn type_specifier(
            &mut self,
            t: &Node<TypeSpecifier>,
        ) -> std::result::Result<Walk, Infallible> {
            Ok(match t.node {
                TypeSpecifier::Struct(_) => Walk::Skip,
                _ => Walk::Descend,
            })
        }
    }
    let mut o = Objects(parameter_names(&f.declarator.node).into_iter().collect());
    let Ok(()) = visit::stmt(&mut o, &f.statement);
    o.0
}

/// The defined functions a body calls, or None if it has a loop, a backward `goto`, an
/// `asm` statement, a call through a pointer or a call of a function without a body
/// (besides `__VERIFIER_nondet_*` and `__CPROVER_*`).
fn bounded_callees(
    body: &Node<Statement>,
    defs: &HashMap<String, Node<FunctionDefinition>>,
) -> Option<HashSet<String>> {
    struct CalleeScan<'a> {
        defs: &'a HashMap<String, Node<FunctionDefinition>>,
        labels: HashSet<String>,
        callees: HashSet<String>,
    }
    impl Visitor for CalleeScan<'_> {
        type Error = ();
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, ()> {
            match &s.node {
                Statement::While(_)
                | Statement::DoWhile(_)
                | Statement::For(_)
                | Statement::Asm(_) => Err(()),
                Statement::Goto(l) if self.labels.contains(&l.node.name) => Err(()),
                Statement::Labeled(l) => {
                    if let Label::Identifier(i) = &l.node.label.node {
                        self.labels.insert(i.node.name.clone());
                    }
                    Ok(Walk::Descend)
                }
                _ => Ok(Walk::Descend),
            }
        }
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            if let Expression::Call(c) = &e.node {
                match callee_name(&c.node) {
                    Some(n) if self.defs.contains_key(n) => {
                        self.callees.insert(n.to_string());
                    }
                    // An assumption ends the execution where it fails; in a slot's code
                    // `lazy` makes that the thread's stop (`visible::local_assumption`),
                    // which a call's body cannot say.
                    Some(abi::ASSUME) => return Err(()),
                    Some(n)
                        if n.starts_with(abi::NONDET_PREFIX)
                            || n.starts_with(abi::CPROVER_PREFIX) => {}
                    _ => return Err(()),
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut s = CalleeScan {
        defs,
        labels: HashSet::new(),
        callees: HashSet::new(),
    };
    visit::stmt(&mut s, body).ok()?;
    Some(s.callees)
}
