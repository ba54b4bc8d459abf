//! Disjoint array indices per thread (issue 30): threads created in one counted loop of
//! `main`, `i = 0; while (i < N) { …; pthread_create(&t[i], 0, f, (void *)i); …; i++; }`,
//! each get a different `i`; when `f` touches `a[(int)arg]` (or `a[k]` of a local `k`
//! set to `(int)arg` before anything else), no two of its instances touch one element.
//!
//! The index of such an access is [`Step::Own`]: two accesses of one part of one object
//! whose paths differ first at `Own` and that are made by the same routine (so by two of
//! its instances, or by one instance in program order) touch different elements. Sound
//! only when every condition holds:
//! * the routine is named by one `pthread_create` of the program, at top level of a
//!   counted loop of `main` (`threads::main_facts`, phased: `main` runs once, no label a
//!   goto names, no thread creates threads) whose counter `i` (an `int`, `unsigned` or
//!   `long` local of `main` whose address is never taken, written by the loop's `i = 0`
//!   and its last `i++` only) is the argument, cast to a pointer, possibly through an
//!   integer type at least as wide (`(void *)i`, `(void *)(long)i`);
//! * the routine is called by no function (its parameter is only ever a create's
//!   argument), its first parameter is never written and its address never taken, and its
//!   body has no label nor goto;
//! * the index is `(T)arg` (one cast of the parameter to an integer keyword type `T` at
//!   least as wide as the counter), or a *thread key*: an automatic local of the routine,
//!   arithmetic, whose address is never taken, declared at top level of the routine's body
//!   and assigned `(T)arg` by the very next statement, and whose every write anywhere is
//!   such an assignment. So its value is the instance's own wherever it is used.
//!
//! Any other index (`a[tid + 1]`, `a[tid / 2]`, a global copy) is an unknown index, as
//! before; `main`'s accesses of the array while threads run keep overlapping every index.

use super::decls::{Decls, VarId};
use super::scan::Scan;
use super::slot::{declared_then_assigned, is_named};
use super::threads::MainFacts;
use super::{Path, Step};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeSet, HashMap};
use std::convert::Infallible;

/// What [`Scan::argument_source`] says of the parameter itself, as a pointer.
pub const FROM_ARGUMENT: u32 = 0;

/// The width in bits of an integer type spelled with keywords only (`int`, `unsigned`,
/// `long`, `long long`, with `signed`/`unsigned`); none for any other type (`char`,
/// `short`, typedef names, pointers).
fn keyword_width<'t>(types: impl Iterator<Item = &'t TypeSpecifier>) -> Option<u32> {
    let mut long = false;
    let mut any = false;
    for t in types {
        any = true;
        match t {
            TypeSpecifier::Long => long = true,
            TypeSpecifier::Int | TypeSpecifier::Signed | TypeSpecifier::Unsigned => {}
            _ => return None,
        }
    }
    any.then_some(if long { 64 } else { 32 })
}

/// The width of a cast's integer type (no declarator: no pointer).
fn cast_width(t: &TypeName) -> Option<u32> {
    if t.declarator.is_some() {
        return None;
    }
    let mut types = vec![];
    for s in &t.specifiers {
        match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => types.push(&t.node),
            SpecifierQualifier::TypeQualifier(_) => {}
            SpecifierQualifier::Extension(_) => return None,
        }
    }
    keyword_width(types.into_iter())
}

