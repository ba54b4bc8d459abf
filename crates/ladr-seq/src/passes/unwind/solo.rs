//! `unwind`'s set-up loops: a loop of `main` that runs before any thread exists, has a
//! constant bound beyond `max_unwind` (so its copies would cut every execution before the
//! threads) and only stores into objects (`for (i = 0; i < 1000; i++) a[i] = i;`) becomes
//! one step that gives
//! every object it writes an arbitrary value and leaves the loop's test false:
//!
//! ```text
//! while (c) S   ──▶   { __CPROVER_havoc_object(&x); …; __CPROVER_havoc_object(a); …;
//!                       __CPROVER_assume(!(c)); }
//! ```
//!
//! Why it is sound: only `main` runs, so the loop's accesses race with nothing; what the
//! threads see afterwards is the objects' final values, and every final value of a
//! terminating run is among the arbitrary ones (a run that never ends never starts a thread).
//! The step over-approximates the loop: it adds executions, never removes one, so a "no
//! race" still holds for the program, and no cut is needed — where unwinding it would cut
//! the program before any thread (a vacuous "no race") or copy its body a thousand times.
//! A race it finds may rest on values the loop never stores (an index array filled by the
//! loop): that is the price, paid only for loops the unwinding could not keep whole.
//!
//! What qualifies (`setup_loop`): the body and test call nothing but `__CPROVER_havoc_object`
//! of a local and `__VERIFIER_nondet_*`; they jump only to labels inside the body and do
//! not return; every store is to a variable (`x`, `x.f`), to `p[e]` (one index: the object
//! `p` points into or the array `p`), or to `a[e1]…[ek]` with `a` declared an array of at
//! least k dimensions; no indexed root is itself assigned in the loop; and no variable it
//! writes is one `unwind` takes for a constant. Where "before any thread" ends
//! (`Unwinder::solo`): at the first statement of `main` that creates a thread, calls a kept
//! function (which may), or holds the target of a backward `goto` (a loop around it).
//!
//! Before that step, a set-up loop that calls nothing (no allocation, no library call: only
//! stores and the havocs of its own locals) and whose constant bound, with the constant-bound
//! loops nested in it, copies its body at most 10 × `max_unwind` times and its statements at
//! most 40 × `max_unwind` times is unwound whole instead (`solo_whole`): exact, no cut, no
//! summary, so a race after it rests only on values the program stores
//! (`for (i = 0; i < 512; i++) t->arr[i].first = NULL;`, a 3 × 64 nest of list heads).
//! Its copies are solo statements: not visible, not instrumented, straight-line code for
//! CBMC. A loop that allocates stays as before (each copy would be a heap object every
//! pointer into the heap may point to: the shadow memory's cost grows with their number).

use super::{Bound, Unwinder};
use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::{is_assign_op, is_inc_dec, Walk};
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::convert::Infallible;

/// What a loop writes and whether it does anything the set-up abstraction cannot cover.
#[derive(Default)]
pub(super) struct Effects {
    /// Variables written whole (`x = …`, `x.f = …`, `x++`, `__CPROVER_havoc_object(&x)`).
    pub(super) whole: BTreeSet<String>,
    /// Roots of indexed stores, with the number of indices (`a[i][j] = …`: `a`, 2).
    pub(super) indexed: HashMap<String, usize>,
    pub(super) labels: HashSet<String>,
    pub(super) gotos: HashSet<String>,
    pub(super) declared: HashSet<String>,
    pub(super) refused: bool,
}

impl Effects {
    /// Records the store to the lvalue `e`.
    fn store(&mut self, e: &Node<Expression>) {
        let mut e = e;
        let mut indices = 0;
        loop {
            match &e.node {
                Expression::Identifier(i) => {
                    if indices == 0 {
                        self.whole.insert(i.node.name.clone());
                    } else {
                        let n = self.indexed.entry(i.node.name.clone()).or_insert(0);
                        *n = (*n).max(indices);
                    }
                    return;
                }
                Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
                    // `p[i].f`: the store is inside the object `p` points into; `s.p[i]`
                    // is a store through a pointer member: refused.
                    if indices > 0 {
                        self.refused = true;
                        return;
                    }
                    e = &m.node.expression;
                }
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                    indices += 1;
                    e = &b.node.lhs;
                }
                _ => {
                    self.refused = true;
                    return;
                }
            }
        }
    }
}

