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

use crate::callee_types::CalleeTypes;
use crate::hygiene::{colliding_locals, file_scope_names};
use crate::normal_form::{is_atomic_section, kept_call};
use crate::passes::threads::routine_name;
use crate::passes::visible;
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::copy::{Copier, Rename};
use ladr_c::syntax::names::Names;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi;
use ladr_ir::program::{Cut, CutKind, Options, Program};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

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
    for ext in &mut p.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &mut ext.node {
            let name = function_name(&f.node).unwrap_or_default().to_string();
            let mut stack = vec![name];
            inl.stmt(&mut f.node.statement, &mut stack, false)?;
        }
    }
    check_no_defined_calls(&p.unit, &info)?;
    definitions_last(&mut p.unit);
    p.kept = info.kept.iter().cloned().collect();
    Ok(p)
}

/// The functions whose calls stay calls ([`Program::kept`]): defined, neither `main`, nor
/// atomic, variadic or K&R-style; no statement of the body is visible
/// ([`visible::may_switch`], with the function's parameters and locals as its own objects:
/// each call has fresh ones); no loop, backward `goto` or `asm`; and every call is of
/// `__VERIFIER_nondet_*`, a `__CPROVER_*` builtin or another kept function (so no cycle:
/// the set grows from the leaves); no `_Thread_local` object named (`threads` renames
/// those per slot in the slots' code only). Nothing in such a body needs a later pass: no access to
/// instrument, no label to guard, no bound to cut, no library call to model.
fn kept_functions(unit: &TranslationUnit, info: &FnInfo) -> HashSet<String> {
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
    struct Scan<'a> {
        defs: &'a HashMap<String, Node<FunctionDefinition>>,
        labels: HashSet<String>,
        callees: HashSet<String>,
    }
    impl Visitor for Scan<'_> {
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
                    Some(n)
                        if n.starts_with(abi::NONDET_PREFIX)
                            || n.starts_with(abi::CPROVER_PREFIX) => {}
                    _ => return Err(()),
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut s = Scan {
        defs,
        labels: HashSet::new(),
        callees: HashSet::new(),
    };
    visit::stmt(&mut s, body).ok()?;
    Some(s.callees)
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

// ---------------------------------------------------------------------------------------
// What is known about the functions of the unit.
// ---------------------------------------------------------------------------------------

struct FnInfo {
    defs: HashMap<String, Node<FunctionDefinition>>,
    /// Parameter count and variadic flag of every declared or defined function.
    arity: HashMap<String, (usize, bool)>,
    /// Functions used as values (address taken), in order of first use.
    taken: Vec<String>,
    /// The functions of `taken` whose address may be stored in the program's objects: all
    /// but those only named as the start routine of `pthread_create`.
    escaping: HashSet<String>,
    /// Names declared as objects anywhere (globals, locals, parameters).
    vars: HashSet<String>,
    /// Functions returning `void`.
    void_fns: HashSet<String>,
    /// File-scope typedefs of array types (`typedef int buf_t[4];`, `jmp_buf`).
    array_typedefs: HashSet<String>,
    /// The types that decide which functions a call through a pointer may reach.
    types: CalleeTypes,
    /// Functions called, not inlined ([`kept_functions`]).
    kept: HashSet<String>,
}

/// The file-scope typedef names whose type is an array (directly, or through another such
/// typedef): a parameter declared with one is a pointer.
fn array_typedefs(unit: &TranslationUnit) -> HashSet<String> {
    // `va_list` is an array on x86-64 (`struct __va_list_tag[1]`; a pointer on i386, where
    // `*(T *)0 + 0` is that pointer too): a `va_list` parameter is the pointer it decays to.
    let mut out = HashSet::from([abi::VA_LIST.to_string()]);
    for ext in &unit.0 {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let is_typedef = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(sc)
                if sc.node == StorageClassSpecifier::Typedef)
        });
        if !is_typedef {
            continue;
        }
        let base_array = typedef_name_of(&d.node.specifiers).is_some_and(|t| out.contains(t));
        for id in &d.node.declarators {
            let dd = &id.node.declarator.node;
            let array = match first_suffix(dd) {
                Some(DerivedDeclarator::Array(_)) => true,
                Some(_) => false,
                None => base_array && dd.derived.is_empty(),
            } && matches!(dd.kind.node, DeclaratorKind::Identifier(_));
            if array {
                if let Some(n) = declarator_name(dd) {
                    out.insert(n.to_string());
                }
            }
        }
    }
    out
}

/// The typedef name among declaration specifiers, if any.
fn typedef_name_of(specs: &[Node<DeclarationSpecifier>]) -> Option<&str> {
    specs.iter().find_map(|s| match &s.node {
        DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
            TypeSpecifier::TypedefName(n) => Some(n.node.name.as_str()),
            _ => None,
        },
        _ => None,
    })
}