/// Is the cast's type a pointer (`void *`)?
fn pointer_cast(t: &TypeName) -> bool {
    t.declarator.as_ref().is_some_and(|d| {
        matches!(d.node.kind.node, DeclaratorKind::Abstract)
            && !d.node.derived.is_empty()
            && d.node
                .derived
                .iter()
                .all(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
    })
}

/// The width of counter `i` of the counted loop `s` (a block declaring it, or a loop whose
/// counter is a top-level local of `main`'s `body`), when it is an integer keyword type.
pub fn counter_width(body: &[Node<BlockItem>], s: &Node<Statement>, i: &str) -> Option<u32> {
    let items = match &s.node {
        Statement::Compound(items) => items.as_slice(),
        _ => body,
    };
    items.iter().find_map(|it| {
        let BlockItem::Declaration(d) = &it.node else {
            return None;
        };
        let x =
            d.node.declarators.iter().find(|x| {
                ladr_c::syntax::build::declarator_name(&x.node.declarator.node) == Some(i)
            })?;
        let plain = x.node.declarator.node.derived.is_empty();
        let types = ladr_c::syntax::build::type_specifiers(&d.node.specifiers);
        keyword_width(types.into_iter()).filter(|_| plain)
    })
}

/// Is the create's argument the counter `i` (of width `w`) cast to a pointer, directly or
/// through one integer type at least as wide (`(void *)i`, `(void *)(long)i`)?
pub fn passes_counter(arg: &Node<Expression>, i: &str, w: u32) -> bool {
    let Expression::Cast(c) = &arg.node else {
        return false;
    };
    if !pointer_cast(&c.node.type_name.node) {
        return false;
    }
    let inner = &c.node.expression;
    match &inner.node {
        Expression::Cast(d) => {
            cast_width(&d.node.type_name.node).is_some_and(|x| x >= w)
                && is_named(&d.node.expression, i)
        }
        _ => is_named(inner, i),
    }
}

/// Does the body have a label or a goto?
pub(super) fn has_labels(f: &FunctionDefinition) -> bool {
    struct L(bool);
    impl Visitor for L {
        type Error = Infallible;
        fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
            self.0 |= matches!(s.node, Statement::Labeled(_) | Statement::Goto(_));
            Ok(Walk::Descend)
        }
    }
    let mut l = L(false);
    let _ = visit::stmt(&mut l, &f.statement);
    l.0
}

/// The indexed routines that keep their promise (their counter's width), their thread
/// keys and their slot pointers ([`super::slot`]), once the discovery has seen every
/// write: stored in `decls`.
pub fn thread_keys(
    decls: &mut Decls,
    facts: &MainFacts,
    reach: &HashMap<String, BTreeSet<String>>,
    (main_body, locals): (&[Node<BlockItem>], &HashMap<usize, VarId>),
) {
    for (r, &width) in &facts.indexed {
        let Some(&f) = decls.bodies.get(r) else {
            continue;
        };
        let called = reach.values().any(|s| s.contains(r));
        let param = decls.vars.iter().position(|v| {
            v.parameter && v.position == Some(0) && v.function.as_deref() == Some(r.as_str())
        });
        let Some(param) = param else { continue };
        let untouched = !decls.index_writes.contains_key(&param) && !decls.escaped.contains(&param);
        if called || r == "main" || !untouched || has_labels(f) {
            continue;
        }
        decls.index_routines.insert(r.clone(), width);
        let Statement::Compound(items) = &f.statement.node else {
            continue;
        };
        for (_, _, v) in declared_then_assigned(items, locals) {
            let var = &decls.vars[v];
            let key = var.automatic
                && !var.parameter
                && var.arithmetic
                && var.depth == Some(0)
                && !decls.escaped.contains(&v)
                && decls
                    .index_writes
                    .get(&v)
                    .is_some_and(|w| w.is_some_and(|w| w >= width));
            if key {
                decls.thread_keys.insert(v);
            }
        }
    }
    super::slot::slot_pointers(decls, facts, main_body, locals);
}

