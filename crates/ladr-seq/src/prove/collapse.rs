//! Collapsed worksharing loops (`collapse(2)`, issue 31; `docs/decisions/static.md`,
//! "Collapsed loops"). The OpenMP lowering runs one claim loop ([`super::worksharing`])
//! over the collapsed iteration `c` and recovers each loop's variable in a block at the
//! head of the body: `{ T i; i = lb_i + c / D_i % N_i * s_i; T j; j = lb_j + c / D_j % N_j
//! * s_j; … }` (with casts of the constants to the iteration's type), `D_j = 1`,
//! `D_i = N_j` for two loops of `N_i` and `N_j` iterations.
//!
//! * A *digit* `x = lb + c / D % N * s` (`lb`, `D > 0`, `N > 0`, `s` integer constants, a
//!   constant possibly cast to an integer type that holds it) of a `c` known not negative
//!   lies in `[lb, lb + (N - 1)·s]` ([`digit`]; `bounds.rs` reads it as a range for the rest
//!   of the block, when nothing later in the block writes or redeclares `x` and the block has
//!   no labels).
//! * In such a block, `X[i][j]` with the two digits in that order, `D_j = 1`, `D_i = N_j`,
//!   `s_i, s_j ≠ 0`, and `c` below `N_i·N_j` after the claim's exit test: `c ↦ (i, j)` is
//!   one to one on `[0, N_i·N_j)`, so two threads that run different iterations `c` at
//!   once hold different pairs; with `j` within its row (`bounds.rs`; else the proof cuts
//!   the path there) they touch different elements. The index `i` becomes
//!   [`super::Step::Iter`] of the block, for accesses `X[i][j]` exactly.

use super::worksharing::{assignment, constant, name_of};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// `lb + c / D % N * s`, read from the assignment's right side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Digit<'a> {
    pub c: &'a str,
    pub lb: i64,
    pub d: i64,
    pub n: i64,
    pub s: i64,
}

impl Digit<'_> {
    /// The values of the digit, `[lo, hi)`, when `c` is not negative.
    pub(super) fn range(&self) -> Option<(i64, i64)> {
        let far = self.lb.checked_add((self.n - 1).checked_mul(self.s)?)?;
        Some((self.lb.min(far), self.lb.max(far).checked_add(1)?))
    }
}

/// An integer constant, or one cast to an integer type that holds it unchanged: 0..=127
/// to any integer type but `_Bool`, 0..=32767 to one without `char` or `short`,
/// 0..=2147483647 to one with `long`.
pub(super) fn widened(e: &Node<Expression>) -> Option<i64> {
    let Expression::Cast(c) = &e.node else {
        return constant(e);
    };
    let v = widened(&c.node.expression)?;
    let t = &c.node.type_name.node;
    if t.declarator.is_some() {
        return None;
    }
    let (mut small, mut long) = (false, false);
    for s in &t.specifiers {
        match &s.node {
            SpecifierQualifier::TypeSpecifier(x) => match x.node {
                TypeSpecifier::Char | TypeSpecifier::Short => small = true,
                TypeSpecifier::Long => long = true,
                TypeSpecifier::Int | TypeSpecifier::Signed | TypeSpecifier::Unsigned => {}
                _ => return None,
            },
            SpecifierQualifier::TypeQualifier(_) => {}
            _ => return None,
        }
    }
    let max = match (small, long) {
        (true, _) => 127,
        (false, true) => i64::from(i32::MAX),
        (false, false) => 32767,
    };
    (0..=max).contains(&v).then_some(v)
}

/// `e` as a digit ([`Digit`]) with `D > 0`, `N > 0`.
pub(super) fn digit(e: &Node<Expression>) -> Option<Digit<'_>> {
    let [lb, c, d, n, s] = parts(e)?;
    let digit = Digit {
        c: name_of(c)?,
        lb: widened(lb)?,
        d: widened(d)?,
        n: widened(n)?,
        s: widened(s)?,
    };
    (digit.d > 0 && digit.n > 0).then_some(digit)
}

