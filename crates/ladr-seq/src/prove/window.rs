//! Windows of a claim loop's iteration (issue 31; `docs/decisions/static.md`, "Tiles of a
//! worksharing loop"). PolyBench's tiled kernels run, in iteration `i` of a worksharing
//! loop, an inner loop over one tile:
//!
//! ```text
//! for (c15 = 16 * c2; c15 <= (16 * c2 + 15 < n - 1 ? 16 * c2 + 15 : n - 1); c15++)
//!     B[c15][c9] = B[c15][c9] - A[c15][c9] * A[c15][c9] / B[c15][c9 - 1];
//! ```
//!
//! Inside such a loop `j = S; while (j <= E) { …; j++; }` (`j` a counter only the last
//! statement moves, [`super::bounds`]) whose start `S` is at least `α·i + l` (it is that
//! form, or a maximum `a > b ? a : b` with such a branch) and whose end `E` at most `α·i +
//! h` (a minimum with such a branch), `i` the claim loop's variable and the claim loop's
//! body writing neither, an index `j + c` lies in `[α·i + l + c, α·i + h + c]`:
//! [`super::Step::Window`]. Two threads at once run different iterations `i ≠ i'`; their
//! windows `[α·i + l, α·i + h]` and `[α·i' + l', α·i' + h']` are apart when `α > h - l'`
//! and `α > h' - l` ([`windows_apart`]): for `i' ≥ i + 1` the second starts at `α·i + α +
//! l' > α·i + h`, and symmetrically. An index of the claim's variable itself,
//! [`super::Step::Iter`] `α·i + β` without terms, is the window `[β, β]`. `α > 1` only for
//! a signed loop variable, as in [`super::affine`].

use super::Step;
use lang_c::ast::*;
use lang_c::span::Node;

/// The window `(loop, α, lo, hi)` a step gives its index, if any.
fn window(s: &Step) -> Option<(usize, i64, i64, i64)> {
    match s {
        Step::Window(l, a, lo, hi) => Some((*l, *a, *lo, *hi)),
        Step::Iter(l, a, b, terms) if terms.is_empty() && *a > 0 => Some((*l, *a, *b, *b)),
        _ => None,
    }
}

/// Do two accesses with the steps `x` and `y`, made at once by two threads, index apart
/// (module doc)? At least one is a [`Step::Window`]; two iteration steps are
/// [`super::affine::iterations_apart`]'s.
pub(super) fn windows_apart(x: &Step, y: &Step) -> bool {
    if !matches!(x, Step::Window(..)) && !matches!(y, Step::Window(..)) {
        return false;
    }
    let (Some((l, a, lo, hi)), Some((m, b, lo2, hi2))) = (window(x), window(y)) else {
        return false;
    };
    let below = |h: i64, l: i64| h.checked_sub(l).is_some_and(|d| a > d);
    l == m && a == b && a > 0 && below(hi, lo2) && below(hi2, lo)
}

/// Which extreme a conditional expression picks.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Extreme {
    Max,
    Min,
}

/// The branches of `e` when it is the maximum (or minimum) of them, written
/// `a > b ? a : b` (`>=`, or `a < b ? b : a`, …), nested: each is at most (at least) `e`.
/// Otherwise `e` itself.
pub(super) fn branches(e: &Node<Expression>, which: Extreme) -> Vec<&Node<Expression>> {
    let Expression::Conditional(c) = &e.node else {
        return vec![e];
    };
    let Expression::BinaryOperator(t) = &c.node.condition.node else {
        return vec![e];
    };
    let text = |x: &Node<Expression>| ladr_c::print::expr_to_string(&x.node);
    let (a, b) = (text(&t.node.lhs), text(&t.node.rhs));
    let (yes, no) = (text(&c.node.then_expression), text(&c.node.else_expression));
    let greater = match t.node.operator.node {
        BinaryOperator::Greater | BinaryOperator::GreaterOrEqual => true,
        BinaryOperator::Less | BinaryOperator::LessOrEqual => false,
        _ => return vec![e],
    };
    // `a > b ? a : b` picks the greater; `a > b ? b : a` the smaller.
    let picks_greater = if yes == a && no == b {
        greater
    } else if yes == b && no == a {
        !greater
    } else {
        return vec![e];
    };
    if picks_greater != (which == Extreme::Max) {
        return vec![e];
    }
    let mut out = branches(&c.node.then_expression, which);
    out.extend(branches(&c.node.else_expression, which));
    out
}