impl<'a> Scan<'_, 'a> {
    /// The width of `e` when it is `(T)arg`: one cast of the walked function's first
    /// parameter to an integer keyword type.
    pub fn index_source(&self, e: &Node<Expression>) -> Option<u32> {
        let Expression::Cast(c) = &e.node else {
            return None;
        };
        let Expression::Identifier(p) = &c.node.expression.node else {
            return None;
        };
        let v = &self.decls.vars[self.lookup(&p.node.name)?];
        let own_parameter = v.parameter
            && v.position == Some(0)
            && v.function.as_deref() == Some(self.function.as_str());
        own_parameter
            .then(|| cast_width(&c.node.type_name.node))
            .flatten()
    }

    /// What an assignment of `e` gives: the width of `(T)arg` (an integer cast of the
    /// walked function's first parameter), or [`FROM_ARGUMENT`] for `arg` itself or
    /// `(T *)arg`.
    pub fn argument_source(&self, e: &Node<Expression>) -> Option<u32> {
        let (inner, pointer) = match &e.node {
            Expression::Cast(c) => (&*c.node.expression, pointer_cast(&c.node.type_name.node)),
            _ => (e, true),
        };
        let Expression::Identifier(p) = &inner.node else {
            return None;
        };
        let v = &self.decls.vars[self.lookup(&p.node.name)?];
        let own_parameter = v.parameter
            && v.position == Some(0)
            && v.function.as_deref() == Some(self.function.as_str());
        match (own_parameter, pointer) {
            (false, _) => None,
            (true, true) => Some(FROM_ARGUMENT),
            (true, false) => self.index_source(e),
        }
    }

    /// A write of variable `v` (`given`: what [`Scan::argument_source`] said of the value
    /// it was given, if that is all): a thread key or slot pointer only when all its
    /// writes are such.
    pub fn wrote_index(&mut self, v: VarId, given: Option<u32>) {
        self.decls
            .index_writes
            .entry(v)
            .and_modify(|old| {
                *old = match (*old, given) {
                    (Some(a), Some(b)) if a == b => Some(a),
                    (Some(a), Some(b)) if a != FROM_ARGUMENT && b != FROM_ARGUMENT => {
                        Some(a.min(b))
                    }
                    _ => None,
                }
            })
            .or_insert(given);
    }

    /// Is `e`, as an index in the walked function, its instance's own index?
    fn thread_index(&self, e: &Node<Expression>) -> bool {
        let Some(&width) = self.decls.index_routines.get(&self.function) else {
            return false;
        };
        match &e.node {
            Expression::Identifier(i) => self
                .lookup(&i.node.name)
                .is_some_and(|k| self.decls.thread_keys.contains(&k)),
            _ => self.index_source(e).is_some_and(|w| w >= width),
        }
    }

    /// The step of index `e` (an owner's element, `P[e]`).
    pub fn index_step(&self, e: &Node<Expression>) -> Step {
        let key = e as *const Node<Expression> as usize;
        match super::access::constant_index(e) {
            None if self.thread_index(e) => Step::Own,
            // An iteration's own index of a claim loop or chunk ([`Step::Iter`]).
            None => self
                .decls
                .iterations
                .get(&key)
                .cloned()
                .unwrap_or(Step::Index(None)),
            c => Step::Index(c),
        }
    }

    /// `path`, the part `e` names ([`Scan::part`]), with its unknown indices that are the
    /// thread's own index made [`Step::Own`].
    pub fn own_path(&self, e: &Node<Expression>, mut path: Path) -> Path {
        fn steps(s: &Scan, e: &Node<Expression>, out: &mut Vec<bool>) -> bool {
            match &e.node {
                Expression::Identifier(_) => true,
                Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
                    out.push(false);
                    steps(s, &m.node.expression, out)
                }
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                    out.push(s.thread_index(&b.node.rhs));
                    steps(s, &b.node.lhs, out)
                }
                _ => false,
            }
        }
        let mut own = vec![];
        if !steps(self, e, &mut own) || own.len() != path.len() {
            return path;
        }
        own.reverse();
        for (step, own) in path.iter_mut().zip(own) {
            if own && *step == Step::Index(None) {
                *step = Step::Own;
            }
        }
        path
    }
}
