//! `inline` — replace every call of a function with a body by a copy of that body.
//!
//! ```text
//! int inc(int x) { int y; __CPROVER_havoc_object(&y); y = x + 1; return y; }
//! ... v = inc(a); ...
//!   ──▶
//! { int __ladr_1_x; __ladr_1_x = a; int __ladr_t2;
//!   int __ladr_3_y; __CPROVER_havoc_object(&__ladr_3_y); __ladr_3_y = __ladr_1_x + 1;
//!   { __ladr_t2 = __ladr_3_y; goto __ladr_ret4; }
//!   __ladr_ret4: ; v = __ladr_t2; }
//! ```
//!
//! * Parameters become renamed locals assigned from the arguments (arrays and functions as
//!   parameters become pointers); the result is a temporary of the return type; `return e;`
//!   becomes `result = e; goto end;`. Every local of the copy is renamed with
//!   [`Names::local`] (the user's name stays recoverable), every label gets a fresh name.
//! * `static` locals are hoisted to file scope once per function (renamed), so a function
//!   inlined several times still has one object.
//! * Before inlining, locals of every function that share a name with a file-scope name are
//!   renamed, so an inlined body never sees a caller's local in place of a global.
//! * Recursion is inlined while the callee is active fewer than U times on the inlining
//!   stack; a deeper call becomes `__CPROVER_assume(0);` and a [`CutKind::Recursion`] cut.
//! * A call through a function pointer becomes an if-chain over the functions whose address
//!   is taken somewhere and whose parameter count fits, ending in `__CPROVER_assume(0);`.
//! * `__VERIFIER_atomic_*` functions and C11 `atomic_*` operations with a body are
//!   inlined with their body as `{ __VERIFIER_atomic_begin(); … __VERIFIER_atomic_end(); }`
//!   (N5); the arguments are evaluated before it and the result stored after it.
//! * A call through a function pointer considers only the candidates whose type may be
//!   that of the pointer ([`CalleeTypes`]) and whose address the program may store (not a
//!   start routine only named in `pthread_create`).
//! * Not inlined: `main` (calling it is an error), functions without a body, `pthread_*`,
//!   the builtins of [`kept_call`] (`__VERIFIER_assert` with a body is inlined), and the
//!   functions in which no context switch can happen ([`kept_functions`],
//!   [`Program::kept`]): their calls stay calls and their definitions stay whole, so the
//!   bounded program does not grow with every call site of a pure helper.
//!
//! Needs the normal form N1–N6 (calls only as `f(a..);` / `lv = f(a..);`); keeps it.
//! Guarantees: no call of a function with a body remains in any function body, but of the
//! kept functions (which call only each other and CBMC builtins).
//! Implements DESIGN.md §2–§3 ("no calls to defined functions, no recursion").
//!
//! [`Names::local`]: ladr_c::syntax::names::Names::local
//! [`CutKind::Recursion`]: ladr_ir::program::CutKind::Recursion
//! [`CalleeTypes`]: crate::callee_types::CalleeTypes
//! [`kept_call`]: crate::normal_form::kept_call
//! [`kept_functions`]: kept::kept_functions

mod call_sites;
mod copy;
mod declarations;
mod functions;
mod kept;
mod nonlocal;
mod variadic;

pub(crate) use copy::parameter_locals;
pub(crate) use functions::array_typedefs;

use crate::hygiene::{colliding_locals, file_scope_names};
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::copy::{Copier, Rename};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use ladr_ir::program::{Options, Program};
use lang_c::ast::*;
use lang_c::span::Node;

use call_sites::Inliner;
pub use call_sites::INLINE_BUDGET;
pub use functions::is_atomic_function;
use functions::{peel_deref, FnInfo};
use kept::kept_functions;

pub fn run(mut p: Program, opts: &Options) -> Result<Program> {
    hoist_and_hygiene(&mut p);
    let mut info = FnInfo::collect(&p.unit);
    info.kept = kept_functions(&p.unit, &info);
    let mut inl = Inliner {
        names: &mut p.names,
        cuts: &mut p.cuts,
        info: &info,
        unwind: opts.unwind as usize,
        budget: INLINE_BUDGET,
    };
    // Only the roots are needed later: `main` and the functions whose address is taken
    // (start routines, function-pointer targets). Every other function is only called,
    // so after inlining it into the roots its definition is dead and is removed (its
    // prototype stays).
    let is_root = |name: &str| {
        name == "main" || info.taken.iter().any(|t| t == name) || info.kept.contains(name)
    };
    for ext in &mut p.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
            if !is_root(function_name(&f.node).unwrap_or_default()) {
                let span = ext.span;
                *ext = node(ExternalDeclaration::Declaration(prototype(&f.node)), span);
            }
        }
    }
    // Cancellation points act only in a program that cancels (`nonlocal`).
    let cancels = p.unit.0.iter().any(|ext| {
        matches!(&ext.node, ExternalDeclaration::FunctionDefinition(f)
            if ladr_c::syntax::walk::mentions(&f.node.statement, &["pthread_cancel"]))
    });
    for ext in &mut p.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &mut ext.node {
            let name = function_name(&f.node).unwrap_or_default().to_string();
            let mut stack = vec![name];
            inl.stmt(&mut f.node.statement, &mut stack, false)?;
            nonlocal::resolve(&mut f.node.statement, inl.names, cancels)?;
        }
    }
    check_no_defined_calls(&p.unit, &info)?;
    definitions_last(&mut p.unit);
    p.kept = info.kept.iter().cloned().collect();
    Ok(p)
}