fn arity_of(d: &Declarator) -> Option<(usize, bool)> {
    match first_suffix(d)? {
        DerivedDeclarator::Function(f) => {
            let ps = &f.node.parameters;
            let is_void = ps.len() == 1
                && ps[0].node.declarator.is_none()
                && ps[0].node.specifiers.iter().any(|s| {
                    matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t)
                        if matches!(t.node, TypeSpecifier::Void))
                });
            let n = if is_void { 0 } else { ps.len() };
            Some((n, matches!(f.node.ellipsis, Ellipsis::Some)))
        }
        DerivedDeclarator::KRFunction(ids) => Some((ids.len(), false)),
        _ => None,
    }
}

impl FnInfo {
    fn collect(unit: &TranslationUnit) -> FnInfo {
        let mut defs = HashMap::new();
        let mut arity = HashMap::new();
        let mut void_fns = HashSet::new();
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::FunctionDefinition(f) => {
                    if let Some(n) = function_name(&f.node) {
                        if let Some(a) = arity_of(&f.node.declarator.node) {
                            arity.insert(n.to_string(), a);
                        }
                        if result_declaration(&f.node, &mut Names::new()).is_none() {
                            void_fns.insert(n.to_string());
                        }
                        defs.insert(n.to_string(), f.clone());
                    }
                }
                ExternalDeclaration::Declaration(d) => {
                    for id in &d.node.declarators {
                        let decl = &id.node.declarator.node;
                        if let (Some(n), Some(a)) = (declarator_name(decl), arity_of(decl)) {
                            arity.entry(n.to_string()).or_insert(a);
                            let as_def = FunctionDefinition {
                                specifiers: d.node.specifiers.clone(),
                                declarator: id.node.declarator.clone(),
                                declarations: vec![],
                                statement: empty_stmt(d.span),
                            };
                            if result_declaration(&as_def, &mut Names::new()).is_none() {
                                void_fns.insert(n.to_string());
                            }
                        }
                    }
                }
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        struct Taken<'a> {
            fns: &'a HashMap<String, (usize, bool)>,
            out: Vec<String>,
            escaping: HashSet<String>,
        }
        impl Taken<'_> {
            fn take(&mut self, name: &str, escapes: bool) {
                if self.fns.contains_key(name) {
                    if !self.out.iter().any(|t| t == name) {
                        self.out.push(name.to_string());
                    }
                    if escapes {
                        self.escaping.insert(name.to_string());
                    }
                }
            }
        }
        impl Visitor for Taken<'_> {
            type Error = Infallible;
            fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
                match &e.node {
                    Expression::Identifier(i) => {
                        self.take(&i.node.name, true);
                        Ok(Walk::Skip)
                    }
                    Expression::Call(c) => {
                        // A called function's name is not taken.
                        let callee = peel_deref(&c.node.callee);
                        if callee.is_none() {
                            visit::expr(self, &c.node.callee)?;
                        }
                        for (k, a) in c.node.arguments.iter().enumerate() {
                            // A start routine named in `pthread_create` goes to the
                            // model, never into a pointer of the program.
                            if k == 2 && callee == Some(PTHREAD_CREATE) {
                                if let Some(r) = routine_name(&a.node) {
                                    self.take(r, false);
                                    continue;
                                }
                            }
                            visit::expr(self, a)?;
                        }
                        Ok(Walk::Skip)
                    }
                    _ => Ok(Walk::Descend),
                }
            }
        }
        let mut t = Taken {
            fns: &arity,
            out: vec![],
            escaping: HashSet::new(),
        };
        let Ok(()) = visit::unit(&mut t, unit);
        let taken = t.out;
        let escaping = t.escaping;
        struct Vars(HashSet<String>);
        impl Visitor for Vars {
            type Error = Infallible;
            fn declarator(
                &mut self,
                d: &Node<Declarator>,
            ) -> std::result::Result<Walk, Infallible> {
                if !is_function_declarator(&d.node) {
                    if let Some(n) = declarator_name(&d.node) {
                        self.0.insert(n.to_string());
                    }
                }
                // Parameters are objects even when declared with a function type.
                self.0.extend(parameter_names(&d.node));
                Ok(Walk::Descend)
            }
            // A struct or union member is no variable: `ops->free(…)` declares a member
            // `free`, which must not make a call of the library's `free` a call through a
            // pointer.
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
        let mut v = Vars(HashSet::new());
        let Ok(()) = visit::unit(&mut v, unit);
        FnInfo {
            defs,
            arity,
            taken,
            escaping,
            vars: v.0,
            void_fns,
            array_typedefs: array_typedefs(unit),
            types: CalleeTypes::collect(unit),
            kept: HashSet::new(),
        }
    }

    /// True if calls of `name` are replaced by its body.
    fn inlinable(&self, name: &str) -> bool {
        self.defs.contains_key(name) && !kept_call(name) && !self.kept.contains(name)
    }
}

