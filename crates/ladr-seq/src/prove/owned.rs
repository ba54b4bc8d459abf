//! Heap blocks owned by one global pointer (issue 30, points-to by allocation): a global
//! `P` of type "pointer to arithmetic" whose every value is a block no other pointer
//! holds. Then `P[i]` and `*P` touch only the blocks `P` has held (one summary object,
//! [`super::scan::Target::Owned`]), never a named variable or memory another pointer
//! reaches, and no other access through a pointer touches them.
//!
//! Ownership is read off the syntax, everywhere in the program, names resolved by scope to
//! their declaration (parameters are no owners: the caller's value is not fresh). An
//! *owner* is a global `P` (pointee arithmetic, no initialiser but `0`) or an
//! automatic local `L` (no initialiser) each of whose evaluated occurrences is one of:
//!
//! * the base of an element access `N[i]`, `*N` (pointee arithmetic: an element never
//!   decays to an address; `&N[i]`, `&*N` are no such occurrence);
//! * the left side of `N = E`, `E` fresh: `malloc`/`calloc` (no body in the program), a
//!   call of a fresh function, `0`, or a local owner `M` of the same function (a
//!   *transfer*);
//! * a local's `return N` (the function's frame ends: the block leaves it);
//! * `M` of a transfer `N = M`: a local used so (once in the program) is never an element
//!   base nor returned — after the transfer it holds a block it never touches again.
//!
//! A *fresh function* returns only its local owners (or `0`). By induction on the
//! execution, every block an owner holds came from an allocation and was held before
//! only by owners that never touch it again (transfer sources, ended frames): the
//! greatest fixpoint below is sound. Several globals never share a block: a global is
//! never a transfer source, and one source transfers to one variable.
//!
//! An owner's accesses before a block reaches a global (`L[i] = …` in the allocating
//! function) stay accesses through a pointer: the block is published by a write of the
//! global, which the proof judges as any variable — when that write cannot race with the
//! read that fetches the block, the publisher's earlier accesses happen before.

use super::decls::{Decls, VarId};
use ladr_c::syntax::build::{
    declarator_name, is_arithmetic_keyword, is_function_declarator, is_typedef,
};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// What the right side of an assignment (or a returned value) is.
#[derive(Clone, Debug)]
enum Value {
    /// A call of a function by name.
    Call(String),
    /// A variable's name, with the occurrence.
    Name(String, usize),
    Zero,
    Other,
}

/// A local declared in a function body.
#[derive(Clone, Debug)]
struct Local {
    function: String,
    /// Automatic, a pointer (or `normalise`'s `__typeof__` temporary), with no
    /// initialiser.
    plain: bool,
    pointee_arithmetic: bool,
}

/// A variable as the collector names it: a global by its name, a local by its name and
/// declaration (`name#k`).
type Key = String;

#[derive(Default)]
struct Collect {
    function: Option<String>,
    /// The locals in scope, innermost last.
    scopes: Vec<HashMap<String, Key>>,
    /// The names of all locals and parameters (a call of such a name may be through a
    /// pointer).
    local_names: HashSet<String>,
    declared: usize,
    /// File-scope variables: pointee arithmetic and no initialiser (but `0`) in every
    /// declaration.
    globals: HashMap<String, bool>,
    locals: HashMap<String, Local>,
    /// Parameters, typedefs, names whose element's address is taken: no owners.
    blocked: HashSet<String>,
    /// Every evaluated occurrence of a name (the node's address).
    occurrences: Vec<(String, usize)>,
    /// Occurrences that are the base of `N[i]` or `*N`.
    bases: HashSet<usize>,
    /// `N = E` in function …: the left side's occurrence and `E`.
    assigns: Vec<(String, usize, Value)>,
    /// `return E` in function ….
    returns: Vec<(String, Value)>,
}

fn strip_casts(e: &Node<Expression>) -> &Node<Expression> {
    match &e.node {
        Expression::Cast(c) => strip_casts(&c.node.expression),
        _ => e,
    }
}

fn address(e: &Node<Expression>) -> usize {
    e as *const Node<Expression> as usize
}

fn identifier(e: &Node<Expression>) -> Option<&str> {
    match &e.node {
        Expression::Identifier(i) => Some(i.node.name.as_str()),
        _ => None,
    }
}

/// The base `N` of `N[i]` or `*N`.
fn element_base(e: &Node<Expression>) -> Option<&Node<Expression>> {
    let base = match &e.node {
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            &b.node.lhs
        }
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
            &u.node.operand
        }
        _ => return None,
    };
    identifier(base).map(|_| &**base)
}