impl Visitor for Effects {
    type Error = Infallible;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        match &e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                self.store(&b.node.lhs)
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                self.store(&u.node.operand)
            }
            Expression::Call(c) => match callee_name(&c.node) {
                Some(abi::HAVOC) => match c.node.arguments.as_slice() {
                    [Node {
                        node: Expression::UnaryOperator(u),
                        ..
                    }] if u.node.operator.node == UnaryOperator::Address => {
                        self.store(&u.node.operand)
                    }
                    _ => self.refused = true,
                },
                Some(f) if f.starts_with(abi::NONDET_PREFIX) => {}
                _ => self.refused = true,
            },
            _ => {}
        }
        Ok(Walk::Descend)
    }
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        match &s.node {
            Statement::Labeled(l) => {
                if let Label::Identifier(i) = &l.node.label.node {
                    self.labels.insert(i.node.name.clone());
                }
            }
            Statement::Goto(g) => {
                self.gotos.insert(g.node.name.clone());
            }
            Statement::Return(_)
            | Statement::Asm(_)
            | Statement::Break
            | Statement::Continue
            | Statement::Switch(_) => self.refused = true,
            _ => {}
        }
        Ok(Walk::Descend)
    }
    fn declarator(&mut self, d: &Node<Declarator>) -> Result<Walk, Infallible> {
        if let Some(n) = declarator_name(&d.node) {
            self.declared.insert(n.to_string());
        }
        Ok(Walk::Descend)
    }
}

impl Unwinder<'_> {
    /// The one step that replaces the set-up loop `s`, if it qualifies (see the module).
    pub(super) fn setup_loop(&self, s: &Node<Statement>) -> Option<Node<Statement>> {
        let Statement::While(w) = &s.node else {
            return None;
        };
        let mut fx = Effects::default();
        let Ok(()) = visit::stmt(&mut fx, s);
        let span = s.span;
        let mut items = self.summary_havocs(&fx, |_| false, span)?;
        items.push(assume(not(w.node.expression.as_ref().clone(), span), span));
        Some(block_of(items, span))
    }

    /// The havocs that give what a loop of effects `fx` writes outside its own
    /// declarations arbitrary values: the variables written whole (`havoc(&x)`), then the
    /// roots of indexed stores (`havoc(a)`), each in order. None where the loop does what
    /// such a step cannot cover (see the module), or writes a name `kept` keeps.
    pub(super) fn summary_havocs(
        &self,
        fx: &Effects,
        kept: impl Fn(&str) -> bool,
        span: lang_c::span::Span,
    ) -> Option<Vec<Node<Statement>>> {
        if fx.refused || !fx.gotos.is_subset(&fx.labels) {
            return None;
        }
        let outside = |v: &String| !fx.declared.contains(v);
        let whole: Vec<&String> = fx.whole.iter().filter(|v| outside(v)).collect();
        if whole
            .iter()
            .any(|v| kept(v) || self.consts.contains_key(*v) || fx.indexed.contains_key(*v))
        {
            return None;
        }
        let mut indexed: Vec<(&String, &usize)> =
            fx.indexed.iter().filter(|(v, _)| outside(v)).collect();
        indexed.sort();
        for (v, depth) in &indexed {
            if kept(v)
                || self.consts.contains_key(*v)
                || (**depth > 1 && self.array_dims.get(*v).copied().unwrap_or(0) < **depth)
            {
                return None;
            }
        }
        let mut items: Vec<Node<Statement>> = whole
            .into_iter()
            .map(|v| expr_stmt(call(abi::HAVOC, vec![addr(ident(v, span), span)], span)))
            .collect();
        items.extend(
            indexed
                .into_iter()
                .map(|(v, _)| expr_stmt(call(abi::HAVOC, vec![ident(v, span)], span))),
        );
        Some(items)
    }
}

/// The copies of a set-up loop's body [`Unwinder::solo_whole`] allows, per `max_unwind`.
const WHOLE_COPIES_PER_UNWIND: i128 = 10;
/// The statements of a set-up loop's copies [`Unwinder::solo_whole`] allows, per `max_unwind`.
const WHOLE_STATEMENTS_PER_UNWIND: i128 = 40;

/// The statements of a loop, and whether it calls anything but `__CPROVER_havoc_object` of
/// a variable (`refused`).
#[derive(Default)]
struct Straight {
    statements: i128,
    refused: bool,
}

impl Visitor for Straight {
    type Error = Infallible;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        if let Expression::Call(c) = &e.node {
            let havoc_of_variable = callee_name(&c.node) == Some(abi::HAVOC)
                && matches!(c.node.arguments.as_slice(), [Node {
                    node: Expression::UnaryOperator(u),
                    ..
                }] if u.node.operator.node == UnaryOperator::Address
                    && matches!(u.node.operand.node, Expression::Identifier(_)));
            if !havoc_of_variable {
                self.refused = true;
            }
        }
        Ok(Walk::Descend)
    }
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        match &s.node {
            Statement::Asm(_) => self.refused = true,
            Statement::Compound(_) => {}
            _ => self.statements += 1,
        }
        Ok(Walk::Descend)
    }
}