/// A digit of variable counts, `0 + c / D % N * 1` (`D`, `N` expressions; the lowering's
/// form for loops from 0 by 1 whose bounds are not constants).
pub(super) struct Counted<'a> {
    pub c: &'a str,
    pub d: &'a Node<Expression>,
    pub n: &'a Node<Expression>,
}

/// `e` as a [`Counted`] digit.
pub(super) fn counted(e: &Node<Expression>) -> Option<Counted<'_>> {
    let [lb, c, d, n, s] = parts(e)?;
    if widened(lb) != Some(0) || widened(s) != Some(1) {
        return None;
    }
    Some(Counted {
        c: name_of(c)?,
        d,
        n,
    })
}

/// `lb + c / D % N * s` read into its parts `[lb, c, D, N, s]`.
fn parts(e: &Node<Expression>) -> Option<[&Node<Expression>; 5]> {
    let (lb, scaled) = operands(e, BinaryOperator::Plus)?;
    let (modulo, s) = operands(scaled, BinaryOperator::Multiply)?;
    let (quotient, n) = operands(modulo, BinaryOperator::Modulo)?;
    let (c, d) = operands(quotient, BinaryOperator::Divide)?;
    Some([lb, c, d, n, s])
}

/// The operands of `e` when it is a binary `o`.
fn operands(
    e: &Node<Expression>,
    o: BinaryOperator,
) -> Option<(&Node<Expression>, &Node<Expression>)> {
    match &e.node {
        Expression::BinaryOperator(b) if b.node.operator.node == o => {
            Some((&b.node.lhs, &b.node.rhs))
        }
        _ => None,
    }
}

/// `E` of `N` = `A > 0 ? T : 0` with `A` and `T` both `E` (casts aside; `T` may add and
/// subtract constants that cancel and divide by 1): the lowering's count of a loop from 0
/// by 1 to `E`, which is at most `E` when not 0.
pub(super) fn count_of(n: &Node<Expression>) -> Option<&str> {
    /// `e` as `v + c` of one name `v` (casts aside): (`v`, `c`).
    fn linear(e: &Node<Expression>) -> Option<(Option<&str>, i64)> {
        let e = super::access::strip_casts(e);
        if let Some(c) = constant(e) {
            return Some((None, c));
        }
        match &e.node {
            Expression::Identifier(i) => Some((Some(&i.node.name), 0)),
            Expression::BinaryOperator(b) => {
                let (l, r) = (linear(&b.node.lhs)?, linear(&b.node.rhs)?);
                match b.node.operator.node {
                    BinaryOperator::Plus if l.0.is_none() || r.0.is_none() => {
                        Some((l.0.or(r.0), l.1.checked_add(r.1)?))
                    }
                    BinaryOperator::Minus if r.0.is_none() => Some((l.0, l.1.checked_sub(r.1)?)),
                    BinaryOperator::Divide if r == (None, 1) => Some(l),
                    _ => None,
                }
            }
            _ => None,
        }
    }
    let Expression::Conditional(c) = &n.node else {
        return None;
    };
    let Expression::BinaryOperator(test) = &c.node.condition.node else {
        return None;
    };
    let whole = (test.node.operator.node == BinaryOperator::Greater)
        .then(|| linear(&test.node.lhs))
        .flatten()?;
    let zero = (linear(&test.node.rhs)?, linear(&c.node.else_expression)?);
    let (Some(e), 0) = whole else {
        return None;
    };
    (zero == ((None, 0), (None, 0)) && linear(&c.node.then_expression)? == (Some(e), 0))
        .then_some(e)
}