impl Collect {
    fn resolve(&self, name: &str) -> Key {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).cloned())
            .unwrap_or_else(|| name.to_string())
    }

    fn declare(&mut self, name: &str) -> Key {
        self.declared += 1;
        self.local_names.insert(name.to_string());
        let key = format!("{name}#{}", self.declared);
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), key.clone());
        }
        key
    }

    fn value(&self, e: &Node<Expression>) -> Value {
        let e = strip_casts(e);
        match &e.node {
            Expression::Identifier(i) => Value::Name(self.resolve(&i.node.name), address(e)),
            _ => value(e),
        }
    }
}

fn value(e: &Node<Expression>) -> Value {
    let e = strip_casts(e);
    match &e.node {
        Expression::Call(c) => match identifier(&c.node.callee) {
            Some(f) => Value::Call(f.to_string()),
            None => Value::Other,
        },
        Expression::Identifier(i) => Value::Name(i.node.name.clone(), address(e)),
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) if i.number.trim_start_matches('0').is_empty() => Value::Zero,
            _ => Value::Other,
        },
        _ => Value::Other,
    }
}

impl Visitor for Collect {
    type Error = Infallible;
    const UNEVALUATED: bool = false;

    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        match &e.node {
            Expression::Identifier(i) => {
                let key = self.resolve(&i.node.name);
                self.occurrences.push((key, address(e)))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                if let Some(n) = element_base(&u.node.operand).and_then(identifier) {
                    let key = self.resolve(n);
                    self.blocked.insert(key);
                }
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
                if let (Some(n), Some(_)) = (identifier(&b.node.lhs), &self.function) {
                    let v = self.value(&b.node.rhs);
                    self.assigns
                        .push((self.resolve(n), address(&b.node.lhs), v));
                }
            }
            _ => {}
        }
        if let Some(base) = element_base(e) {
            self.bases.insert(address(base));
        }
        Ok(Walk::Descend)
    }

    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        match &s.node {
            Statement::Compound(_) | Statement::For(_) => {
                self.scopes.push(HashMap::new());
                let Ok(()) = visit::stmt_children(self, &s.node);
                self.scopes.pop();
                return Ok(Walk::Skip);
            }
            Statement::Return(r) => {
                if let Some(f) = &self.function {
                    let v = r.as_ref().map(|e| self.value(e)).unwrap_or(Value::Other);
                    self.returns.push((f.clone(), v));
                }
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }

    fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
        let typedef = is_typedef(&d.node);
        let storage = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c)
                if c.node != StorageClassSpecifier::Register)
        });
        for init in &d.node.declarators {
            let declarator = &init.node.declarator.node;
            let Some(name) = declarator_name(declarator) else {
                continue;
            };
            if is_function_declarator(declarator) {
                continue;
            }
            let key = match self.function {
                Some(_) => self.declare(name),
                None => name.to_string(),
            };
            // K&R parameter declarations (the parameters' scope): no owners.
            if typedef || (self.function.is_some() && self.scopes.len() == 1) {
                self.blocked.insert(key);
                continue;
            }
            let zero = init.node.initializer.as_ref().is_none_or(|i| {
                matches!(&i.node, Initializer::Expression(e) if matches!(value(e), Value::Zero))
            });
            let pointee = pointee_arithmetic(&d.node.specifiers, declarator);
            match &self.function {
                None => {
                    let ok = self.globals.entry(key).or_insert(true);
                    *ok &= zero && pointee;
                }
                Some(f) => {
                    let pointer_like = match declarator.derived.as_slice() {
                        [d] => matches!(d.node, DerivedDeclarator::Pointer(_)),
                        [] => d.node.specifiers.iter().any(|s| {
                            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t)
                                if matches!(t.node, TypeSpecifier::TypeOf(_)))
                        }),
                        _ => false,
                    };
                    let pointer_like = pointer_like
                        && matches!(declarator.kind.node, DeclaratorKind::Identifier(_));
                    let local = Local {
                        function: f.clone(),
                        plain: !storage && init.node.initializer.is_none() && pointer_like,
                        pointee_arithmetic: pointee,
                    };
                    self.locals.insert(key, local);
                }
            }
        }
        Ok(Walk::Descend)
    }
}

/// Is `declarator` exactly a pointer to arithmetic values (`unsigned *p`, no typedef)?
fn pointee_arithmetic(specs: &[Node<DeclarationSpecifier>], declarator: &Declarator) -> bool {
    let pointer = matches!(declarator.kind.node, DeclaratorKind::Identifier(_))
        && matches!(declarator.derived.as_slice(), [d] if matches!(d.node, DerivedDeclarator::Pointer(_)));
    pointer
        && specs.iter().all(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => is_arithmetic_keyword(&t.node),
            DeclarationSpecifier::TypeQualifier(q) => q.node != TypeQualifier::Atomic,
            DeclarationSpecifier::StorageClass(_) => true,
            _ => false,
        })
}

