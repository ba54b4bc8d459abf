//! `while` loops in `unwind`: U nested copies with a cut, exactly as many as a constant
//! bound says, a certain cut beyond `max_unwind`, and the loop that fills a whole object
//! with arbitrary values as one step.

use super::constants::constant;
use super::{Bound, Unwinder};
use ladr_c::syntax::build::*;
use ladr_c::syntax::copy::{Copier, Rename};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi;
use ladr_ir::program::{Cut, CutKind};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;
use std::convert::Infallible;

impl Unwinder<'_> {
    /// Records a [`CutKind::Loop`] cut of the loop at `span`.
    fn loop_cut(&mut self, span: lang_c::span::Span) {
        self.cuts.push(Cut {
            kind: CutKind::Loop,
            span,
        });
    }

    /// `n` nested copies of the loop body; `exact` = the bound is known, no cut.
    pub(super) fn unwind_while(
        &mut self,
        s: &Node<Statement>,
        n: usize,
        exact: bool,
    ) -> Node<Statement> {
        let Statement::While(w) = &s.node else {
            return s.clone();
        };
        let span = s.span;
        let c = &*w.node.expression;
        if !exact {
            self.loop_cut(span);
        }
        let copies = self.body_copies(&w.node.statement, n);
        let mut inner = assume(not(c.clone(), span), span);
        for body in copies.into_iter().rev() {
            inner = if_stmt(c.clone(), block_of(vec![body, inner], span), None, span);
        }
        inner
    }

    /// The `n` copies of a set-up loop copied whole (`solo_whole`), one after another
    /// rather than nested (a nest of hundreds of `if`s is as deep as every recursion that
    /// walks it): each copy after the loop's test, a failed test jumping past the rest; with
    /// `exact` nothing after the last copy, else its test assumed false (a loop cut) — the
    /// executions of [`Unwinder::unwind_while`]'s nested copies.
    pub(super) fn unwind_flat(
        &mut self,
        s: &Node<Statement>,
        n: usize,
        exact: bool,
    ) -> Node<Statement> {
        let Statement::While(w) = &s.node else {
            return s.clone();
        };
        let span = s.span;
        let c = &*w.node.expression;
        let done = self.names.label("wend");
        let mut items = Vec::new();
        for body in self.body_copies(&w.node.statement, n) {
            items.push(if_stmt(not(c.clone(), span), goto(&done, span), None, span));
            items.push(body);
        }
        if !exact {
            self.loop_cut(span);
            items.push(assume(not(c.clone(), span), span));
        }
        items.push(labeled(&done, empty_stmt(span), span));
        block_of(items, span)
    }

    /// `n` copies of a loop body, each with fresh labels and fresh names for its locals.
    fn body_copies(&mut self, body: &Node<Statement>, n: usize) -> Vec<Node<Statement>> {
        (0..n)
            .map(|_| {
                let mut b = body.clone();
                let mut cp = Copier::new(self.names, Rename::All);
                cp.fresh_labels(&b.node);
                cp.stmt(&mut b);
                b
            })
            .collect()
    }

    /// A loop known to run more than `max_unwind` times (a private counter with constant
    /// bounds, e.g. `for (i = 0; i < 10000; i++)`): its first U iterations need no test,
    /// and the cut after them is certain, `__CPROVER_assume(0)` — so CBMC sees at once that
    /// the code after the loop is unreachable instead of carrying it through every context.
    pub(super) fn unwind_certain_cut(&mut self, s: &Node<Statement>) -> Node<Statement> {
        let Statement::While(w) = &s.node else {
            return s.clone();
        };
        let span = s.span;
        self.loop_cut(span);
        let mut items = self.body_copies(&w.node.statement, self.unwind);
        items.push(assume(int(0, span), span));
        block_of(items, span)
    }

    /// A loop that fills a whole object with arbitrary values, `while (i < n) { p[i] =
    /// __VERIFIER_nondet_T(); i++; }` (`i`, `n` and `p` locals whose address is not taken),
    /// as one step for any `n` (the loop bound would cut every longer run — SV-COMP's
    /// `external_alloc` fills whole structs this way):
    ///
    /// ```text
    /// if (i < n && __CPROVER_w_ok(&p[i], L) && __CPROVER_POINTER_OFFSET(&p[i]) == 0
    ///     && __CPROVER_OBJECT_SIZE(&p[i]) == L) {        // L = (n - i) * sizeof(p[i])
    ///   __typeof__(i) k; __CPROVER_havoc_object(&k); __CPROVER_assume(k >= i && k < n);
    ///   p[k] = __VERIFIER_nondet_T();      // the access, at any index of the range
    ///   __CPROVER_havoc_object(&p[i]);     // every value arbitrary
    ///   i = n;
    /// }
    /// ```
    ///
    /// `race` sees one write of `p[k]` with `k` any index of the range, so a race with any
    /// element is still found. Returns the condition and the block; the caller adds the
    /// unwound loop as the `else` branch.
    /// (`__CPROVER_havoc_slice` would also cover part of an object, but CBMC 6.6 fails an
    /// invariant when it prints a trace through one.)
    pub(super) fn fill_loop(
        &mut self,
        s: &Node<Statement>,
    ) -> Option<(Node<Expression>, Node<Statement>)> {
        let Statement::While(w) = &s.node else {
            return None;
        };
        let private = |v: &str| self.is_private(v);
        let Expression::BinaryOperator(c) = &w.node.expression.node else {
            return None;
        };
        if c.node.operator.node != BinaryOperator::Less {
            return None;
        }
        let i = ident_name(&c.node.lhs)?;
        let n: &Node<Expression> = &c.node.rhs;
        let n_ok = match ident_name(n) {
            Some(n) => n != i && private(n),
            None => constant(n, &HashMap::new()).is_some(),
        };
        if !private(i) || !n_ok {
            return None;
        }
        let [Node {
            node: BlockItem::Statement(store),
            ..
        }, Node {
            node: BlockItem::Statement(step),
            ..
        }] = body_items(&w.node.statement)?
        else {
            return None;
        };
        if step_of(step, i) != Some(1) {
            return None;
        }
        let Statement::Expression(Some(e)) = &store.node else {
            return None;
        };
        let Expression::BinaryOperator(a) = &e.node else {
            return None;
        };
        if a.node.operator.node != BinaryOperator::Assign {
            return None;
        }
        let Expression::BinaryOperator(ix) = &a.node.lhs.node else {
            return None;
        };
        if ix.node.operator.node != BinaryOperator::Index || ident_name(&ix.node.rhs) != Some(i) {
            return None;
        }
        let p = ident_name(&ix.node.lhs)?;
        if p == i || Some(p) == ident_name(n) || !private(p) {
            return None;
        }
        let Expression::Call(nondet) = &a.node.rhs.node else {
            return None;
        };
        if !nondet.node.arguments.is_empty()
            || !callee_name(&nondet.node).is_some_and(|f| f.starts_with(abi::NONDET_PREFIX))
        {
            return None;
        }
        let span = s.span;
        let at = |k: &str| index(ident(p, span), ident(k, span), span);
        let len = binop(
            BinaryOperator::Multiply,
            binop(BinaryOperator::Minus, n.clone(), ident(i, span), span),
            size_of_val(at(i), span),
            span,
        );
        let k = self.names.temp();
        let lt = |a: Node<Expression>, b: Node<Expression>| binop(BinaryOperator::Less, a, b, span);
        let guard = and(
            and(
                lt(ident(i, span), n.clone()),
                call(abi::W_OK, vec![addr(at(i), span), len.clone()], span),
                span,
            ),
            and(
                eq(
                    call(abi::POINTER_OFFSET, vec![addr(at(i), span)], span),
                    int(0, span),
                    span,
                ),
                eq(
                    call(abi::OBJECT_SIZE, vec![addr(at(i), span)], span),
                    len.clone(),
                    span,
                ),
                span,
            ),
            span,
        );
        let body = vec![
            decl_item(typeof_decl(&k, ident(i, span), false, span)),
            item(expr_stmt(call(
                abi::HAVOC,
                vec![addr(ident(&k, span), span)],
                span,
            ))),
            item(assume(
                and(
                    binop(
                        BinaryOperator::GreaterOrEqual,
                        ident(&k, span),
                        ident(i, span),
                        span,
                    ),
                    lt(ident(&k, span), n.clone()),
                    span,
                ),
                span,
            )),
            item(expr_stmt(assign(at(&k), (*a.node.rhs).clone(), span))),
            item(expr_stmt(call(abi::HAVOC, vec![addr(at(i), span)], span))),
            item(expr_stmt(assign(ident(i, span), n.clone(), span))),
        ];
        Some((guard, block(body, span)))
    }

    /// The number of iterations of `w` if `prev; w` is a loop with a constant bound, and
    /// whether that number is exact: only when the counter is a local whose address is
    /// never taken. A global counter (`for (i = 0; i < 20; i++)` with `int i;` at file
    /// scope) could be changed by another thread, so its loop gets the constant number of
    /// copies and still a cut.
    pub(super) fn constant_bound(
        &self,
        prev: &Node<Statement>,
        w: &Node<Statement>,
    ) -> Option<Bound> {
        self.constant_bound_within(prev, w, self.max_unwind)
    }

    /// [`Unwinder::constant_bound`] with `limit` in place of `max_unwind`.
    pub(super) fn constant_bound_within(
        &self,
        prev: &Node<Statement>,
        w: &Node<Statement>,
        limit: i128,
    ) -> Option<Bound> {
        let Statement::While(w) = &w.node else {
            return None;
        };
        // i = c0;
        let (i, c0) = match &prev.node {
            Statement::Expression(Some(e)) => match &e.node {
                Expression::BinaryOperator(b)
                    if matches!(b.node.operator.node, BinaryOperator::Assign) =>
                {
                    (
                        ident_name(&b.node.lhs)?,
                        constant(&b.node.rhs, &HashMap::new())?,
                    )
                }
                _ => return None,
            },
            _ => return None,
        };
        let mut private = self.is_private(i);
        // i < c1
        let (op, c1) = match &w.node.expression.node {
            Expression::BinaryOperator(b) if ident_name(&b.node.lhs) == Some(i) => {
                match constant(&b.node.rhs, &self.global_consts) {
                    // A literal, or a constant global (never written: as good as one).
                    Some(c1) => (b.node.operator.node.clone(), c1),
                    // A bound read from a local that is assigned a constant once
                    // (`int n = 4; for (i = 0; i < n; i++)`): the copies follow it, but
                    // the cut stays, since that one assignment might come after the loop.
                    None => {
                        private = false;
                        (
                            b.node.operator.node.clone(),
                            constant(&b.node.rhs, &self.consts)?,
                        )
                    }
                }
            }
            _ => return None,
        };
        // …; i += k;
        let items = body_items(&w.node.statement)?;
        let mut last = None;
        let mut last_pos = 0;
        for (k, it) in items.iter().enumerate().rev() {
            if let BlockItem::Statement(s) = &it.node {
                let mut s = s;
                while let Statement::Labeled(l) = &s.node {
                    s = &l.node.statement;
                }
                if !matches!(s.node, Statement::Expression(None)) {
                    last = Some(s);
                    last_pos = k;
                    break;
                }
            } else {
                return None;
            }
        }
        let step = step_of(last?, i)?;
        // i not written anywhere else in the body.
        if items
            .iter()
            .enumerate()
            .any(|(k, it)| k != last_pos && writes(it, i))
        {
            return None;
        }
        let test = |v: i128| match op {
            BinaryOperator::Less => v < c1,
            BinaryOperator::LessOrEqual => v <= c1,
            BinaryOperator::Greater => v > c1,
            BinaryOperator::GreaterOrEqual => v >= c1,
            BinaryOperator::NotEquals => v != c1,
            _ => false,
        };
        if !matches!(
            op,
            BinaryOperator::Less
                | BinaryOperator::LessOrEqual
                | BinaryOperator::Greater
                | BinaryOperator::GreaterOrEqual
                | BinaryOperator::NotEquals
        ) {
            return None;
        }
        let mut v = c0;
        let mut n: i128 = 0;
        while test(v) {
            if n >= limit {
                return Some(if private && n >= self.unwind as i128 {
                    Bound::Beyond
                } else {
                    Bound::Long
                });
            }
            v += step;
            n += 1;
        }
        Some(Bound::Known(usize::try_from(n).ok()?, private))
    }
}

