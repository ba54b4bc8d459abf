//! Which constructs have code after them that may run while other threads run
//! ([`super::Construct::code_after`]), read on the unit before the lowering.
//!
//! A worksharing loop whose claims the unwinding cuts is finished by no execution within the
//! bounds (its last thread out needs every iteration claimed): its barrier, the rest of its
//! region and every later region are never reached. A "no race" then says nothing about
//! that code, so the check turns it into "unknown" (docs/openmp.md, "Iterations from the
//! whole range") — unless nothing that could race comes after the loop.

use super::Construct;
use crate::syntax::build::{callee_name, function_name};
use crate::syntax::query::{any_expr, any_stmt, for_each_expr, InExpressions, Operands};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashSet;

/// Sets `code_after` on every construct of `constructs` (spans in `unit`, the unit before
/// the lowering) that some code may follow while other threads run: conservatively, when
/// - the unit has tasks (they may still run after it);
/// - a loop of its function holds it (its next encounter comes after it), or the function
///   has a `goto` (it may be reached again);
/// - its `parallel` region (the innermost holding it, or itself) has any expression after
///   it (run by the team once the construct is done);
/// - after that region, its function creates a thread, calls a function the unit defines,
///   or reaches another construct;
/// - its function is not `main` and some call of it has such code after it (the same
///   rules, the call in place of the region; a call inside a construct, a use of the
///   function other than a call, or calls nested deeper than [`MAX_CALLERS`] count as code
///   after).
pub fn mark_code_after(unit: &TranslationUnit, constructs: &mut [Construct], has_tasks: bool) {
    let functions: Vec<&Node<FunctionDefinition>> = unit
        .0
        .iter()
        .filter_map(|ext| match &ext.node {
            ExternalDeclaration::FunctionDefinition(f) => Some(f),
            _ => None,
        })
        .collect();
    let at = Unit {
        defined: functions
            .iter()
            .filter_map(|f| function_name(&f.node))
            .collect(),
        functions,
        constructs: constructs.iter().map(|c| c.body).collect(),
        regions: constructs
            .iter()
            .filter(|c| c.name.starts_with("parallel"))
            .map(|c| c.body)
            .collect(),
    };
    for c in constructs.iter_mut() {
        c.code_after = has_tasks || at.code_after(c.body, true, 0);
    }
}

/// How many callers deep [`Unit::code_after`] follows a function's calls.
const MAX_CALLERS: usize = 8;

struct Unit<'a> {
    functions: Vec<&'a Node<FunctionDefinition>>,
    defined: HashSet<&'a str>,
    /// The statements the constructs govern.
    constructs: Vec<(usize, usize)>,
    /// Those of the `parallel` constructs.
    regions: Vec<(usize, usize)>,
}

impl Unit<'_> {
    /// Whether code may run after the construct or call at `(start, end)` while other
    /// threads run; `construct`: a construct (its region is the innermost holding it),
    /// else a call outside any construct.
    fn code_after(&self, (start, end): (usize, usize), construct: bool, depth: usize) -> bool {
        let Some(f) = self
            .functions
            .iter()
            .find(|f| f.span.start <= start && end <= f.span.end)
        else {
            return true;
        };
        let looped = any_stmt(*f, InExpressions::Enter, |s| match &s.node {
            Statement::Goto(_) => true,
            Statement::For(_) | Statement::While(_) | Statement::DoWhile(_) => {
                s.span.start <= start
                    && end <= s.span.end
                    && (s.span.start, s.span.end) != (start, end)
            }
            _ => false,
        });
        if looped {
            return true;
        }
        // The innermost region holding it (itself, for `parallel for`); none for a `simd`
        // loop outside a region, whose lanes are a team around the loop itself, or for a
        // call.
        let region = match construct {
            true => self
                .regions
                .iter()
                .filter(|r| r.0 <= start && end <= r.1)
                .min_by_key(|r| r.1 - r.0)
                .copied()
                .unwrap_or((start, end)),
            false => (start, end),
        };
        let in_region = any_expr(*f, Operands::All, |e| {
            e.span.start >= end && e.span.end <= region.1
        });
        let later = any_expr(*f, Operands::All, |e| {
            e.span.start >= region.1
                && match &e.node {
                    Expression::Call(c) => callee_name(&c.node)
                        .is_none_or(|n| self.defined.contains(n) || n == "pthread_create"),
                    _ => false,
                }
        });
        let later_construct = self
            .constructs
            .iter()
            .any(|c| c.0 >= region.1 && c.1 <= f.span.end);
        if in_region || later || later_construct {
            return true;
        }
        match function_name(&f.node) {
            Some("main") => false,
            Some(name) if depth < MAX_CALLERS => self.callers_have_code_after(name, depth),
            _ => true,
        }
    }

    /// Whether some call of function `name` has code after it (or `name` is used other
    /// than called, or called inside a construct).
    fn callers_have_code_after(&self, name: &str, depth: usize) -> bool {
        let (mut calls, mut uses) = (vec![], 0);
        for f in &self.functions {
            for_each_expr(*f, Operands::All, |e| match &e.node {
                Expression::Call(c) if callee_name(&c.node) == Some(name) => {
                    calls.push((e.span.start, e.span.end))
                }
                Expression::Identifier(i) if i.node.name == name => uses += 1,
                _ => {}
            });
        }
        uses > calls.len()
            || calls.iter().any(|&call| {
                self.constructs
                    .iter()
                    .any(|c| c.0 <= call.0 && call.1 <= c.1)
                    || self.code_after(call, false, depth + 1)
            })
    }
}