/// The indices `i` of `X[i][j]` in the collapse blocks of a claim body (module doc), by
/// their expression's address, as [`super::Step::Iter`]; `c`: the claim's variable, `end`:
/// its bound after the exit test; `rooted`: is an expression's value one for every thread
/// ([`super::values`])?
pub(super) fn collapsed(
    body: &[Node<BlockItem>],
    c: &str,
    end: &super::decls::ClaimEnd,
    rooted: &dyn Fn(&Node<Expression>) -> bool,
    out: &mut HashMap<usize, super::Step>,
) {
    use super::decls::ClaimEnd;
    for item in body {
        let BlockItem::Statement(s) = &item.node else {
            continue;
        };
        let Statement::Compound(items) = &s.node else {
            continue;
        };
        // `T i; i = …; T j; j = …;` at the block's head (the declarations' havocs between):
        // every digit of the head, two of them.
        let digits = head(items, digit);
        let (i, j, one_to_one) = match (digits.as_slice(), end) {
            ([(i, di), (j, dj)], ClaimEnd::Const(hi)) => (
                *i,
                *j,
                di.c == c
                    && dj.c == c
                    && dj.d == 1
                    && di.d == dj.n
                    && di.s != 0
                    && dj.s != 0
                    && di.n.checked_mul(dj.n).is_some_and(|whole| *hi <= whole),
            ),
            // Counts of variable value, one for every thread: `c ↦ (c / N_j % N_i, c %
            // N_j)` is one to one below `N_i·N_j` all the same.
            ([], ClaimEnd::Product(whole_i, whole_j)) => {
                let Ok([(i, di), (j, dj)]) = <[_; 2]>::try_from(head(items, counted)) else {
                    continue;
                };
                let print = |e: &Node<Expression>| ladr_c::print::expr_to_string(&e.node);
                let ok = di.c == c
                    && dj.c == c
                    && widened(dj.d) == Some(1)
                    && print(di.d) == print(dj.n)
                    && print(di.n) == *whole_i
                    && print(dj.n) == *whole_j
                    && rooted(di.n)
                    && rooted(dj.n);
                (i, j, ok)
            }
            _ => continue,
        };
        if !one_to_one || i == j || !only_assigned(items, i) || !only_assigned(items, j) {
            continue;
        }
        let id = s as *const Node<Statement> as usize;
        ladr_c::syntax::query::for_each_expr(s, ladr_c::syntax::query::Operands::All, |e| {
            let Expression::BinaryOperator(outer) = &e.node else {
                return;
            };
            let Expression::BinaryOperator(inner) = &outer.node.lhs.node else {
                return;
            };
            let index = BinaryOperator::Index;
            if outer.node.operator.node == index
                && inner.node.operator.node == index
                && name_of(&inner.node.rhs) == Some(i)
                && name_of(&outer.node.rhs) == Some(j)
            {
                let key = &*inner.node.rhs as *const Node<Expression> as usize;
                out.insert(key, super::Step::Iter(id, 1, 0, vec![]));
            }
        });
    }
}

/// The assignments `v = e;` at the head of a block whose `e` `read` reads, in order
/// (declarations and the havocs of their variables between them).
fn head<'a, D>(
    items: &'a [Node<BlockItem>],
    read: impl Fn(&'a Node<Expression>) -> Option<D>,
) -> Vec<(&'a str, D)> {
    let mut digits = vec![];
    for x in items {
        if let Some((v, d)) = assignment(x).and_then(|(v, e)| Some((v, read(e)?))) {
            digits.push((v, d));
            continue;
        }
        let havoc = super::worksharing::plain_call(x)
            .is_some_and(|c| ladr_c::syntax::build::callee_name(c) == Some(ladr_ir::abi::HAVOC));
        if !havoc && !matches!(x.node, BlockItem::Declaration(_)) {
            break;
        }
    }
    digits
}

/// Is `x` declared once in `items`, at their top, written only by its one assignment
/// there and by the declaration's havoc, and its address taken by nothing else?
fn only_assigned(items: &[Node<BlockItem>], x: &str) -> bool {
    let declared = items
        .iter()
        .filter(|i| super::threads::declared_names(i).contains(&x))
        .count();
    let assigned = items
        .iter()
        .filter(|i| assignment(i).is_some_and(|(v, _)| v == x))
        .count();
    let uses = super::bounds::Body::of(items, x);
    let havocs = items
        .iter()
        .filter_map(|i| match &i.node {
            BlockItem::Statement(s) => Some(super::worksharing::havocs(s, x)),
            _ => None,
        })
        .sum::<usize>();
    declared == 1 && uses.declarations == 1 && assigned == 1 && uses.writes == 1 + havocs
}
