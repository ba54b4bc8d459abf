//! Affine indices of a claim loop's variable (issue 31; `docs/decisions/static.md`,
//! "OpenMP worksharing loops" and "Rows of a value the team shares"). Inside a claim
//! loop's body ([`super::worksharing`]) an index `α·i + β + Σ κ·v` of the loop variable
//! `i` (`α ≠ 0`, `β` and each `κ` constants, each `v` a local that holds the value of a
//! file-scope variable `g` read once, [`super::invariant`]) is [`Step::Iter`]`(loop, α, β,
//! [(g, κ)…])`. Two threads that make such accesses at once run different iterations
//! `i ≠ i'` and, when every `g` is written only while no other thread may run, read one
//! value of each `g`: `α·i + β + S = α·i' + β' + S` needs `α·(i - i') = β' - β`, so the
//! elements differ when `β = β'` or `β' - β` is no multiple of `α`
//! ([`iterations_apart`]). DataRaceBench's wavefront kernels index rows `3·c1 - 2·c0 + d`
//! (`d` in `-1..=1`) of a team sharing `c0`.
//!
//! The arithmetic is that of the integers: `|α| > 1` only for a loop variable of a signed
//! type (a signed overflow is undefined; modulo `2^w`, `α·i` would meet `α·i'` for
//! `i' = i + 2^w / α`), and the terms are of a team's shared values, alike in both.

use super::decls::VarId;
use super::worksharing::constant;
use super::Step;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::convert::Infallible;

/// `α·i + β + Σ κ·v`: α, β and the terms by the variable each local holds.
type Form = (i64, i64, BTreeMap<VarId, i64>);

/// `Σ κ·n + β` of names `n`: the coefficients by name (none zero), and β.
pub(super) type Linear = (BTreeMap<String, i64>, i64);