/// The globals that own their blocks (see the module's documentation).
pub fn owned_globals(unit: &TranslationUnit, decls: &Decls) -> HashSet<VarId> {
    let mut c = Collect::default();
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => {
                let Ok(()) = visit::declaration(&mut c, d);
            }
            ExternalDeclaration::StaticAssert(_) => {}
            ExternalDeclaration::FunctionDefinition(f) => {
                let name = declarator_name(&f.node.declarator.node).unwrap_or_default();
                c.function = Some(name.to_string());
                // Parameters (and K&R declarations): no owners, and they shadow.
                c.scopes.push(HashMap::new());
                for p in parameters(&f.node.declarator.node) {
                    let key = c.declare(&p);
                    c.blocked.insert(key);
                }
                let Ok(()) = visit::function(&mut c, f);
                c.scopes.clear();
                c.function = None;
            }
        }
    }
    let is_global = |n: &str| c.globals.get(n).copied();
    // Candidates: globals of one kind of declaration, locals declared once.
    let mut owners: HashSet<String> = HashSet::new();
    for (n, &ok) in &c.globals {
        let var = decls.globals.get(n).map(|&v| &decls.vars[v]);
        let plain = var.is_some_and(|v| !v.thread_local && !v.atomic);
        if ok && plain && !c.blocked.contains(n) {
            owners.insert(n.clone());
        }
    }
    for (n, l) in &c.locals {
        if l.plain && !c.blocked.contains(n) {
            owners.insert(n.clone());
        }
    }
    let local_of = |n: &str, f: &str| c.locals.get(n).is_some_and(|l| l.function == f);
    // A callee named as a function, not a variable (a pointer) of that name.
    let function = |f: &str| !c.local_names.contains(f) && !c.globals.contains_key(f);
    let allocator =
        |f: &str| matches!(f, "malloc" | "calloc") && !decls.bodies.contains_key(f) && function(f);
    loop {
        // Fresh functions: every return gives a local owner of the function (or 0).
        let mut returns: HashMap<&str, bool> = HashMap::new();
        for (f, v) in &c.returns {
            let fresh = match v {
                Value::Name(n, _) => owners.contains(n) && local_of(n, f),
                Value::Zero => true,
                _ => false,
            };
            *returns.entry(f.as_str()).or_insert(true) &= fresh;
        }
        let fresh_call =
            |f: &str| allocator(f) || (function(f) && returns.get(f).copied().unwrap_or(false));
        let mut fine: HashSet<usize> = HashSet::new();
        let mut transfers: HashMap<&str, usize> = HashMap::new();
        let mut returned: HashSet<&str> = HashSet::new();
        for (n, at, v) in &c.assigns {
            if !owners.contains(n) {
                continue;
            }
            let fresh = match v {
                Value::Call(f) => fresh_call(f),
                Value::Zero => true,
                Value::Name(m, source) => {
                    let local = c
                        .locals
                        .get(m)
                        .is_some_and(|l| c.locals.get(n).is_none_or(|k| k.function == l.function));
                    if local && owners.contains(m) {
                        fine.insert(*source);
                        *transfers.entry(m.as_str()).or_default() += 1;
                    }
                    local && owners.contains(m)
                }
                Value::Other => false,
            };
            if fresh {
                fine.insert(*at);
            }
        }
        for (f, v) in &c.returns {
            if let Value::Name(n, at) = v {
                if owners.contains(n) && local_of(n, f) {
                    fine.insert(*at);
                    returned.insert(n.as_str());
                }
            }
        }
        let mut based: HashSet<&str> = HashSet::new();
        let mut bad: HashSet<String> = HashSet::new();
        for (n, at) in &c.occurrences {
            if !owners.contains(n) {
                continue;
            }
            let pointee = match c.locals.get(n) {
                Some(l) => l.pointee_arithmetic,
                None => is_global(n).unwrap_or(false),
            };
            if c.bases.contains(at) && pointee {
                based.insert(n.as_str());
            } else if !fine.contains(at) {
                bad.insert(n.clone());
            }
        }
        for (m, k) in &transfers {
            if *k > 1 || based.contains(m) || returned.contains(m) {
                bad.insert(m.to_string());
            }
        }
        if bad.is_empty() {
            break;
        }
        owners.retain(|n| !bad.contains(n));
    }
    owners
        .iter()
        .filter_map(|n| decls.globals.get(n).copied())
        .collect()
}

/// The names of the parameters of a function definition's declarator.
fn parameters(d: &Declarator) -> Vec<String> {
    let mut out = vec![];
    if let DeclaratorKind::Declarator(inner) = &d.kind.node {
        out = parameters(&inner.node);
    }
    for x in &d.derived {
        match &x.node {
            DerivedDeclarator::Function(f) => {
                out.extend(f.node.parameters.iter().filter_map(|p| {
                    let d = p.node.declarator.as_ref()?;
                    declarator_name(&d.node).map(str::to_string)
                }));
            }
            DerivedDeclarator::KRFunction(ids) => {
                out.extend(ids.iter().map(|i| i.node.name.clone()));
            }
            _ => {}
        }
    }
    out
}