/// Replaces each function definition by its prototype and moves the definitions to the end,
/// so inlined code may use any function or global declared anywhere in the file.
fn definitions_last(unit: &mut TranslationUnit) {
    let mut defs = vec![];
    let old = std::mem::take(&mut unit.0);
    for ext in old {
        if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
            let kr = matches!(
                first_suffix(&f.node.declarator.node),
                Some(DerivedDeclarator::KRFunction(ids)) if !ids.is_empty()
            );
            if !kr {
                let span = f.node.declarator.span;
                unit.0.push(node(
                    ExternalDeclaration::Declaration(prototype(&f.node)),
                    span,
                ));
            }
            defs.push(ext);
        } else {
            unit.0.push(ext);
        }
    }
    unit.0.extend(defs);
}

// ---------------------------------------------------------------------------------------
// Pre-pass: hoist static locals, rename locals that shadow file-scope names or that share
// their name with another local or a parameter of the function.
// ---------------------------------------------------------------------------------------

fn hoist_and_hygiene(p: &mut Program) {
    let globals = file_scope_names(&p.unit);
    let old = std::mem::take(&mut p.unit.0);
    for mut ext in old {
        if let ExternalDeclaration::FunctionDefinition(f) = &mut ext.node {
            // `for (int i …) …; int i; for (int i …) …` in one function: three objects of one
            // name, which `constprop` (facts kept by name) would have to leave alone.
            let set = colliding_locals(&f.node, &globals);
            let mut c = Copier::new(&mut p.names, Rename::StaticsAnd(set));
            // Parameters are in the outermost scope; a parameter named like a global is
            // renamed too.
            let inner = innermost_mut(&mut f.node.declarator.node);
            for d in &mut inner.derived {
                if let DerivedDeclarator::Function(fd) = &mut d.node {
                    for pd in &mut fd.node.parameters {
                        if let Some(decl) = &mut pd.node.declarator {
                            if let Some(n) = declarator_name_mut(&mut decl.node) {
                                if globals.contains(&n.name) {
                                    n.name = c.param(&n.name.clone());
                                }
                            }
                        }
                    }
                    break;
                }
            }
            c.stmt(&mut f.node.statement);
            for h in std::mem::take(&mut c.hoisted) {
                let span = h.span;
                p.unit
                    .0
                    .push(node(ExternalDeclaration::Declaration(h), span));
            }
        }
        p.unit.0.push(ext);
    }
}

/// The declaration `T f(params);` of a definition. For a K&R definition with parameter
/// names, `T f();` (its parameter types are not part of its type).
fn prototype(f: &FunctionDefinition) -> Node<Declaration> {
    let span = f.declarator.span;
    let mut declarator = f.declarator.clone();
    if let Some(d) = declarator
        .node
        .derived
        .iter_mut()
        .find(|d| matches!(d.node, DerivedDeclarator::KRFunction(_)))
    {
        d.node = DerivedDeclarator::KRFunction(vec![]);
    }
    declare(f.specifiers.clone(), declarator, None, span)
}

/// Error if a call of an inlinable function is left anywhere (e.g. not in normal form).
fn check_no_defined_calls(unit: &TranslationUnit, info: &FnInfo) -> Result<()> {
    struct DefinedCalls<'a> {
        info: &'a FnInfo,
    }
    impl Visitor for DefinedCalls<'_> {
        type Error = Error;
        // Calls under `sizeof` / `__typeof__` are not evaluated.
        const UNEVALUATED: bool = false;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk> {
            if let Expression::Call(c) = &e.node {
                if let Some(n) = peel_deref(&c.node.callee) {
                    if self.info.inlinable(n) {
                        return Err(Error::unsupported(
                            e.span,
                            format!("call of `{n}` inside an expression (not in normal form)"),
                        ));
                    }
                }
            }
            Ok(Walk::Descend)
        }
        fn type_name(&mut self, _t: &Node<TypeName>) -> Result<Walk> {
            Ok(Walk::Skip)
        }
        fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk> {
            for id in &d.node.declarators {
                if let Some(i) = &id.node.initializer {
                    visit::initializer(self, i)?;
                }
            }
            Ok(Walk::Skip)
        }
    }
    visit::unit(&mut DefinedCalls { info }, unit)
}
