//! `unwind` — make every function loop-free: each `while` loop and each backward `goto`
//! region is copied a bounded number of times.
//!
//! ```text
//! while (c) S          ──U=2──▶   if (c) { S1; if (c) { S2; __CPROVER_assume(!(c)); } }
//!
//! L: A; if (b) goto L; B;   ──U=2──▶   L: A1; if (b) goto L2; B1; goto E;
//!                                      L2: A2; if (b) __CPROVER_assume(0); B2; E: ;
//! ```
//!
//! * Each copy gets fresh labels (gotos inside it retargeted) and fresh names for the locals
//!   declared inside it ([`Names::local`]), so every copy is a distinct object. A `break`
//!   label lies after the loop and is kept once; a `continue` label is inside S and copied.
//! * The `assume` after the last copy is a [`CutKind::Loop`] cut. Loops with a constant
//!   bound (`i = c0; while (i < c1) { …; i++; }`, `i` a local written nowhere else in the
//!   body and never address-taken) of at most `max_unwind` iterations are unwound exactly
//!   and need no cut. The same shape with a global or address-taken `i` gets that many
//!   copies too, but keeps its cut (another thread may change `i`).
//! * A backward `goto L` is handled when `L` labels an item of a block that also contains
//!   (at any depth) the gotos: the items from `L` to the last such goto are copied U times;
//!   in copy k `goto L` jumps to the start of copy k+1, in the last copy it becomes
//!   `__CPROVER_assume(0);` (a loop cut). Declarations at the top of the region move before
//!   it. When `L` is inside a block that does not hold the gotos (a loop built with `goto`
//!   across blocks: `{ L: … } if (c) goto L;`), the region runs from the item holding `L`
//!   to the last goto's, and copy k's `goto L` enters copy k+1 at its `L`, as C re-enters
//!   the block there ([`nested_backward_region`]); a forward goto to `L` before it in the
//!   region jumps to a second label on `L`'s statement, so it stays in its copy.
//!
//! Needs the normal form (N1: only `while`; N2: side-effect-free conditions) and `inline`
//! having removed calls and static locals. Guarantees (checked by
//! [`crate::invariants::check_bounded`]): no loops, no backward goto, no call of a function
//! with a body but of the kept ones (`Program::kept`, which have no loop to unwind).

use crate::normal_form::havoced_var;
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::copy::{labels_defined, Copier, GotoTo, Rename};
use ladr_c::syntax::names::{self, Names};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::{Walk, WrittenNames};
use ladr_ir::abi;
use ladr_ir::program::{Cut, CutKind, Options, Program};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

pub fn run(mut p: Program, opts: &Options) -> Result<Program> {
    let globals = constant_globals(&p.unit);
    for ext in &mut p.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &mut ext.node {
            let (locals, taken) = locals_and_taken(&f.node);
            let consts = constant_locals(&f.node, &locals, &taken);
            let global_consts = globals
                .iter()
                .filter(|(g, _)| !locals.contains(*g))
                .map(|(g, v)| (g.clone(), *v))
                .collect();
            let mut u = Unwinder {
                names: &mut p.names,
                cuts: &mut p.cuts,
                unwind: opts.unwind.max(1) as usize,
                max_unwind: opts.max_unwind as i128,
                locals,
                taken,
                consts,
                global_consts,
            };
            u.stmt(&mut f.node.statement)?;
            prune(&mut f.node.statement);
            if let Some((span, l)) = backward_goto(&f.node.statement) {
                return Err(Error::unsupported(
                    span,
                    format!("backward `goto {l}` (internal: not unwound)"),
                ));
            }
        }
    }
    Ok(p)
}

/// What [`Unwinder::constant_bound`] knows about a loop's trip count.
enum Bound {
    /// It runs this many times; `true`: exactly (a private counter), so no cut.
    Known(usize, bool),
    /// A private counter runs it more than `max_unwind` times.
    Beyond,
}