impl Unwinder<'_> {
    /// `b`, the constant bound of the loop `w`, unless unwinding it completely would copy
    /// a statement of its body more than `max_unwind` times together with the constant-bound
    /// loops nested in it ([`Unwinder::nested_copies`]): then it is a bound beyond
    /// `max_unwind` (a private counter: `Beyond`, else `Long`), and the loop gets U copies
    /// and a cut. The innermost loops of a nest stay whole and the outer ones are cut:
    /// `for (i = 0; i < 100; i++) for (j = 0; j < 100; j++) S` is two copies of a loop of
    /// 100 copies of `S`, not 10000 copies (`--max-unwind` bounds a nest's iterations
    /// together, as it bounds one loop's).
    pub(super) fn within_nest(&self, b: Bound, w: &Node<Statement>) -> Bound {
        let (Bound::Known(n, private), Statement::While(w)) = (&b, &w.node) else {
            return b;
        };
        let inner = self.nested_copies(&w.node.statement, None, self.max_unwind);
        if *n <= self.unwind || (*n as i128).saturating_mul(inner) <= self.max_unwind {
            return b;
        }
        if *private {
            Bound::Beyond
        } else {
            Bound::Long
        }
    }

    /// The most copies of one statement of `s` that unwinding the constant-bound loops
    /// inside `s` completely makes: the product of their trip counts along the deepest
    /// nest (1 without one; a loop without a known bound counts 1). `before`: the statement
    /// before `s` in its parent list, as in [`Unwinder::block`]. Saturates past
    /// `limit` (`max_unwind`, or the set-up budget of [`Unwinder::solo_whole`]).
    pub(super) fn nested_copies(
        &self,
        s: &Node<Statement>,
        before: Option<&Node<Statement>>,
        limit: i128,
    ) -> i128 {
        match &s.node {
            Statement::Compound(items) => {
                let mut most = 1;
                for (k, it) in items.iter().enumerate() {
                    let BlockItem::Statement(s) = &it.node else {
                        continue;
                    };
                    let prev = match k.checked_sub(1).map(|j| &items[j].node) {
                        Some(BlockItem::Statement(p)) => Some(p),
                        Some(_) => None,
                        None => before,
                    };
                    most = most.max(self.nested_copies(s, prev, limit));
                }
                most
            }
            Statement::While(w) => {
                let inner = self.nested_copies(&w.node.statement, None, limit);
                match before.and_then(|prev| self.constant_bound_within(prev, s, limit)) {
                    Some(Bound::Known(n, _)) => (n as i128).saturating_mul(inner).min(limit + 1),
                    _ => inner,
                }
            }
            Statement::If(i) => {
                let then = self.nested_copies(&i.node.then_statement, None, limit);
                let other = i
                    .node
                    .else_statement
                    .as_ref()
                    .map_or(1, |e| self.nested_copies(e, None, limit));
                then.max(other)
            }
            Statement::Labeled(l) => self.nested_copies(&l.node.statement, None, limit),
            _ => 1,
        }
    }
}

