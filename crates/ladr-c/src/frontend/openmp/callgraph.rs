//! The direct calls between the functions of a translation unit, for the checks that ask
//! where a function may run (`teams`: which functions reach OpenMP; `target`: which a
//! thread's code may call).

use crate::syntax::build::{callee_name, function_name};
use crate::syntax::query::{any_expr, Operands};
use lang_c::ast::*;
use std::collections::{HashMap, HashSet};

pub(super) struct CallGraph {
    /// Each defined function: the names it calls directly, and its span's offsets.
    pub calls: HashMap<String, (HashSet<String>, (usize, usize))>,
    /// The defined functions named other than as the callee of a call (a start routine
    /// handed to `pthread_create`, a function pointer).
    pub values: HashSet<String>,
}

impl CallGraph {
    pub fn of(unit: &TranslationUnit) -> CallGraph {
        let mut calls = HashMap::new();
        // Per name: how often it is named, and how often as a callee.
        let mut named: HashMap<String, (usize, usize)> = HashMap::new();
        for ext in &unit.0 {
            let ExternalDeclaration::FunctionDefinition(f) = &ext.node else {
                continue;
            };
            let Some(name) = function_name(&f.node) else {
                continue;
            };
            let mut callees = HashSet::new();
            any_expr(&f.node.statement, Operands::All, |e| {
                match &e.node {
                    Expression::Call(c) => {
                        if let Some(n) = callee_name(&c.node) {
                            named.entry(n.to_string()).or_default().1 += 1;
                            callees.insert(n.to_string());
                        }
                    }
                    Expression::Identifier(i) => {
                        named.entry(i.node.name.clone()).or_default().0 += 1
                    }
                    _ => {}
                }
                false
            });
            calls.insert(name.to_string(), (callees, (ext.span.start, ext.span.end)));
        }
        let values = named
            .into_iter()
            .filter(|(n, (all, as_callee))| all > as_callee && calls.contains_key(n))
            .map(|(n, _)| n)
            .collect();
        CallGraph { calls, values }
    }

    /// The defined functions `roots` reach by calls, `roots` included.
    pub fn reachable(&self, roots: impl IntoIterator<Item = String>) -> HashSet<String> {
        let mut seen = HashSet::new();
        let mut todo: Vec<String> = roots.into_iter().collect();
        while let Some(f) = todo.pop() {
            let Some((callees, _)) = self.calls.get(&f) else {
                continue;
            };
            if seen.insert(f) {
                todo.extend(callees.iter().cloned());
            }
        }
        seen
    }

    /// The defined functions for which `seed` holds, and those that reach one by calls.
    pub fn callers_of(
        &self,
        seed: impl Fn(&str, &HashSet<String>, (usize, usize)) -> bool,
    ) -> HashSet<String> {
        let mut found: HashSet<String> = self
            .calls
            .iter()
            .filter(|(f, (c, span))| seed(f, c, *span))
            .map(|(f, _)| f.clone())
            .collect();
        loop {
            let more: Vec<String> = self
                .calls
                .iter()
                .filter(|(f, (c, _))| !found.contains(*f) && c.iter().any(|g| found.contains(g)))
                .map(|(f, _)| f.clone())
                .collect();
            if more.is_empty() {
                return found;
            }
            found.extend(more);
        }
    }
}
