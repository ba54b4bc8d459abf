//! What is known about the functions of the unit before inlining ([`FnInfo`]): the
//! definitions, arities, functions whose address is taken, objects, `void` functions,
//! array typedefs, and which functions are atomic.

use super::declarations::result_declaration;
use crate::callee_types::CalleeTypes;
use crate::normal_form::kept_call;
use crate::passes::threads::routine_name;
use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use ladr_c::syntax::query::{for_each_expr, Operands, Walkable};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

pub(super) struct FnInfo {
    pub(super) defs: HashMap<String, Node<FunctionDefinition>>,
    /// Parameter count and variadic flag of every declared or defined function.
    pub(super) arity: HashMap<String, (usize, bool)>,
    /// Functions used as values (address taken), in order of first use.
    pub(super) taken: Vec<String>,
    /// The functions of `taken` whose address may be stored in the program's objects: all
    /// but those only named as the start routine of `pthread_create`.
    pub(super) escaping: HashSet<String>,
    /// Names declared as objects anywhere (globals, locals, parameters).
    pub(super) vars: HashSet<String>,
    /// Functions returning `void`.
    pub(super) void_fns: HashSet<String>,
    /// File-scope typedefs of array types (`typedef int buf_t[4];`, `jmp_buf`).
    pub(super) array_typedefs: HashSet<String>,
    /// The types that decide which functions a call through a pointer may reach.
    pub(super) types: CalleeTypes,
    /// Functions called, not inlined ([`kept_functions`]).
    pub(super) kept: HashSet<String>,
}

/// The file-scope typedef names whose type is an array (directly, or through another such
/// typedef): a parameter declared with one is a pointer.
pub(crate) fn array_typedefs(unit: &TranslationUnit) -> HashSet<String> {
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
pub(super) fn typedef_name_of(specs: &[Node<DeclarationSpecifier>]) -> Option<&str> {
    specs.iter().find_map(|s| match &s.node {
        DeclarationSpecifier::TypeSpecifier(t) => match &t.node {
            TypeSpecifier::TypedefName(n) => Some(n.node.name.as_str()),
            _ => None,
        },
        _ => None,
    })
}

pub(super) fn arity_of(d: &Declarator) -> Option<(usize, bool)> {
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
    pub(super) fn collect(unit: &TranslationUnit) -> FnInfo {
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
        let (taken, escaping) = taken_functions(unit, &arity);
        let vars = declared_objects(unit);
        FnInfo {
            defs,
            arity,
            taken,
            escaping,
            vars,
            void_fns,
            array_typedefs: array_typedefs(unit),
            types: CalleeTypes::collect(unit),
            kept: HashSet::new(),
        }
    }

    /// True if calls of `name` are replaced by its body.
    pub(super) fn inlinable(&self, name: &str) -> bool {
        self.defs.contains_key(name) && !kept_call(name) && !self.kept.contains(name)
    }
}

/// The functions used as values (address taken), in order of first use, and those of them
/// whose address may be stored in the program's objects (see [`FnInfo::taken`]).
fn taken_functions(
    unit: &TranslationUnit,
    arity: &HashMap<String, (usize, bool)>,
) -> (Vec<String>, HashSet<String>) {
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
        fns: arity,
        out: vec![],
        escaping: HashSet::new(),
    };
    // Only code that can run creates a function's address: file-scope initializers and
    // the bodies of the functions reachable from them and from `main`.
    let reachable = reachable_functions(unit);
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => {
                let Ok(()) = visit::declaration(&mut t, d);
            }
            ExternalDeclaration::FunctionDefinition(f) => {
                if function_name(&f.node).is_none_or(|n| reachable.contains(n)) {
                    let Ok(()) = visit::function(&mut t, f);
                }
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
    (t.out, t.escaping)
}

/// The functions whose body may run: `main`, every function named in a file-scope
/// declaration (an initializer's `&f`, a handler table) or carrying an attribute (a
/// `constructor` runs before `main`), and, transitively, every function named anywhere in
/// the body of one of them (called or used as a value). A function named nowhere in
/// such code never runs and never has its address taken, so the functions it names are
/// not candidates of a call through a pointer.
fn reachable_functions(unit: &TranslationUnit) -> HashSet<String> {
    let mut bodies: HashMap<&str, &Node<FunctionDefinition>> = HashMap::new();
    let mut roots: Vec<String> = vec!["main".to_string()];
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::FunctionDefinition(f) => {
                let Some(n) = function_name(&f.node) else {
                    continue;
                };
                bodies.insert(n, f);
                let attributed = f
                    .node
                    .specifiers
                    .iter()
                    .any(|s| matches!(s.node, DeclarationSpecifier::Extension(_)))
                    || !f.node.declarator.node.extensions.is_empty();
                if attributed {
                    roots.push(n.to_string());
                }
            }
            ExternalDeclaration::Declaration(d) => {
                for_each_name(d, &mut |n| roots.push(n.to_string()));
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
    let mut reached = HashSet::new();
    while let Some(n) = roots.pop() {
        if !reached.insert(n.clone()) {
            continue;
        }
        if let Some(f) = bodies.get(n.as_str()) {
            for_each_name(*f, &mut |m| {
                if !reached.contains(m) {
                    roots.push(m.to_string());
                }
            });
        }
    }
    reached
}

/// Calls `f` with every identifier named in an expression under `node`.
fn for_each_name<T: Walkable + ?Sized>(node: &T, f: &mut dyn FnMut(&str)) {
    for_each_expr(node, Operands::All, |e| {
        if let Expression::Identifier(i) = &e.node {
            f(&i.node.name);
        }
    });
}

/// Names declared as objects anywhere (globals, locals, parameters).
fn declared_objects(unit: &TranslationUnit) -> HashSet<String> {
    struct DeclaredObjects(HashSet<String>);
    impl Visitor for DeclaredObjects {
        type Error = Infallible;
        fn declarator(&mut self, d: &Node<Declarator>) -> std::result::Result<Walk, Infallible> {
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
    let mut objects = DeclaredObjects(HashSet::new());
    let Ok(()) = visit::unit(&mut objects, unit);
    objects.0
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
pub(super) fn peel_deref(e: &Node<Expression>) -> Option<&str> {
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