/// The items of a loop body `{ … }`, looking through blocks that wrap the whole body.
pub(super) fn body_items(body: &Node<Statement>) -> Option<&[Node<BlockItem>]> {
    let Statement::Compound(items) = &body.node else {
        return None;
    };
    let mut items: &[Node<BlockItem>] = items;
    while let [Node {
        node:
            BlockItem::Statement(Node {
                node: Statement::Compound(inner),
                ..
            }),
        ..
    }] = items
    {
        items = inner;
    }
    Some(items)
}

/// The step of `i++`, `i--`, `i += k`, `i -= k`, `i = i + k`, `i = i - k`.
pub(super) fn step_of(s: &Node<Statement>, i: &str) -> Option<i128> {
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    match &e.node {
        Expression::UnaryOperator(u) if ident_name(&u.node.operand) == Some(i) => {
            match u.node.operator.node {
                UnaryOperator::PostIncrement | UnaryOperator::PreIncrement => Some(1),
                UnaryOperator::PostDecrement | UnaryOperator::PreDecrement => Some(-1),
                _ => None,
            }
        }
        Expression::BinaryOperator(b) if ident_name(&b.node.lhs) == Some(i) => {
            match b.node.operator.node {
                BinaryOperator::AssignPlus => constant(&b.node.rhs, &HashMap::new()),
                BinaryOperator::AssignMinus => constant(&b.node.rhs, &HashMap::new()).map(|k| -k),
                BinaryOperator::Assign => match &b.node.rhs.node {
                    Expression::BinaryOperator(r) if ident_name(&r.node.lhs) == Some(i) => {
                        match r.node.operator.node {
                            BinaryOperator::Plus => constant(&r.node.rhs, &HashMap::new()),
                            BinaryOperator::Minus => {
                                constant(&r.node.rhs, &HashMap::new()).map(|k| -k)
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// True if `it` assigns or increments the variable `v` (or declares a variable of that name).
fn writes(it: &Node<BlockItem>, v: &str) -> bool {
    struct WritesVar<'a>(&'a str, bool);
    impl Visitor for WritesVar<'_> {
        type Error = Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            match &e.node {
                Expression::BinaryOperator(b)
                    if ladr_c::syntax::walk::is_assign_op(&b.node.operator.node)
                        && ident_name(&b.node.lhs) == Some(self.0) =>
                {
                    self.1 = true
                }
                Expression::UnaryOperator(u)
                    if !matches!(
                        u.node.operator.node,
                        UnaryOperator::Minus
                            | UnaryOperator::Plus
                            | UnaryOperator::Negate
                            | UnaryOperator::Complement
                            | UnaryOperator::Indirection
                    ) && ident_name(&u.node.operand) == Some(self.0) =>
                {
                    self.1 = true
                }
                _ => {}
            }
            Ok(Walk::Descend)
        }
        fn declarator(&mut self, d: &Node<Declarator>) -> std::result::Result<Walk, Infallible> {
            if declarator_name(&d.node) == Some(self.0) {
                self.1 = true;
            }
            Ok(Walk::Descend)
        }
    }
    let mut w = WritesVar(v, false);
    let Ok(()) = visit::block_item(&mut w, it);
    w.1
}