#[cfg(test)]
mod tests {
    fn marks(src: &str) -> Vec<(String, bool)> {
        let lowered = crate::frontend::parse_part(src, "t.c", 2).expect("parses");
        lowered
            .omp_constructs
            .iter()
            .map(|c| (c.name.clone(), c.code_after))
            .collect()
    }

    #[test]
    fn a_loop_last_in_main_has_nothing_after_it() {
        let src = "int a[100];\nint main(void) {\n#pragma omp parallel for\n  for (int i = 0; i < 100; i++) a[i] = i;\n  return a[5];\n}\n";
        assert_eq!(marks(src), vec![("parallel for".to_string(), false)]);
    }

    #[test]
    fn a_loop_last_in_a_function_called_last_has_nothing_after_it() {
        let src = "int a[100];\nvoid g(int n) {\n#pragma omp parallel for\n  for (int i = 0; i < n; i++) a[i] = i;\n}\nvoid h(void) { g(100); }\nint main(void) { h(); return a[1]; }\n";
        assert_eq!(marks(src), vec![("parallel for".to_string(), false)]);
    }

    #[test]
    fn code_after_the_loop_in_its_region_follows_it() {
        let src = "int a[100]; int x;\nint main(void) {\n#pragma omp parallel\n  {\n#pragma omp for\n    for (int i = 0; i < 100; i++) a[i] = i;\n    x = 1;\n  }\n  return 0;\n}\n";
        let m = marks(src);
        assert!(m.contains(&("for".to_string(), true)), "{m:?}");
        assert!(m.contains(&("parallel".to_string(), false)), "{m:?}");
    }

    #[test]
    fn a_later_region_or_a_loop_around_follows_it() {
        let later = "int a[100]; int x;\nint main(void) {\n#pragma omp parallel for\n  for (int i = 0; i < 100; i++) a[i] = i;\n#pragma omp parallel\n  x = 1;\n  return 0;\n}\n";
        assert_eq!(marks(later)[0], ("parallel for".to_string(), true));
        let around = "int a[100];\nint main(void) {\n  for (int k = 0; k < 2; k++) {\n#pragma omp parallel for\n    for (int i = 0; i < 100; i++) a[i] = i;\n  }\n  return 0;\n}\n";
        assert_eq!(marks(around), vec![("parallel for".to_string(), true)]);
        let call = "int a[100];\nvoid g(void) { a[0] = 1; }\nint main(void) {\n#pragma omp parallel for\n  for (int i = 0; i < 100; i++) a[i] = i;\n  g();\n  return 0;\n}\n";
        assert_eq!(marks(call), vec![("parallel for".to_string(), true)]);
        let twice = "int a[100];\nvoid g(void) {\n#pragma omp parallel for\n  for (int i = 0; i < 100; i++) a[i] = i;\n}\nint main(void) { g(); g(); return 0; }\n";
        assert_eq!(marks(twice), vec![("parallel for".to_string(), true)]);
        let pointer = "int a[100];\nvoid g(void) {\n#pragma omp parallel for\n  for (int i = 0; i < 100; i++) a[i] = i;\n}\nint main(void) { void (*p)(void) = g; p(); return 0; }\n";
        assert_eq!(marks(pointer), vec![("parallel for".to_string(), true)]);
    }
}