/// True if a function the program defines runs as one atomic section when called:
/// `__VERIFIER_atomic_*` (SV-COMP's convention) and the operations of C11's
/// `<stdatomic.h>` (`atomic_load`, `atomic_fetch_add_explicit`, …), which a program that
/// cannot include the header defines itself with a plain body.
pub fn is_atomic_function(name: &str) -> bool {
    if name.starts_with(abi::ATOMIC_PREFIX) {
        return true;
    }
    let base = name.strip_suffix("_explicit").unwrap_or(name);
    matches!(
        base,
        "atomic_load"
            | "atomic_store"
            | "atomic_exchange"
            | "atomic_compare_exchange_strong"
            | "atomic_compare_exchange_weak"
            | "atomic_flag_test_and_set"
            | "atomic_flag_clear"
    ) || base.starts_with("atomic_fetch_")
}

const PTHREAD_CREATE: &str = "pthread_create";

/// The identifier a callee names, looking through `*` and `&` (`(*f)(x)`, `(&f)(x)`).
fn peel_deref(e: &Node<Expression>) -> Option<&str> {
    match &e.node {
        Expression::Identifier(i) => Some(&i.node.name),
        Expression::UnaryOperator(u)
            if matches!(
                u.node.operator.node,
                UnaryOperator::Indirection | UnaryOperator::Address
            ) =>
        {
            peel_deref(&u.node.operand)
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------
// The inliner.
// ---------------------------------------------------------------------------------------

struct Inliner<'a> {
    names: &'a mut Names,
    cuts: &'a mut Vec<Cut>,
    info: &'a FnInfo,
    unwind: usize,
    /// Statements left to copy before the program counts as too large.
    budget: usize,
}

/// At most this many statements are copied by inlining (a bounded program larger than this
/// would not be checkable anyway); beyond it, an error names the call.
pub const INLINE_BUDGET: usize = 200_000;

/// Where the value of a call goes: `lv = [(T)] f(..)`.
struct Dest {
    lv: Node<Expression>,
    cast: Option<Node<TypeName>>,
}

impl Inliner<'_> {
    fn stmt(
        &mut self,
        s: &mut Node<Statement>,
        stack: &mut Vec<String>,
        atomic: bool,
    ) -> Result<()> {
        match &mut s.node {
            Statement::Compound(items) => {
                let section = is_atomic_section(items);
                if section && atomic {
                    // A section inside a section (an atomic function's own
                    // begin/end inlined into an atomic context) is just its body.
                    items.pop();
                    items.remove(0);
                }
                for it in items {
                    if let BlockItem::Statement(st) = &mut it.node {
                        self.stmt(st, stack, atomic || section)?;
                    }
                }
            }
            Statement::If(i) => {
                self.stmt(&mut i.node.then_statement, stack, atomic)?;
                if let Some(e) = &mut i.node.else_statement {
                    self.stmt(e, stack, atomic)?;
                }
            }
            Statement::While(w) => self.stmt(&mut w.node.statement, stack, atomic)?,
            Statement::DoWhile(w) => self.stmt(&mut w.node.statement, stack, atomic)?,
            Statement::For(w) => self.stmt(&mut w.node.statement, stack, atomic)?,
            Statement::Switch(w) => self.stmt(&mut w.node.statement, stack, atomic)?,
            Statement::Labeled(l) => self.stmt(&mut l.node.statement, stack, atomic)?,
            Statement::Expression(Some(e)) => {
                if let Some((call, dest)) = split_call(e) {
                    if let Some(new) = self.call(call, dest, s.span, stack, atomic)? {
                        *s = new;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The replacement of a call statement, or None to keep it.
    fn call(
        &mut self,
        c: CallExpression,
        dest: Option<Dest>,
        span: Span,
        stack: &mut Vec<String>,
        atomic: bool,
    ) -> Result<Option<Node<Statement>>> {
        if let Some(name) = peel_deref(&c.callee) {
            let is_var = self.info.vars.contains(name) || ladr_c::syntax::names::is_generated(name);
            if !is_var && !self.info.arity.contains_key(name) && !self.info.defs.contains_key(name)
            {
                return Ok(None); // an undeclared builtin
            }
            if !is_var {
                if name == "main" && self.info.defs.contains_key(name) {
                    return Err(Error::unsupported(span, "call of `main`"));
                }
                if !self.info.inlinable(name) {
                    return Ok(None);
                }
                let name = name.to_string();
                return self
                    .direct(&name, &c.arguments, dest.as_ref(), span, stack, atomic)
                    .map(Some);
            }
        }
        self.indirect(c, dest, span, stack, atomic).map(Some)
    }

    /// A call through a function pointer: an if-chain over the candidates.
    fn indirect(
        &mut self,
        c: CallExpression,
        dest: Option<Dest>,
        span: Span,
        stack: &mut Vec<String>,
        atomic: bool,
    ) -> Result<Node<Statement>> {
        let n = c.arguments.len();
        let cands: Vec<String> = self
            .info
            .taken
            .iter()
            // Only a function whose address the program may store can be reached by a
            // pointer.
            .filter(|f| self.info.escaping.contains(*f))
            .filter(|f| {
                self.info
                    .arity
                    .get(*f)
                    .is_some_and(|&(k, var)| k == n || (var && n >= k))
            })
            // A void function cannot be the target when the value is used.
            .filter(|f| dest.is_none() || !self.info.void_fns.contains(*f))
            // Nor a function of an incompatible type.
            .filter(|f| self.info.types.may_reach(&c.callee, f))
            .cloned()
            .collect();
        let text = ladr_c::print::expr_to_string(&c.callee.node);
        if cands.is_empty() {
            // No function of the program can be the target (e.g. a field of an extern
            // struct never assigned in the program): the callee is outside the program,
            // like any function without a body. The pointer and the arguments are
            // evaluated; a used result is a fresh nondeterministic value.
            let _ = text;
            let mut items = vec![item(expr_stmt((*c.callee).clone()))];
            for a in &c.arguments {
                items.push(item(expr_stmt(a.clone())));
            }
            if let Some(d) = &dest {
                let t = self.names.temp();
                let call = call_expr((*c.callee).clone(), c.arguments.clone(), span);
                items.push(decl_item(typeof_decl(&t, call, false, span)));
                items.push(item(expr_stmt(ladr_c::syntax::build::call(
                    abi::HAVOC,
                    vec![addr(ident(&t, span), span)],
                    span,
                ))));
                items.push(item(expr_stmt(with_dest(ident(&t, span), Some(d), span))));
            }
            return Ok(block(items, span));
        }
        // The pointer, evaluated once.
        let mut ptr = (*c.callee).clone();
        while let Expression::UnaryOperator(u) = &ptr.node {
            if matches!(u.node.operator.node, UnaryOperator::Indirection) {
                ptr = (*u.node.operand).clone();
            } else {
                break;
            }
        }
        let mut pre = vec![];
        if !matches!(ptr.node, Expression::Identifier(_)) {
            let t = self.names.temp();
            pre.push(decl_item(typeof_decl(&t, ptr.clone(), false, span)));
            pre.push(item(expr_stmt(assign(ident(&t, span), ptr, span))));
            ptr = ident(&t, span);
        }
        let mut branches = vec![];
        for f in &cands {
            let b = if stack.iter().filter(|g| *g == f).count() >= self.unwind {
                // The pointer may reach a function already running (a start routine whose
                // address is taken): a cut of its own kind, not "recursion", since the
                // program need not recurse.
                self.cuts.push(Cut {
                    kind: CutKind::FunctionPointer,
                    span,
                });
                assume(int(0, span), span)
            } else if self.info.inlinable(f) {
                self.direct(f, &c.arguments, dest.as_ref(), span, stack, atomic)?
            } else {
                let call = call(f, c.arguments.clone(), span);
                expr_stmt(with_dest(call, dest.as_ref(), span))
            };
            branches.push(b);
        }
        let mut chain = assume(int(0, span), span);
        for (f, b) in cands.iter().zip(branches).rev() {
            let voidp = || type_name(&[TypeSpecifier::Void], 1, span);
            let test = eq(
                cast(voidp(), ptr.clone(), span),
                cast(voidp(), ident(f, span), span),
                span,
            );
            chain = if_stmt(test, b, Some(chain), span);
        }
        if pre.is_empty() {
            Ok(chain)
        } else {
            pre.push(item(chain));
            Ok(block(pre, span))
        }
    }

    /// The inlined body of `name` for one call (or a recursion cut).
    fn direct(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        dest: Option<&Dest>,
        span: Span,
        stack: &mut Vec<String>,
        atomic: bool,
    ) -> Result<Node<Statement>> {
        if stack.iter().filter(|f| *f == name).count() >= self.unwind {
            self.cuts.push(Cut {
                kind: CutKind::Recursion,
                span,
            });
            return Ok(assume(int(0, span), span));
        }
        let def = self.info.defs[name].clone();
        let is_atomic = is_atomic_function(name);
        // An atomic function called outside an atomic section gets its own section.
        let mut s = self.copy_body(name, &def, args, dest, span, is_atomic && !atomic)?;
        let size = statement_count(&s);
        if size > self.budget {
            return Err(Error::unsupported(
                span,
                format!(
                    "inlining `{name}` here makes the bounded program larger than {INLINE_BUDGET} statements"
                ),
            ));
        }
        self.budget -= size;
        stack.push(name.to_string());
        // The section, if any, makes its body atomic.
        let r = self.stmt(&mut s, stack, atomic);
        stack.pop();
        r?;
        Ok(s)
    }

    fn copy_body(
        &mut self,
        name: &str,
        def: &Node<FunctionDefinition>,
        args: &[Node<Expression>],
        dest: Option<&Dest>,
        span: Span,
        section: bool,
    ) -> Result<Node<Statement>> {
        let decl = &def.node.declarator.node;
        let mut variadic = false;
        let params: Vec<Node<ParameterDeclaration>> = match first_suffix(decl) {
            Some(DerivedDeclarator::Function(f)) => {
                if matches!(f.node.ellipsis, Ellipsis::Some) {
                    // A variadic function is inlined like any other; the extra arguments
                    // are evaluated in order into fresh locals, which its `va_arg`s read
                    // (`lower_va`). One that never reads them (a stub such as
                    // `int dev_err(dev, fmt, ...) { return nondet(); }`) only evaluates them.
                    variadic = true;
                }
                f.node.parameters.clone()
            }
            // `f()`: no parameters declared.
            Some(DerivedDeclarator::KRFunction(ids)) if ids.is_empty() => vec![],
            _ => {
                return Err(Error::unsupported(
                    span,
                    format!("inlining the K&R-style function `{name}`"),
                ))
            }
        };
        let (nparams, _) = arity_of(decl).unwrap_or((0, false));
        if nparams != args.len() && !(variadic && args.len() > nparams) {
            return Err(Error::unsupported(
                span,
                format!(
                    "call of `{name}` with {} arguments (it has {nparams} parameters)",
                    args.len()
                ),
            ));
        }
        let mut items = vec![];
        let mut c = Copier::new(self.names, Rename::All);
        for (p, a) in params.iter().take(nparams).zip(args) {
            let Some(pdecl) = &p.node.declarator else {
                continue; // unnamed parameter: the argument has no side effect
            };
            let Some(pname) = declarator_name(&pdecl.node) else {
                continue;
            };
            let new = c.param(pname);
            items.push(decl_item(param_declaration(
                &p.node,
                &new,
                &self.info.array_typedefs,
                p.span,
            )));
            items.push(item(expr_stmt(assign(
                ident(&new, a.span),
                a.clone(),
                a.span,
            ))));
        }
        let reads_va = variadic && mentions_va(&def.node.statement);
        let mut va_args = vec![];
        for a in args.iter().skip(nparams) {
            if reads_va {
                // `__typeof__(promoted(a)) v; v = a;`: the default argument promotions,
                // as passing `a` through `...` does.
                let v = c.names.local("va");
                items.push(decl_item(typeof_decl(&v, promoted(a), false, a.span)));
                items.push(item(expr_stmt(assign(
                    ident(&v, a.span),
                    a.clone(),
                    a.span,
                ))));
                va_args.push(v);
            } else {
                items.push(item(expr_stmt(a.clone())));
            }
        }
        let result = match result_declaration(&def.node, c.names) {
            Some((r, d)) => {
                items.push(decl_item(d));
                Some(r)
            }
            None => None,
        };
        let end = c.names.label("ret");
        c.returns = Some((result.clone(), end.clone()));
        c.fresh_labels(&def.node.statement.node);
        let mut body = def.node.statement.clone();
        // The body's block shares the scope of the parameters (as in C).
        c.body(&mut body);
        if reads_va {
            let mut lower = LowerVa {
                names: c.names,
                args: &va_args,
                lists: HashMap::new(),
            };
            visit_mut::stmt(&mut lower, &mut body)?;
            let mut lists: Vec<String> = lower.lists.into_values().collect();
            lists.sort();
            for l in lists.iter().rev() {
                let int_ty = [TypeSpecifier::Int];
                items.insert(
                    0,
                    decl_item(simple_decl(&int_ty, l, None, false, None, span)),
                );
            }
        } else if mentions_va_arg(&def.node.statement) {
            return Err(Error::unsupported(
                span,
                format!(
                    "inlining `{name}`, which reads a `va_list` it did not start with `va_start`"
                ),
            ));
        }
        let mut body_items = vec![];
        match body.node {
            Statement::Compound(b) => body_items.extend(b),
            _ => body_items.push(item(body)),
        }
        if c.used_end {
            body_items.push(item(labeled(&end, empty_stmt(span), span)));
        }
        if section {
            // The caller evaluates the arguments before the call and stores the result
            // after it: only the body is the atomic section (N5).
            body_items.insert(0, item(expr_stmt(call(abi::ATOMIC_BEGIN, vec![], span))));
            body_items.push(item(expr_stmt(call(abi::ATOMIC_END, vec![], span))));
            items.push(item(block(body_items, span)));
        } else {
            items.extend(body_items);
        }
        if let (Some(d), Some(r)) = (dest, &result) {
            items.push(item(expr_stmt(with_dest(ident(r, span), Some(d), span))));
        } else if dest.is_some() {
            return Err(Error::unsupported(
                span,
                format!("using the value of the void function `{name}`"),
            ));
        }
        Ok(block(items, span))
    }
}

/// An expression of the type `a` has after the default argument promotions (C11
/// 6.5.2.2p6), for `__typeof__`: `float` becomes `double`, `_Bool`, `char` and `short`
/// (signed or not) become `int`, arrays and functions decay (`1 ? a : a`). The
/// conditional alone is not enough: CBMC 6.6 gives `1 ? c : c` the type `char` and keeps
/// `float`, so the types are named with `_Generic` (which both gcc and CBMC read).
fn promoted(a: &Node<Expression>) -> Node<Expression> {
    let span = a.span;
    let decayed = || cond(int(1, span), a.clone(), a.clone(), span);
    let to_int = [
        vec![TypeSpecifier::Bool],
        vec![TypeSpecifier::Char],
        vec![TypeSpecifier::Signed, TypeSpecifier::Char],
        vec![TypeSpecifier::Unsigned, TypeSpecifier::Char],
        vec![TypeSpecifier::Short],
        vec![TypeSpecifier::Unsigned, TypeSpecifier::Short],
    ];
    let double = type_name(&[TypeSpecifier::Double], 0, span);
    let mut types = vec![(
        type_name(&[TypeSpecifier::Float], 0, span),
        cast(double, int(0, span), span),
    )];
    types.extend(to_int.iter().map(|t| (type_name(t, 0, span), int(0, span))));
    generic(decayed(), types, decayed(), span)
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

/// Number of statements in `s` (all levels).
fn statement_count(s: &Node<Statement>) -> usize {
    struct C(usize);
    impl Visitor for C {
        type Error = Infallible;
        fn stmt(&mut self, _s: &Node<Statement>) -> std::result::Result<Walk, Infallible> {
            self.0 += 1;
            Ok(Walk::Descend)
        }
        // Statements inside expressions (`({ … })`) are not counted.
        fn expr(&mut self, _e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            Ok(Walk::Skip)
        }
    }
    let mut c = C(0);
    let Ok(()) = visit::stmt(&mut c, s);
    c.0
}

/// The `va_*` operations of an inlined variadic function on the call's variable arguments
/// (the locals `args`, in order): each `va_list` `ap` it starts gets an index local (the
/// next argument's position), `va_start(ap, x)` → `i = 0`, `va_copy(d, s)` → `i_d = i_s`,
/// `va_end(ap)` → nothing, and `t = va_arg(ap, T)` (the form `normalise` leaves) →
/// `if (i == 0) t = *(__typeof__(t) *)&v0; else if (i == 1) …; i = i + 1;`. The `va_list`
/// objects themselves stay (never started): CBMC's `vfprintf`, `vsnprintf`, … do not read
/// through them. A `va_arg` of a list the function did not start is unsupported.
struct LowerVa<'a> {
    names: &'a mut Names,
    args: &'a [String],
    /// `va_list` variable → its index local.
    lists: HashMap<String, String>,
}

impl LowerVa<'_> {
    fn index(&mut self, list: &Node<Expression>, what: &str) -> Result<String> {
        let Some(n) = ident_name(list) else {
            return Err(Error::unsupported(
                list.span,
                format!("`{what}` of a `va_list` that is not a variable"),
            ));
        };
        if let Some(i) = self.lists.get(n) {
            return Ok(i.clone());
        }
        if what != "va_start" && what != "va_copy" {
            return Err(Error::unsupported(
                list.span,
                format!("`{what}` of a `va_list` this function did not start with `va_start`"),
            ));
        }
        let i = self.names.local("va_index");
        self.lists.insert(n.to_string(), i.clone());
        Ok(i)
    }
}

impl VisitorMut for LowerVa<'_> {
    type Error = Error;
    /// `__typeof__(va_arg(ap, T))` (a temporary's type) reads nothing.
    const UNEVALUATED: bool = false;
    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk> {
        let span = s.span;
        let Statement::Expression(Some(e)) = &s.node else {
            return Ok(Walk::Descend);
        };
        let new = match &e.node {
            Expression::Call(c) => {
                let args = &c.node.arguments;
                match callee_name(&c.node) {
                    Some(abi::VA_START) if !args.is_empty() => {
                        let i = self.index(&args[0], "va_start")?;
                        expr_stmt(assign(ident(&i, span), int(0, span), span))
                    }
                    Some(abi::VA_END) if !args.is_empty() => {
                        self.index(&args[0], "va_end")?;
                        empty_stmt(span)
                    }
                    Some(abi::VA_COPY) if args.len() == 2 => {
                        let from = self.index(&args[1], "va_copy")?;
                        let to = self.index(&args[0], "va_copy")?;
                        expr_stmt(assign(ident(&to, span), ident(&from, span), span))
                    }
                    _ => return Ok(Walk::Descend),
                }
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
                let Expression::VaArg(v) = &b.node.rhs.node else {
                    return Ok(Walk::Descend);
                };
                let i = self.index(&v.node.va_list, "va_arg")?;
                let lhs: &Node<Expression> = &b.node.lhs;
                let ptr = type_name(&[typeof_expr(lhs.clone(), span)], 1, span);
                let mut chain: Option<Node<Statement>> = None;
                for (k, a) in self.args.iter().enumerate().rev() {
                    let read = deref(cast(ptr.clone(), addr(ident(a, span), span), span), span);
                    let then = expr_stmt(assign(lhs.clone(), read, span));
                    let test = eq(ident(&i, span), int(k as u64, span), span);
                    chain = Some(if_stmt(test, then, chain, span));
                }
                let step = expr_stmt(assign(
                    ident(&i, span),
                    binop(BinaryOperator::Plus, ident(&i, span), int(1, span), span),
                    span,
                ));
                block_of(chain.into_iter().chain([step]).collect(), span)
            }
            _ => return Ok(Walk::Descend),
        };
        *s = new;
        Ok(Walk::Skip)
    }
    fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk> {
        if let Expression::VaArg(_) = e.node {
            return Err(Error::unsupported(
                e.span,
                "`va_arg` outside `t = va_arg(ap, T)`",
            ));
        }
        Ok(Walk::Descend)
    }
}

/// True if a function body applies `va_arg` (to a `va_list` it was passed).
fn mentions_va_arg(body: &Node<Statement>) -> bool {
    struct V(bool);
    impl Visitor for V {
        type Error = Infallible;
        const UNEVALUATED: bool = false;
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            if let Expression::VaArg(_) = e.node {
                self.0 = true;
            }
            Ok(Walk::Descend)
        }
    }
    let mut v = V(false);
    let Ok(()) = visit::stmt(&mut v, body);
    v.0
}

/// True if a function body uses its variable arguments (`va_start` and friends).
fn mentions_va(body: &Node<Statement>) -> bool {
    struct V(bool);
    impl Visitor for V {
        type Error = Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            match &e.node {
                Expression::Identifier(i) if i.node.name.contains("va_") => self.0 = true,
                Expression::VaArg(_) => self.0 = true,
                _ => {}
            }
            Ok(Walk::Descend)
        }
    }
    let mut v = V(false);
    let Ok(()) = visit::stmt(&mut v, body);
    v.0
}

fn with_dest(value: Node<Expression>, dest: Option<&Dest>, span: Span) -> Node<Expression> {
    match dest {
        None => value,
        Some(d) => {
            let v = match &d.cast {
                Some(t) => cast(t.clone(), value, span),
                None => value,
            };
            assign(d.lv.clone(), v, span)
        }
    }
}

/// `f(a..)`, `(T) f(a..)`, `lv = f(a..)`, `lv = (T) f(a..)`.
fn split_call(e: &Node<Expression>) -> Option<(CallExpression, Option<Dest>)> {
    fn peel(e: &Node<Expression>) -> Option<(CallExpression, Option<Node<TypeName>>)> {
        match &e.node {
            Expression::Call(c) => Some((c.node.clone(), None)),
            Expression::Cast(c) => match &c.node.expression.node {
                Expression::Call(call) => Some((call.node.clone(), Some(c.node.type_name.clone()))),
                _ => None,
            },
            _ => None,
        }
    }
    match &e.node {
        Expression::BinaryOperator(b) if matches!(b.node.operator.node, BinaryOperator::Assign) => {
            let (c, cast) = peel(&b.node.rhs)?;
            Some((
                c,
                Some(Dest {
                    lv: (*b.node.lhs).clone(),
                    cast,
                }),
            ))
        }
        _ => peel(e).map(|(c, _)| (c, None)),
    }
}

/// Drops top-level `const`/`volatile` of the declared object (it is assigned after its
/// declaration).
fn strip_top_qualifiers(specs: &mut Vec<Node<DeclarationSpecifier>>, d: &mut Declarator) {
    let inner = innermost_mut(d);
    let pointer_outermost = inner
        .derived
        .iter()
        .all(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
        && !inner.derived.is_empty();
    let plain =
        inner.derived.is_empty() && matches!(inner.kind.node, DeclaratorKind::Identifier(_));
    if plain {
        specs.retain(|s| {
            !matches!(&s.node, DeclarationSpecifier::TypeQualifier(q)
                if matches!(q.node, TypeQualifier::Const))
        });
    } else if pointer_outermost {
        if let Some(Node {
            node: DerivedDeclarator::Pointer(qs),
            ..
        }) = inner.derived.last_mut()
        {
            qs.retain(|q| {
                !matches!(&q.node, PointerQualifier::TypeQualifier(t)
                    if matches!(t.node, TypeQualifier::Const))
            });
        }
    }
}

/// `T name;` for a parameter: arrays and functions become pointers. A parameter declared
/// with an array typedef `T` (and no declarator of its own) is `__typeof__(*(T *)0 + 0)`,
/// the pointer its array decays to.
fn param_declaration(
    p: &ParameterDeclaration,
    name: &str,
    array_typedefs: &HashSet<String>,
    span: Span,
) -> Node<Declaration> {
    let mut specs: Vec<_> = p
        .specifiers
        .iter()
        .filter(|s| !matches!(s.node, DeclarationSpecifier::StorageClass(_)))
        .cloned()
        .collect();
    let plain = p
        .declarator
        .as_ref()
        .is_none_or(|d| d.node.derived.is_empty());
    if plain && typedef_name_of(&specs).is_some_and(|t| array_typedefs.contains(t)) {
        let quals = specs.iter().filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => {
                Some(node(SpecifierQualifier::TypeSpecifier(t.clone()), s.span))
            }
            DeclarationSpecifier::TypeQualifier(q) => {
                Some(node(SpecifierQualifier::TypeQualifier(q.clone()), s.span))
            }
            _ => None,
        });
        let mut tn = type_name(&[], 1, span);
        tn.node.specifiers = quals.collect();
        let decayed = binop(
            BinaryOperator::Plus,
            deref(cast(tn, int(0, span), span), span),
            int(0, span),
            span,
        );
        specs = vec![spec(typeof_expr(decayed, span), span)];
        let d = Declarator {
            kind: node(DeclaratorKind::Identifier(id(name, span)), span),
            derived: vec![],
            extensions: vec![],
        };
        return declare(specs, node(d, span), None, span);
    }
    let mut d = p.declarator.clone().map(|d| d.node).unwrap_or(Declarator {
        kind: node(DeclaratorKind::Abstract, span),
        derived: vec![],
        extensions: vec![],
    });
    d.extensions.clear();
    {
        let inner = innermost_mut(&mut d);
        if let Some(n) = declarator_name_mut(inner) {
            n.name = name.to_string();
        }
        let npointers = inner
            .derived
            .iter()
            .take_while(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
            .count();
        let adjust = inner.derived.get(npointers).is_some_and(|x| {
            matches!(
                x.node,
                DerivedDeclarator::Array(_)
                    | DerivedDeclarator::Function(_)
                    | DerivedDeclarator::KRFunction(_)
            )
        });
        if adjust {
            let quals = match &inner.derived[npointers].node {
                DerivedDeclarator::Array(a) => {
                    let q = a
                        .node
                        .qualifiers
                        .iter()
                        .map(|q| node(PointerQualifier::TypeQualifier(q.clone()), q.span))
                        .collect();
                    inner.derived.remove(npointers);
                    q
                }
                _ => vec![],
            };
            let ptr = node(DerivedDeclarator::Pointer(quals), span);
            if inner.derived.len() == npointers {
                inner.derived.push(ptr);
            } else {
                let kind = std::mem::replace(&mut inner.kind, node(DeclaratorKind::Abstract, span));
                inner.kind = node(
                    DeclaratorKind::Declarator(Box::new(node(
                        Declarator {
                            kind,
                            derived: vec![ptr],
                            extensions: vec![],
                        },
                        span,
                    ))),
                    span,
                );
            }
        }
    }
    strip_top_qualifiers(&mut specs, &mut d);
    declare(specs, node(d, span), None, span)
}

/// The declaration of a result temporary of `f`'s return type; None for `void`.
fn result_declaration(
    f: &FunctionDefinition,
    names: &mut Names,
) -> Option<(String, Node<Declaration>)> {
    let span = f.declarator.span;
    let mut specs: Vec<_> = f
        .specifiers
        .iter()
        .filter(|s| {
            !matches!(
                s.node,
                DeclarationSpecifier::StorageClass(_)
                    | DeclarationSpecifier::Function(_)
                    | DeclarationSpecifier::Extension(_)
                    | DeclarationSpecifier::Alignment(_)
            )
        })
        .cloned()
        .collect();
    let mut d = f.declarator.node.clone();
    d.extensions.clear();
    let r = names.temp();
    {
        let inner = innermost_mut(&mut d);
        if let Some(n) = declarator_name_mut(inner) {
            n.name = r.clone();
        }
        if let Some(pos) = inner.derived.iter().position(|x| {
            matches!(
                x.node,
                DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
            )
        }) {
            inner.derived.remove(pos);
        }
    }
    fn no_derived(d: &Declarator) -> bool {
        d.derived.is_empty()
            && match &d.kind.node {
                DeclaratorKind::Declarator(i) => no_derived(&i.node),
                _ => true,
            }
    }
    let is_void = no_derived(&d)
        && specs.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t)
                if matches!(t.node, TypeSpecifier::Void))
        });
    if is_void {
        return None;
    }
    if specs.is_empty() {
        // Implicit int (old C).
        specs.push(spec(TypeSpecifier::Int, span));
    }
    strip_top_qualifiers(&mut specs, &mut d);
    Some((r, declare(specs, node(d, span), None, span)))
}

/// Error if a call of an inlinable function is left anywhere (e.g. not in normal form).
fn check_no_defined_calls(unit: &TranslationUnit, info: &FnInfo) -> Result<()> {
    struct C<'a> {
        info: &'a FnInfo,
    }
    impl Visitor for C<'_> {
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
    visit::unit(&mut C { info }, unit)
}
