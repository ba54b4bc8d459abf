//! Indices of a value every running thread read alike (issue 31; `docs/decisions/static.md`,
//! "Rows of a value the team shares"). An OpenMP region inside a sequential loop of
//! `main` (`for (i = 1; i < n; i++) { #pragma omp parallel for … b[i][j] = b[i - 1][j - 1];
//! }`) hands `i` to its routine through a capture: `i = cap_i;` at the routine's start.
//! Every thread of the team reads the same value, so `b[i]` and `b[i - 1]` are different
//! rows for any two of them.
//!
//! An index `v + c` (`c` a constant) in function `f` is [`Step::Inv`]`(g, c)` when `v` is an
//! automatic local of `f`, not a parameter, declared once, its address never taken, whose
//! only write in `f` is a top-level statement `v = g;` (`g` a file-scope variable), with no
//! label in or before that statement and no mention of `v` before it: every read of `v`
//! in a call of `f` reads the value `g` had when that call ran the statement.
//!
//! Two accesses with `Inv(g, c)` and `Inv(g, d)`, `c ≠ d`, made at once by two threads
//! touch different elements when `g` is written only while no other thread may run and
//! its address is never taken ([`super::objects`] checks that from `g`'s own uses): from
//! the earlier of the two reads of `g` to the accesses some thread other than the writer
//! is alive (each reader is, from its read on), so no write of `g` falls between the two
//! reads and both read one value.
//!
//! The same local as the pointer of an element access, `v[e]`, is [`Step::Base`]`(g, T)`
//! (`T` `v`'s arithmetic pointee type): the element `e` of the array of `T` that starts
//! where `g` pointed, one start for all threads by the same argument ([`Decls::bases`]).
//!
//! [`Decls::bases`]: super::decls::Decls::bases

use super::decls::VarId;
use super::worksharing::{assignment, constant, name_of, Effects};
use super::{Path, Step};
use ladr_c::syntax::query::{for_each_expr, Operands};
use ladr_c::syntax::walk::visit;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// `v + c`, `v - c`, `c + v`, `v`: `c`.
pub(super) fn offset(e: &Node<Expression>, v: &str) -> Option<i64> {
    name_offset(e).filter(|(n, _)| *n == v).map(|(_, c)| c)
}

/// `v`, `v + c`, `c + v` or `v - c` of a name `v` and a constant `c`: (`v`, `c`).
pub(super) fn name_offset(e: &Node<Expression>) -> Option<(&str, i64)> {
    match &e.node {
        Expression::Identifier(x) => Some((&x.node.name, 0)),
        Expression::BinaryOperator(b) => {
            let (l, r) = (&b.node.lhs, &b.node.rhs);
            match b.node.operator.node {
                BinaryOperator::Plus => match (name_of(l), name_of(r)) {
                    (Some(v), _) => Some((v, constant(r)?)),
                    (_, Some(v)) => Some((v, constant(l)?)),
                    _ => None,
                },
                BinaryOperator::Minus => Some((name_of(l)?, constant(r)?.checked_neg()?)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The automatic locals of `f` that hold the value a file-scope variable had when the
/// call read it (module doc): each local's name, with that variable, and the top-level
/// statement that writes it (`whole`: what `f`'s body does with its names).
pub(super) fn invariant_locals(
    f: &FunctionDefinition,
    whole: &Effects,
    globals: &HashMap<String, VarId>,
) -> HashMap<String, (VarId, usize)> {
    let mut out = HashMap::new();
    let Statement::Compound(items) = &f.statement.node else {
        return out;
    };
    let params = ladr_c::syntax::build::parameter_names(&f.declarator.node);
    for item in items {
        let Some((v, value)) = assignment(item) else {
            continue;
        };
        let Some(&g) = name_of(value).and_then(|g| globals.get(g)) else {
            continue;
        };
        // `v`'s one write, this one, before any mention and with no label before.
        let Some(k) = super::values::single_write(items, v) else {
            continue;
        };
        let declared_once = whole.declared.iter().filter(|d| *d == v).count() == 1;
        let local = std::ptr::eq(&items[k], item)
            && declared_once
            && !params.iter().any(|p| p == v)
            && !globals.contains_key(v)
            && super::worksharing::automatic(&f.statement, v);
        if local {
            out.insert(v.to_string(), (g, k));
        }
    }
    out
}

/// The invariant indices of every function of `bodies` (module doc), added to `out` where
/// it has no step for the index yet.
pub fn invariant_indices(decls: &mut super::decls::Decls, out: &mut HashMap<usize, Step>) {
    let (bodies, globals, bases) = (&decls.bodies, &decls.globals, &mut decls.bases);
    for f in bodies.values() {
        let Statement::Compound(items) = &f.statement.node else {
            continue;
        };
        let mut whole = Effects::default();
        let _ = visit::stmt(&mut whole, &f.statement);
        for (v, (g, k)) in invariant_locals(f, &whole, globals) {
            each_index(&items[k + 1..], |lhs, rhs| {
                if name_of(lhs) == Some(v.as_str()) {
                    bases.insert(lhs as *const Node<Expression> as usize, g);
                }
                if let Some(c) = offset(rhs, &v) {
                    let key = rhs as *const Node<Expression> as usize;
                    out.entry(key).or_insert(Step::Inv(g, c));
                }
            });
        }
    }
}

/// Calls `f` with the array and the index of every element access `a[i]` in `items`.
pub(super) fn each_index(
    items: &[Node<BlockItem>],
    mut f: impl FnMut(&Node<Expression>, &Node<Expression>),
) {
    for item in items {
        for_each_expr(item, Operands::All, |e| {
            if let Expression::BinaryOperator(b) = &e.node {
                if b.node.operator.node == BinaryOperator::Index {
                    f(&b.node.lhs, &b.node.rhs);
                }
            }
        });
    }
}

impl super::scan::Scan<'_, '_> {
    /// The part `[Base(g, T), index]` of `p[index]` whose pointer `p` holds the value of
    /// file-scope `g` read once ([`Step::Base`]), with no pointee type for the objects
    /// (the path is kept for every object, [`super::objects`]).
    pub(super) fn based_element(
        &self,
        p: &Node<Expression>,
        index: &Node<Expression>,
    ) -> Option<(Path, Option<String>)> {
        let g = *self
            .decls
            .bases
            .get(&(p as *const Node<Expression> as usize))?;
        let Expression::Identifier(i) = &p.node else {
            return None;
        };
        let key = self.decls.vars[self.lookup(&i.node.name)?]
            .pointee_key
            .clone()?;
        Some((vec![Step::Base(g, key), self.index_step(index)], None))
    }
}