/// `e` as a linear form of names: constants, names, `+`, `-`, unary `-` and products by a
/// constant.
pub(super) fn linear(e: &Node<Expression>) -> Option<Linear> {
    if let Some(c) = constant(e) {
        return Some((BTreeMap::new(), c));
    }
    match &e.node {
        Expression::Identifier(x) => Some((BTreeMap::from([(x.node.name.clone(), 1)]), 0)),
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Minus => {
            scale(linear(&u.node.operand)?, -1)
        }
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Plus => {
            linear(&u.node.operand)
        }
        Expression::BinaryOperator(b) => {
            let l = linear(&b.node.lhs)?;
            let r = linear(&b.node.rhs)?;
            match b.node.operator.node {
                BinaryOperator::Plus => add(l, r, 1),
                BinaryOperator::Minus => add(l, r, -1),
                BinaryOperator::Multiply if l.0.is_empty() => scale(r, l.1),
                BinaryOperator::Multiply if r.0.is_empty() => scale(l, r.1),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `l + sign·r`.
pub(super) fn add(l: Linear, r: Linear, sign: i64) -> Option<Linear> {
    let (mut terms, b) = l;
    for (n, k) in r.0 {
        let sum = terms
            .get(&n)
            .copied()
            .unwrap_or(0)
            .checked_add(k.checked_mul(sign)?)?;
        if sum == 0 {
            terms.remove(&n);
        } else {
            terms.insert(n, sum);
        }
    }
    Some((terms, b.checked_add(r.1.checked_mul(sign)?)?))
}

/// `f·k`.
fn scale(f: Linear, k: i64) -> Option<Linear> {
    let mut terms = BTreeMap::new();
    for (n, c) in f.0 {
        if c.checked_mul(k)? != 0 {
            terms.insert(n, c.checked_mul(k)?);
        }
    }
    Some((terms, f.1.checked_mul(k)?))
}

/// `e` as an affine form of the variable named `i` and the locals of `inv`.
fn affine(e: &Node<Expression>, i: &str, inv: &HashMap<String, (VarId, usize)>) -> Option<Form> {
    let (names, b) = linear(e)?;
    let mut a = 0;
    let mut terms: BTreeMap<VarId, i64> = BTreeMap::new();
    for (n, k) in names {
        if n == i {
            a = k;
        } else {
            let (g, _) = inv.get(&n)?;
            let sum = terms.get(g).copied().unwrap_or(0).checked_add(k)?;
            terms.insert(*g, sum);
        }
    }
    terms.retain(|_, k| *k != 0);
    Some((a, b, terms))
}

/// The variables a claim loop's lower bound `e` reads, when it is a pure expression of
/// constants and locals that hold a file-scope variable's value: one value for every
/// thread of a team when those variables are stable (their steps name them, with
/// coefficient 0 where the index itself does not).
pub(super) fn shared_value(
    e: &Node<Expression>,
    inv: &HashMap<String, (VarId, usize)>,
) -> Option<Vec<VarId>> {
    let names = super::values::pure_names(e)?;
    names.iter().map(|n| inv.get(n).map(|(g, _)| *g)).collect()
}

/// Is the loop variable `i` declared (in `body`) of a signed integer type?
pub(super) fn signed(body: &Node<Statement>, i: &str) -> bool {
    struct S<'n>(&'n str, Option<bool>);
    impl Visitor for S<'_> {
        type Error = Infallible;
        const UNEVALUATED: bool = true;
        fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
            let named = d.node.declarators.iter().any(|x| {
                ladr_c::syntax::build::declarator_name(&x.node.declarator.node) == Some(self.0)
            });
            if named {
                let types = ladr_c::syntax::build::type_specifiers(&d.node.specifiers);
                let integer = !types.is_empty()
                    && types.iter().all(|t| {
                        matches!(
                            t,
                            TypeSpecifier::Int
                                | TypeSpecifier::Long
                                | TypeSpecifier::Short
                                | TypeSpecifier::Signed
                        )
                    });
                self.1 = Some(self.1.unwrap_or(true) && integer);
            }
            Ok(Walk::Descend)
        }
    }
    let mut s = S(i, None);
    let _ = visit::stmt(&mut s, body);
    s.1 == Some(true)
}

/// Records the affine indices of a claim loop's body (module doc).
pub(super) struct Indices<'o> {
    pub(super) i: &'o str,
    pub(super) id: usize,
    pub(super) out: &'o mut HashMap<usize, Step>,
    /// The locals of the loop's function that hold a file-scope variable's value.
    pub(super) inv: HashMap<String, (VarId, usize)>,
    /// The variables of the loop's lower bound, when that is a value the team shares.
    pub(super) shared: Vec<VarId>,
    /// `i` is of a signed type.
    pub(super) signed: bool,
}

impl Visitor for Indices<'_> {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        if let Expression::BinaryOperator(b) = &e.node {
            if b.node.operator.node == BinaryOperator::Index {
                let form = affine(&b.node.rhs, self.i, &self.inv)
                    .filter(|(a, _, _)| *a != 0 && (a.abs() == 1 || self.signed));
                if let Some((a, c, mut terms)) = form {
                    let key = &*b.node.rhs as *const Node<Expression> as usize;
                    for g in &self.shared {
                        terms.entry(*g).or_insert(0);
                    }
                    let terms = terms.into_iter().collect();
                    self.out.insert(key, Step::Iter(self.id, a, c, terms));
                }
            }
        }
        Ok(Walk::Descend)
    }
}

/// Two steps of one claim loop's iterations whose values two threads never share at once
/// (module doc): one α, one set of terms of variables of `stable`, and offsets that are
/// equal or differ by no multiple of α.
pub(super) fn iterations_apart(x: &Step, y: &Step, stable: &HashSet<VarId>) -> bool {
    match (x, y) {
        (Step::Iter(l, a, b, s), Step::Iter(m, c, d, t)) => {
            l == m
                && a == c
                && s == t
                && s.iter().all(|(g, _)| stable.contains(g))
                && (b == d || d.checked_sub(*b).is_some_and(|k| k % a != 0))
        }
        _ => false,
    }
}