struct Unwinder<'a> {
    names: &'a mut Names,
    cuts: &'a mut Vec<Cut>,
    unwind: usize,
    max_unwind: i128,
    /// Locals and parameters of the function.
    locals: HashSet<String>,
    /// Names whose address is taken in the function.
    taken: HashSet<String>,
    /// Private locals written exactly once in the function, by `x = constant`.
    consts: HashMap<String, i128>,
    /// The program's constant globals (`constant_globals`) no local of the function shadows.
    global_consts: HashMap<String, i128>,
}

impl Unwinder<'_> {
    /// A local of the function whose address is never taken: no other code can write it.
    fn is_private(&self, v: &str) -> bool {
        self.locals.contains(v) && !self.taken.contains(v)
    }

    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<()> {
        match &mut s.node {
            Statement::Compound(items) => self.block(items, None)?,
            Statement::If(i) => {
                self.stmt(&mut i.node.then_statement)?;
                if let Some(e) = &mut i.node.else_statement {
                    self.stmt(e)?;
                }
            }
            Statement::Labeled(l) => self.stmt(&mut l.node.statement)?,
            Statement::While(w) => {
                self.stmt(&mut w.node.statement)?;
                let n = self.unwind;
                *s = self.unwind_while(s, n, false);
            }
            Statement::DoWhile(_) | Statement::For(_) | Statement::Switch(_) => {
                return Err(Error::unsupported(
                    s.span,
                    "`do`/`for`/`switch` statement (not in normal form)",
                ))
            }
            _ => {}
        }
        Ok(())
    }

    /// `before`: the statement just before this block in its parent list (a loop that
    /// opens a block may still have a constant bound set up before the block).
    fn block(
        &mut self,
        items: &mut Vec<Node<BlockItem>>,
        before: Option<Node<Statement>>,
    ) -> Result<()> {
        for k in 0..items.len() {
            let prev = match k.checked_sub(1).map(|j| &items[j].node) {
                Some(BlockItem::Statement(p)) => Some(p.clone()),
                Some(_) => None,
                None => before.clone(),
            };
            let exact = match (&items[k].node, &prev) {
                (BlockItem::Statement(w), Some(prev)) => self.constant_bound(prev, w),
                _ => None,
            };
            if let BlockItem::Statement(s) = &mut items[k].node {
                if let Some((guard, fast)) = self.fill_loop(s) {
                    // The loop stays, unwound as usual, for the case the fast path excludes.
                    let slow = self.unwind_while(s, self.unwind, false);
                    *s = if_stmt(guard, fast, Some(slow), s.span);
                    continue;
                }
                match (exact, &mut s.node) {
                    (Some(Bound::Known(n, exact)), Statement::While(w)) => {
                        self.stmt(&mut w.node.statement)?;
                        *s = self.unwind_while(s, n, exact);
                    }
                    (Some(Bound::Beyond), Statement::While(w)) => {
                        self.stmt(&mut w.node.statement)?;
                        *s = self.unwind_certain_cut(s);
                    }
                    (_, Statement::Compound(inner)) => self.block(inner, prev)?,
                    _ => self.stmt(s)?,
                }
            }
        }
        while let Some((pos, label, last, front)) = backward_region(items)
            .map(|(p, l, j)| (p, l, j, true))
            .or_else(|| nested_backward_region(items).map(|(p, l, j)| (p, l, j, false)))
        {
            self.unwind_region(items, pos, &label, last, front);
        }
        Ok(())
    }

    /// `n` nested copies of the loop body; `exact` = the bound is known, no cut.
    fn unwind_while(&mut self, s: &Node<Statement>, n: usize, exact: bool) -> Node<Statement> {
        let Statement::While(w) = &s.node else {
            return s.clone();
        };
        let span = s.span;
        let c = &*w.node.expression;
        if !exact {
            self.cuts.push(Cut {
                kind: CutKind::Loop,
                span,
            });
        }
        let copies = self.body_copies(&w.node.statement, n);
        let mut inner = assume(not(c.clone(), span), span);
        for body in copies.into_iter().rev() {
            inner = if_stmt(c.clone(), block_of(vec![body, inner], span), None, span);
        }
        inner
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
    fn unwind_certain_cut(&mut self, s: &Node<Statement>) -> Node<Statement> {
        let Statement::While(w) = &s.node else {
            return s.clone();
        };
        let span = s.span;
        self.cuts.push(Cut {
            kind: CutKind::Loop,
            span,
        });
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
    fn fill_loop(&mut self, s: &Node<Statement>) -> Option<(Node<Expression>, Node<Statement>)> {
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
    fn constant_bound(&self, prev: &Node<Statement>, w: &Node<Statement>) -> Option<Bound> {
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
            if n >= self.max_unwind {
                return (private && n >= self.unwind as i128).then_some(Bound::Beyond);
            }
            v += step;
            n += 1;
        }
        Some(Bound::Known(usize::try_from(n).ok()?, private))
    }

    /// Copies items[pos..=last] (starting with label `label`) U times.
    fn unwind_region(
        &mut self,
        items: &mut Vec<Node<BlockItem>>,
        pos: usize,
        label: &str,
        last: usize,
        front: bool,
    ) {
        let order = jumps_in_order(&items[pos]);
        let forward = order
            .iter()
            .take_while(|(m, def)| !(*def && m == label))
            .any(|(m, _)| m == label);
        if !front && forward {
            // A forward goto to `L` before it in its item stays in its copy: it jumps to a
            // second label on `L`'s statement, which each copy renames like its others.
            let alias = self.names.label("L");
            let mut split = SplitForward {
                label: label.to_string(),
                alias,
                seen: false,
            };
            let Ok(()) = visit_mut::block_item(&mut split, &mut items[pos]);
        }
        let region: Vec<Node<BlockItem>> = items.drain(pos..=last).collect();
        let span = region[0].span;
        let mut decls = vec![];
        let mut stmts = vec![];
        for it in region {
            match it.node {
                BlockItem::Statement(s) if front => stmts.push(item(strip_label(s, label))),
                BlockItem::Statement(s) => stmts.push(item(s)),
                _ => decls.push(it),
            }
        }
        let as_stmt = block(stmts, span);
        let inner_labels = labels_defined(&as_stmt.node);
        let starts: Vec<String> = (0..self.unwind)
            .map(|k| {
                if k == 0 {
                    label.to_string()
                } else {
                    self.names.label("L")
                }
            })
            .collect();
        let end = self.names.label("bend");
        let mut out = decls;
        for k in 0..self.unwind {
            let mut body = as_stmt.clone();
            let mut cp = Copier::new(self.names, Rename::All);
            if k > 0 {
                for l in &inner_labels {
                    let n = cp.names.label("L");
                    cp.labels.insert(l.clone(), n);
                }
                if !front {
                    // The label inside the copy is where copy k starts.
                    cp.labels.insert(label.to_string(), starts[k].clone());
                }
            }
            let to = match starts.get(k + 1) {
                Some(next) => GotoTo::Label(next.clone()),
                None => GotoTo::Cut,
            };
            cp.gotos.insert(label.to_string(), to);
            cp.stmt(&mut body);
            let cuts = std::mem::take(&mut cp.cuts);
            self.cuts.extend(cuts.into_iter().map(|span| Cut {
                kind: CutKind::Loop,
                span,
            }));
            let Statement::Compound(b) = body.node else {
                continue;
            };
            if front {
                out.push(item(labeled(&starts[k], empty_stmt(span), span)));
            }
            out.extend(b);
            if k + 1 < self.unwind {
                out.push(item(goto(&end, span)));
            }
        }
        out.push(item(labeled(&end, empty_stmt(span), span)));
        let tail = items.split_off(pos);
        items.extend(out);
        items.extend(tail);
    }
}

/// Removes label `l` from the front of `s` (`l: A: s` → `A: s`).
fn strip_label(s: Node<Statement>, l: &str) -> Node<Statement> {
    match s.node {
        Statement::Labeled(lab) => {
            let is_l = matches!(&lab.node.label.node, Label::Identifier(i) if i.node.name == l);
            if is_l {
                *lab.node.statement
            } else {
                let span = s.span;
                let LabeledStatement { label, statement } = lab.node;
                node(
                    Statement::Labeled(node(
                        LabeledStatement {
                            label,
                            statement: Box::new(strip_label(*statement, l)),
                        },
                        lab.span,
                    )),
                    span,
                )
            }
        }
        _ => s,
    }
}

/// Labels on the front of a statement (`A: B: s`).
fn front_labels(s: &Statement) -> Vec<String> {
    let mut out = vec![];
    let mut s = s;
    while let Statement::Labeled(l) = s {
        if let Label::Identifier(i) = &l.node.label.node {
            out.push(i.node.name.clone());
        }
        s = &l.node.statement.node;
    }
    out
}

/// Gotos anywhere in an item (their target labels).
fn gotos_in(it: &Node<BlockItem>) -> Vec<String> {
    struct G(Vec<String>);
    impl Visitor for G {
        type Error = Infallible;
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, Infallible> {
            if let Statement::Goto(l) = &s.node {
                self.0.push(l.node.name.clone());
            }
            Ok(Walk::Descend)
        }
        fn expr(&mut self, _e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            Ok(Walk::Skip)
        }
    }
    let mut g = G(vec![]);
    let Ok(()) = visit::block_item(&mut g, it);
    g.0
}

/// The latest label of this block with a backward goto at or after it: (position, label,
/// last item with such a goto).
fn backward_region(items: &[Node<BlockItem>]) -> Option<(usize, String, usize)> {
    let gotos: Vec<Vec<String>> = items.iter().map(gotos_in).collect();
    for pos in (0..items.len()).rev() {
        let BlockItem::Statement(s) = &items[pos].node else {
            continue;
        };
        for l in front_labels(&s.node) {
            if let Some(last) = (pos..items.len()).rev().find(|&j| gotos[j].contains(&l)) {
                return Some((pos, l, last));
            }
        }
    }
    None
}

/// A backward goto across blocks (a loop built with `goto`): the latest label `L` defined
/// inside an item of this block (not on its front: [`backward_region`]) with a goto to it
/// after it in the same item or a later one, none of whose blocks holds both (those are
/// unwound first, inside): (position, label, last item with such a goto). The items from
/// the label's to that last one are the region, as in [`backward_region`], except that
/// copy k+1 starts at the label inside it, where C's `goto` enters the block again (its
/// locals new, their values indeterminate: the copy's fresh ones). A forward goto to `L`
/// before it in its item stays in its copy ([`SplitForward`]).
fn nested_backward_region(items: &[Node<BlockItem>]) -> Option<(usize, String, usize)> {
    let gotos: Vec<Vec<String>> = items.iter().map(gotos_in).collect();
    for pos in (0..items.len()).rev() {
        let order = jumps_in_order(&items[pos]);
        let labels: Vec<&String> = order
            .iter()
            .filter_map(|(l, def)| def.then_some(l))
            .collect();
        for l in labels.into_iter().rev() {
            let at = order.iter().position(|(m, def)| *def && m == l)?;
            let after = order[at..].iter().any(|(m, def)| !def && m == l);
            let later = (pos + 1..items.len()).rev().find(|&j| gotos[j].contains(l));
            let last = match (later, after) {
                (Some(j), _) => j,
                (None, true) => pos,
                (None, false) => continue,
            };
            return Some((pos, l.clone(), last));
        }
    }
    None
}

/// Retargets the gotos to `label` before it (in textual order) to `alias`, a second label
/// put on `label`'s statement: `goto L; … L: s` → `goto A; … L: A: s`.
struct SplitForward {
    label: String,
    alias: String,
    seen: bool,
}

impl VisitorMut for SplitForward {
    type Error = Infallible;
    fn stmt(&mut self, s: &mut Node<Statement>) -> std::result::Result<Walk, Infallible> {
        match &mut s.node {
            Statement::Labeled(l) if !self.seen => {
                if matches!(&l.node.label.node, Label::Identifier(i) if i.node.name == self.label) {
                    self.seen = true;
                    let inner = std::mem::replace(&mut *l.node.statement, empty_stmt(s.span));
                    let span = inner.span;
                    *l.node.statement = labeled(&self.alias, inner, span);
                }
            }
            Statement::Goto(g) if !self.seen && g.node.name == self.label => {
                g.node.name = self.alias.clone();
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
    fn expr(&mut self, _e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
        Ok(Walk::Skip)
    }
}

/// The labels an item defines (`true`) and the gotos it has (`false`), in textual order.
fn jumps_in_order(it: &Node<BlockItem>) -> Vec<(String, bool)> {
    struct J(Vec<(String, bool)>);
    impl Visitor for J {
        type Error = Infallible;
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, Infallible> {
            match &s.node {
                Statement::Labeled(l) => {
                    if let Label::Identifier(i) = &l.node.label.node {
                        self.0.push((i.node.name.clone(), true));
                    }
                }
                Statement::Goto(l) => self.0.push((l.node.name.clone(), false)),
                _ => {}
            }
            Ok(Walk::Descend)
        }
        fn expr(&mut self, _e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            Ok(Walk::Skip)
        }
    }
    let mut j = J(vec![]);
    let Ok(()) = visit::block_item(&mut j, it);
    j.0
}

/// The items of a loop body `{ … }`, looking through blocks that wrap the whole body.
fn body_items(body: &Node<Statement>) -> Option<&[Node<BlockItem>]> {
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

/// The value of an integer constant expression, with `env`'s locals known
/// ([`ladr_c::syntax::constant`]); `None` when it is not one or its value is not computed.
fn constant(e: &Node<Expression>, env: &HashMap<String, i128>) -> Option<i128> {
    constant::value(&e.node, &constant::Env::values(env))
}

/// The step of `i++`, `i--`, `i += k`, `i -= k`, `i = i + k`, `i = i - k`.
fn step_of(s: &Node<Statement>, i: &str) -> Option<i128> {
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
    struct W<'a>(&'a str, bool);
    impl Visitor for W<'_> {
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
    let mut w = W(v, false);
    let Ok(()) = visit::block_item(&mut w, it);
    w.1
}

/// The private locals (not parameters' callers' business: parameters are locals too, but
/// they have no write in the body) written exactly once in `f`, by `x = c` with `c` an
/// integer constant expression. `__CPROVER_havoc_object(&x)` counts as a write.
fn constant_locals(
    f: &FunctionDefinition,
    locals: &HashSet<String>,
    taken: &HashSet<String>,
) -> HashMap<String, i128> {
    ladr_ir::analysis::assigned_once(&f.statement)
        .into_iter()
        .filter(|(n, _)| locals.contains(n) && !taken.contains(n))
        .filter_map(|(n, rhs)| Some((n, constant(&rhs, &HashMap::new())?)))
        .collect()
}

/// The constant globals: file-scope scalar objects initialised with an integer constant
/// expression, not `volatile`, and never written (assigned, incremented, decremented) nor
/// address-taken anywhere in the program (a name written or taken in any function, even a
/// local that shadows it, disqualifies it). Their value is their initialiser's, so a loop
/// bounded by one (`for (i = 0; i < nthreads; i++)`) is unwound completely like one bounded
/// by a literal.
fn constant_globals(unit: &TranslationUnit) -> HashMap<String, i128> {
    let mut out: HashMap<String, i128> = HashMap::new();
    let mut seen: HashSet<String> = HashSet::new();
    for ext in &unit.0 {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let st = storage_of(&d.node.specifiers);
        let volatile = is_volatile(&d.node.specifiers);
        if st.contains(&StorageClassSpecifier::Typedef) {
            continue;
        }
        for id in &d.node.declarators {
            let dd = &id.node.declarator.node;
            let Some(n) = declarator_name(dd) else {
                continue;
            };
            let value = match &id.node.initializer {
                Some(i) if dd.derived.is_empty() && !volatile => match &i.node {
                    Initializer::Expression(e) => constant(e, &HashMap::new()),
                    _ => None,
                },
                _ => None,
            };
            match value {
                Some(v) if !seen.contains(n) => {
                    out.insert(n.to_string(), v);
                }
                // A second definition, or one that is not a constant scalar: not constant.
                _ if id.node.initializer.is_some() || !dd.derived.is_empty() => {
                    out.remove(n);
                }
                _ => {}
            }
            seen.insert(n.to_string());
        }
    }
    if !out.is_empty() {
        let mut w = WrittenNames::default();
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::FunctionDefinition(f) => {
                    let Ok(()) = visit::stmt(&mut w, &f.node.statement);
                }
                // File-scope initialisers (`int *p = &n;`) take addresses too.
                ExternalDeclaration::Declaration(d) => {
                    let Ok(()) = visit::declaration(&mut w, d);
                }
                _ => {}
            }
        }
        out.retain(|n, _| !w.0.contains(n));
    }
    out
}

/// Locals/parameters of a function, and the names whose address is taken in it.
fn locals_and_taken(f: &FunctionDefinition) -> (HashSet<String>, HashSet<String>) {
    struct L(HashSet<String>, HashSet<String>);
    impl Visitor for L {
        type Error = Infallible;
        fn declaration(&mut self, d: &Node<Declaration>) -> std::result::Result<Walk, Infallible> {
            let st = storage_of(&d.node.specifiers);
            if !st.contains(&StorageClassSpecifier::Static)
                && !st.contains(&StorageClassSpecifier::Extern)
            {
                for id in &d.node.declarators {
                    if let Some(n) = declarator_name(&id.node.declarator.node) {
                        self.0.insert(n.to_string());
                    }
                }
            }
            Ok(Walk::Descend)
        }
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            // N4's havoc of an uninitialised local is not an escape of its address.
            if let Expression::Call(c) = &e.node {
                if callee_name(&c.node) == Some(abi::HAVOC) {
                    return Ok(Walk::Skip);
                }
            }
            if let Expression::UnaryOperator(u) = &e.node {
                if matches!(u.node.operator.node, UnaryOperator::Address) {
                    if let Some(n) = ident_name(&u.node.operand) {
                        self.1.insert(n.to_string());
                    }
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut l = L(
        parameter_names(&f.declarator.node).into_iter().collect(),
        HashSet::new(),
    );
    let Ok(()) = visit::stmt(&mut l, &f.statement);
    (l.0, l.1)
}

/// Removes statements that cannot run because an earlier statement of their block never
/// completes (`__CPROVER_assume(0)` — a certain cut —, `goto`, `return`, or a block or
/// `if` all of whose ways end so). A statement containing a label is kept (a goto may
/// reach it) and makes the rest live again; a dead declaration is kept, with its N4 havoc,
/// only when a label follows it in its block (otherwise no code can use it). Returns true
/// if `s`
/// never completes. This keeps `pthread_create` calls behind a certain cut from becoming
/// thread slots.
fn prune(s: &mut Node<Statement>) -> bool {
    match &mut s.node {
        Statement::Compound(items) => {
            let labelled: Vec<bool> = items
                .iter()
                .map(|it| matches!(&it.node, BlockItem::Statement(st) if has_label(st)))
                .collect();
            // Declarations after the block's last label: dead ones go with their havoc (N4).
            let last_label = labelled.iter().rposition(|l| *l);
            let mut dead = false;
            // Dead declarations kept (a label follows) keep N4: the havoc, or the assignment
            // that stood for it, of each becomes (stays) `__CPROVER_havoc_object(&x);`.
            let mut kept: HashSet<String> = HashSet::new();
            let mut k = 0;
            items.retain_mut(|it| {
                let at = k;
                k += 1;
                match &mut it.node {
                    BlockItem::Statement(st) => {
                        if dead && !labelled[at] {
                            let Some(x) = defined_by(st).filter(|x| kept.contains(*x)) else {
                                return false;
                            };
                            let x = x.to_string();
                            let sp = st.span;
                            *st = expr_stmt(call(abi::HAVOC, vec![addr(ident(&x, sp), sp)], sp));
                            kept.remove(&x);
                            return true;
                        }
                        if labelled[at] {
                            dead = false;
                        }
                        if prune(st) {
                            dead = true;
                        }
                        true
                    }
                    BlockItem::Declaration(d) if dead => {
                        if last_label.is_none_or(|l| l < at) {
                            return false;
                        }
                        kept.extend(
                            d.node
                                .declarators
                                .iter()
                                .filter_map(|id| declarator_name(&id.node.declarator.node))
                                .filter(|x| !names::is_temporary(x))
                                .map(String::from),
                        );
                        true
                    }
                    _ => !(dead && last_label.is_none_or(|l| l < at)),
                }
            });
            dead
        }
        Statement::Labeled(l) => prune(&mut l.node.statement),
        Statement::If(i) => {
            let t = prune(&mut i.node.then_statement);
            let e = i.node.else_statement.as_mut().is_some_and(|e| prune(e));
            t && e
        }
        Statement::Goto(_) | Statement::Return(_) => true,
        Statement::Expression(Some(e)) => match &e.node {
            Expression::Call(c) => {
                callee_name(&c.node) == Some(abi::ASSUME)
                    && c.node.arguments.len() == 1
                    && constant(&c.node.arguments[0], &HashMap::new()) == Some(0)
            }
            _ => false,
        },
        _ => false,
    }
}

/// The variable `s` gives its first value to by N4: `__CPROVER_havoc_object(&x);` or
/// `x = e;`.
fn defined_by(s: &Node<Statement>) -> Option<&str> {
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    match &e.node {
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
            ident_name(&b.node.lhs)
        }
        e => havoced_var(e),
    }
}

/// Does `s` contain a labeled statement (a possible goto target)?
fn has_label(s: &Node<Statement>) -> bool {
    struct L;
    impl Visitor for L {
        /// Found one.
        type Error = ();
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, ()> {
            match s.node {
                Statement::Labeled(_) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
        fn expr(&mut self, _e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            Ok(Walk::Skip)
        }
    }
    visit::stmt(&mut L, s).is_err()
}

/// The first backward goto of a statement in textual order: (span, label).
fn backward_goto(s: &Node<Statement>) -> Option<(Span, String)> {
    struct B {
        seen: HashSet<String>,
    }
    impl Visitor for B {
        /// The goto found.
        type Error = (Span, String);
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, (Span, String)> {
            match &s.node {
                Statement::Labeled(l) => {
                    if let Label::Identifier(i) = &l.node.label.node {
                        self.seen.insert(i.node.name.clone());
                    }
                }
                Statement::Goto(l) if self.seen.contains(&l.node.name) => {
                    return Err((s.span, l.node.name.clone()));
                }
                _ => {}
            }
            Ok(Walk::Descend)
        }
    }
    let mut b = B {
        seen: HashSet::new(),
    };
    visit::stmt(&mut b, s).err()
}