impl Unwinder<'_> {
    /// The trip count of the set-up loop `s` (after `prev`) and whether it is exact (no cut
    /// needed), if it is to be unwound whole (see the module): it calls nothing, and its
    /// copies with those of the constant-bound loops nested in it stay within the budget.
    pub(super) fn solo_whole(
        &self,
        prev: &Node<Statement>,
        s: &Node<Statement>,
    ) -> Option<(usize, bool)> {
        let Statement::While(w) = &s.node else {
            return None;
        };
        let limit = self.max_unwind.saturating_mul(WHOLE_COPIES_PER_UNWIND);
        let Some(Bound::Known(n, exact)) = self.constant_bound_within(prev, s, limit) else {
            return None;
        };
        let copies = (n as i128).saturating_mul(self.nested_copies(&w.node.statement, None, limit));
        let mut body = Straight::default();
        let Ok(()) = visit::stmt(&mut body, s);
        let statements = copies.saturating_mul(body.statements);
        let within = copies <= limit
            && statements <= self.max_unwind.saturating_mul(WHOLE_STATEMENTS_PER_UNWIND);
        (!body.refused && within).then_some((n, exact))
    }
}

/// A visitor collecting the variables declared as arrays, with their number of dimensions
/// (a declarator with any pointer in it is left out).
struct Arrays(HashMap<String, usize>);

impl Visitor for Arrays {
    type Error = Infallible;
    fn declarator(&mut self, d: &Node<Declarator>) -> Result<Walk, Infallible> {
        if let Some(n) = declarator_name(&d.node) {
            let arrays = d
                .node
                .derived
                .iter()
                .filter(|x| matches!(x.node, DerivedDeclarator::Array(_)))
                .count();
            // `T (*p)[N]…`: a pointer to rows; `p[i][j]…` indexes the one object it
            // points into.
            let rows = matches!(&d.node.kind.node, DeclaratorKind::Declarator(inner)
                if matches!(inner.node.derived.as_slice(),
                    [Node { node: DerivedDeclarator::Pointer(_), .. }])
                    && matches!(inner.node.kind.node, DeclaratorKind::Identifier(_)));
            if arrays == d.node.derived.len() && arrays > 0 && rows {
                self.0.insert(n.to_string(), arrays + 1);
                return Ok(Walk::Skip);
            }
            if arrays == d.node.derived.len() && arrays > 0 {
                self.0.insert(n.to_string(), arrays);
            } else {
                self.0.remove(n);
            }
        }
        Ok(Walk::Descend)
    }
}

/// The file-scope variables of `unit` declared as arrays, with their dimensions.
pub(super) fn global_array_dims(unit: &TranslationUnit) -> HashMap<String, usize> {
    let mut a = Arrays(HashMap::new());
    for ext in &unit.0 {
        if let ExternalDeclaration::Declaration(d) = &ext.node {
            let Ok(()) = visit::declaration(&mut a, d);
        }
    }
    a.0
}

/// `globals` (from [`global_array_dims`]) with `f`'s own arrays over them.
pub(super) fn array_dims(
    globals: &HashMap<String, usize>,
    f: &FunctionDefinition,
) -> HashMap<String, usize> {
    let mut a = Arrays(globals.clone());
    let Ok(()) = visit::stmt(&mut a, &f.statement);
    a.0
}

/// The labels of `body` that a `goto` after them jumps back to.
pub(super) fn backward_labels(body: &Node<Statement>) -> HashSet<String> {
    struct Order(Vec<(bool, String)>);
    impl Visitor for Order {
        type Error = Infallible;
        fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
            match &s.node {
                Statement::Labeled(l) => {
                    if let Label::Identifier(i) = &l.node.label.node {
                        self.0.push((true, i.node.name.clone()));
                    }
                }
                Statement::Goto(g) => self.0.push((false, g.node.name.clone())),
                _ => {}
            }
            Ok(Walk::Descend)
        }
    }
    let mut o = Order(Vec::new());
    let Ok(()) = visit::stmt(&mut o, body);
    let mut seen = HashSet::new();
    let mut backward = HashSet::new();
    for (is_label, name) in o.0 {
        if is_label {
            seen.insert(name);
        } else if seen.contains(&name) {
            backward.insert(name);
        }
    }
    backward
}

/// True if `it` may start a thread (a `pthread_create`, a call of a kept function) or holds
/// a label of `backward` (code that may run again later).
pub(super) fn ends_solo(
    it: &Node<BlockItem>,
    kept: &BTreeSet<String>,
    backward: &HashSet<String>,
) -> bool {
    struct Ends<'a>(&'a BTreeSet<String>, &'a HashSet<String>, bool);
    impl Visitor for Ends<'_> {
        type Error = Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
            if let Expression::Call(c) = &e.node {
                match callee_name(&c.node) {
                    Some(f) if f == "pthread_create" || self.0.contains(f) => self.2 = true,
                    Some(_) => {}
                    None => self.2 = true,
                }
            }
            Ok(Walk::Descend)
        }
        fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
            if let Statement::Labeled(l) = &s.node {
                if let Label::Identifier(i) = &l.node.label.node {
                    if self.1.contains(&i.node.name) {
                        self.2 = true;
                    }
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut e = Ends(kept, backward, false);
    let Ok(()) = visit::block_item(&mut e, it);
    e.2
}
