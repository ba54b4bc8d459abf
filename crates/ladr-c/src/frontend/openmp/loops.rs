//! Loop constructs built on the worksharing loop of [`super::work`]: `collapse(n)`,
//! `linear`, `for ordered` with its `ordered` regions, and `simd` (docs/openmp.md).
//!
//! * `collapse(n)`: the perfectly nested rectangular loops become one loop over a counter
//!   `c` from 0 to the product of their trip counts; each iteration declares the loop
//!   variables (private, as OpenMP's) from `c`. The worksharing loop then assigns the
//!   collapsed iterations as any other.
//! * `linear(x[:s])` (on a combined construct): the encountering thread reads `x` before
//!   the team starts; iteration number `k` sets its private `x` to that value plus `k*s`;
//!   the sequentially last iteration copies it out (as `lastprivate`).
//! * `ordered`: each iteration computes its number `k`; its `ordered` region waits (an
//!   assumption in an atomic section, as the model's mutex does) until a shared turn is
//!   `k`, and passes the turn on at its end (the last iteration resets it). Refused unless
//!   every iteration runs exactly one `ordered` region (no control flow around it, no
//!   `continue`, `goto` or `return` in the body), so no wait is for a region that never
//!   comes.
//! * `simd`: lanes of one thread run iterations in lockstep and, without `safelen`, any
//!   number of iterations may be lanes of one chunk; a race between two iterations is a
//!   race between two lanes, so a `simd` loop outside a region is checked as a worksharing
//!   loop run by a team of two lanes; `parallel for simd` as `parallel for` (its iterations
//!   already run on different threads) with a team of at least two. `simd` inside a region,
//!   `for simd` and `simd safelen(n)` get a lane thread instead ([`super::lanes`]).

use super::directive::{Clause, Directive};
use super::lower::{atomic_section, dspan, fail, Lowering, R};
use super::vars::Form;
use super::work::{canonical, Rename};
use crate::syntax::build::*;
use crate::syntax::constant::{value, Env};
use crate::syntax::names;
use crate::syntax::query::{any_expr, any_stmt, InExpressions, Operands};
use crate::syntax::walk::visit_mut;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

pub(super) fn long(e: Node<Expression>, span: Span) -> Node<Expression> {
    cast(type_name(&[TypeSpecifier::Long], 0, span), e, span)
}

fn minus(a: Node<Expression>, b: Node<Expression>, span: Span) -> Node<Expression> {
    binop(BinaryOperator::Minus, a, b, span)
}

fn plus(a: Node<Expression>, b: Node<Expression>, span: Span) -> Node<Expression> {
    binop(BinaryOperator::Plus, a, b, span)
}

fn times(a: Node<Expression>, b: Node<Expression>, span: Span) -> Node<Expression> {
    binop(BinaryOperator::Multiply, a, b, span)
}

fn set(lhs: Node<Expression>, rhs: Node<Expression>, span: Span) -> Node<Statement> {
    expr_stmt(assign(lhs, rhs, span))
}

fn mentions(e: &Node<Expression>, vars: &[String]) -> bool {
    any_expr(e, Operands::All, |x| {
        ident_name(x).is_some_and(|n| vars.iter().any(|v| v == n))
    })
}

/// The number of iterations of `var = lb; cond; var += step` (0 when none), as a `long`.
fn trip_count(
    var: &str,
    lb: &Node<Expression>,
    cond: &Node<Expression>,
    step: &Node<Expression>,
    span: Span,
) -> Result<Node<Expression>, &'static str> {
    let Expression::BinaryOperator(b) = &cond.node else {
        return Err("a collapsed loop whose condition is not a comparison");
    };
    let (op, ub) = if ident_name(&b.node.lhs) == Some(var) {
        (b.node.operator.node.clone(), (*b.node.rhs).clone())
    } else {
        let flipped = match b.node.operator.node {
            BinaryOperator::Less => BinaryOperator::Greater,
            BinaryOperator::LessOrEqual => BinaryOperator::GreaterOrEqual,
            BinaryOperator::Greater => BinaryOperator::Less,
            BinaryOperator::GreaterOrEqual => BinaryOperator::LessOrEqual,
            _ => return Err("a collapsed loop whose condition is `!=`"),
        };
        (flipped, (*b.node.lhs).clone())
    };
    let constant = |e: &Node<Expression>| value(&e.node, &Env::none());
    if let (Some(l), Some(u), Some(st)) = (constant(lb), constant(&ub), constant(step)) {
        // Constant bounds: the count itself (no division in CBMC's formula).
        let n = match op {
            BinaryOperator::Less if st > 0 => (u - l + st - 1) / st,
            BinaryOperator::LessOrEqual if st > 0 => (u - l + st) / st,
            BinaryOperator::Greater if st < 0 => (l - u - st - 1) / -st,
            BinaryOperator::GreaterOrEqual if st < 0 => (l - u - st) / -st,
            _ => return Err("a collapsed loop whose step goes away from its bound"),
        };
        return Ok(long(
            int(n.clamp(0, i128::from(i32::MAX)) as u64, span),
            span,
        ));
    }
    let (lb, ub, s) = (
        long(lb.clone(), span),
        long(ub, span),
        long(step.clone(), span),
    );
    let one = || int(1, span);
    let (has, count) = match op {
        BinaryOperator::Less => (
            binop(BinaryOperator::Greater, ub.clone(), lb.clone(), span),
            binop(
                BinaryOperator::Divide,
                minus(plus(minus(ub, lb, span), s.clone(), span), one(), span),
                s,
                span,
            ),
        ),
        BinaryOperator::LessOrEqual => (
            binop(BinaryOperator::GreaterOrEqual, ub.clone(), lb.clone(), span),
            binop(
                BinaryOperator::Divide,
                plus(minus(ub, lb, span), s.clone(), span),
                s,
                span,
            ),
        ),
        BinaryOperator::Greater => (
            binop(BinaryOperator::Greater, lb.clone(), ub.clone(), span),
            binop(
                BinaryOperator::Divide,
                minus(minus(minus(lb, ub, span), s.clone(), span), one(), span),
                minus(int(0, span), s, span),
                span,
            ),
        ),
        BinaryOperator::GreaterOrEqual => (
            binop(BinaryOperator::GreaterOrEqual, lb.clone(), ub.clone(), span),
            binop(
                BinaryOperator::Divide,
                minus(minus(lb, ub, span), s.clone(), span),
                minus(int(0, span), s, span),
                span,
            ),
        ),
        _ => return Err("a collapsed loop whose condition is `!=`"),
    };
    Ok(crate::syntax::build::cond(
        has,
        count,
        long(int(0, span), span),
        span,
    ))
}

/// The product of `counts`, a literal when all are literals.
fn product(counts: &[Node<Expression>], span: Span) -> Node<Expression> {
    let literal = |e: &Node<Expression>| match &e.node {
        Expression::Cast(c) => value(&c.node.expression.node, &Env::none()),
        _ => None,
    };
    let values: Option<Vec<i128>> = counts.iter().map(literal).collect();
    match values {
        Some(v) if v.iter().product::<i128>() <= i128::from(i32::MAX) => {
            long(int(v.iter().product::<i128>() as u64, span), span)
        }
        _ => counts
            .iter()
            .cloned()
            .reduce(|a, b| times(a, b, span))
            .unwrap_or_else(|| long(int(1, span), span)),
    }
}

/// The `n` perfectly nested canonical loops of `body` (their bodies left empty) and the
/// innermost one's body; `what` names the construct in the error.
pub(super) fn perfect_nest(
    body: Node<Statement>,
    n: usize,
    span: Span,
    what: &str,
) -> R<(Vec<super::work::Canonical>, Node<Statement>)> {
    let mut levels = vec![];
    let mut current = body;
    for level in 0..n {
        let mut l = canonical(current).map_err(|m| (span, m.to_string()))?;
        let inner = std::mem::replace(&mut l.body, empty_stmt(span));
        current = if level + 1 < n {
            only_statement(inner).ok_or((
                span,
                format!("{what} of loops that are not perfectly nested"),
            ))?
        } else {
            inner
        };
        levels.push(l);
    }
    Ok((levels, current))
}

/// The one statement of `s` (itself, or the only item of a block).
fn only_statement(s: Node<Statement>) -> Option<Node<Statement>> {
    match s.node {
        Statement::Compound(mut items) if items.len() == 1 => match items.pop()?.node {
            BlockItem::Statement(st) => Some(st),
            _ => None,
        },
        Statement::Compound(_) => None,
        _ => Some(s),
    }
}

/// `for (T var = init; cond; step) body` as a statement.
fn for_loop(
    init: Node<Declaration>,
    condition: Node<Expression>,
    step: Node<Expression>,
    body: Node<Statement>,
    span: Span,
) -> Node<Statement> {
    node(
        Statement::For(node(
            ForStatement {
                initializer: node(ForInitializer::Declaration(init), span),
                condition: Some(Box::new(condition)),
                step: Some(Box::new(step)),
                statement: Box::new(body),
            },
            span,
        )),
        span,
    )
}

/// The number of the current iteration, `(var - lb) / step`, of the canonical loop `s`.
fn iteration_number(s: &Node<Statement>, span: Span) -> Result<Node<Expression>, &'static str> {
    let l = canonical(s.clone())?;
    Ok(binop(
        BinaryOperator::Divide,
        minus(long(ident(&l.var, span), span), long(l.lb, span), span),
        long(l.step, span),
        span,
    ))
}

/// Puts `prefix` at the start of the body of the `for` statement `s`.
fn prefix_body(s: &mut Node<Statement>, prefix: Vec<Node<BlockItem>>) {
    if prefix.is_empty() {
        return;
    }
    if let Statement::For(f) = &mut s.node {
        let span = f.node.statement.span;
        let body = std::mem::replace(&mut *f.node.statement, empty_stmt(span));
        let mut items = prefix;
        items.push(item(body));
        *f.node.statement = block(items, span);
    }
}

impl Lowering {
    /// `collapse`, `linear`, `ordered` and `simd` loops: see the module header.
    pub fn loop_construct(&mut self, d: &Directive, body: Node<Statement>) -> R<Node<Statement>> {
        let span = dspan(d);
        let mut d = d.clone();
        let simd = d.words.last().is_some_and(|w| w == "simd");
        if simd {
            let lanes = d.is(&["for", "simd"])
                || (d.is(&["simd"]) && (self.parallel_depth > 0 || d.clause("safelen").is_some()));
            if lanes {
                return self.simd_lanes(&d, body);
            }
            self.simd(&mut d, &body)?;
        }
        let combined = d.words.first().is_some_and(|w| w == "parallel");
        let mut body = body;
        if let Some(c) = d.clause("collapse").cloned() {
            let n = match c.args.as_deref().map(|a| a.trim().parse::<usize>()) {
                Some(Ok(n)) if (1..=4).contains(&n) => n,
                _ => return fail(&d, "`collapse` whose argument is not a number from 1 to 4"),
            };
            d.clauses.retain(|c| c.name != "collapse");
            if n > 1 {
                body = self.collapse(&d, body, n)?;
            }
        }
        let mut prefix = vec![];
        let mut before = vec![];
        if d.clause("linear").is_some() {
            if !combined {
                return fail(
                    &d,
                    "`linear` on a worksharing loop inside a region (only on `parallel for` and `simd`)",
                );
            }
            self.linear(&mut d, &body, &mut prefix, &mut before)?;
        }
        let ordered = self.ordered_loops.last().cloned();
        if let Some(c) = d.clause("ordered").cloned() {
            d.clauses.retain(|c| c.name != "ordered");
            let Some(n) = ordered else {
                return fail(&d, "`ordered` loop ladr did not see");
            };
            match self.doacross.get(&n).cloned() {
                Some(nest) if c.args.is_some() => {
                    // The variables of the inner loops of the nest are private too.
                    for dim in &nest.dims[1..] {
                        if let Some(var) = self.lookup(&dim.var).cloned() {
                            prefix.push(decl_item(var.declare(
                                &dim.var,
                                Form::Same,
                                None,
                                false,
                                span,
                            )));
                        }
                    }
                    self.claims_epoch = Some(nest.epoch);
                }
                _ => self.ordered_loop(&d, &body, n, &mut prefix)?,
            }
        }
        prefix_body(&mut body, prefix);
        let lowered = if combined {
            let inner = self.worksharing_for(&d, body, true)?;
            self.parallel(&d, inner)?
        } else {
            self.worksharing_for(&d, body, false)?
        };
        if before.is_empty() {
            return Ok(lowered);
        }
        let bspan = lowered.span;
        before.push(item(lowered));
        let _ = span;
        Ok(block(before, bspan))
    }

    /// `collapse(n)`: one loop over the product of the `n` loops' iteration spaces.
    fn collapse(&mut self, d: &Directive, body: Node<Statement>, n: usize) -> R<Node<Statement>> {
        let span = dspan(d);
        let (levels, current) = perfect_nest(body, n, span, "`collapse`")?;
        let vars: Vec<String> = levels.iter().map(|l| l.var.clone()).collect();
        for (t, l) in levels.iter().enumerate().skip(1) {
            let outer = &vars[..t];
            if mentions(&l.lb, outer) || mentions(&l.cond, outer) || mentions(&l.step, outer) {
                return fail(d, "`collapse` of a non-rectangular loop nest");
            }
        }
        for v in d.vars_of("lastprivate").iter().chain(&d.vars_of("linear")) {
            if vars.contains(v) {
                return fail(
                    d,
                    format!("`{v}`, a collapsed loop's variable, in a clause"),
                );
            }
        }
        let mut counts = vec![];
        for l in &levels {
            counts.push(
                trip_count(&l.var, &l.lb, &l.cond, &l.step, span)
                    .map_err(|m| (span, m.to_string()))?,
            );
        }
        let c = names::omp("collapsed", self.fresh());
        let mut items = vec![];
        for (t, l) in levels.iter().enumerate() {
            let var = match &l.declared {
                Some(decl) => super::vars::declared(&decl.node).pop().map(|(_, v)| v),
                None => self.lookup(&l.var).cloned(),
            };
            let Some(var) = var else {
                return fail(d, format!("the loop variable `{}` is not declared", l.var));
            };
            let inner_product = product(&counts[t + 1..], span);
            let k = binop(
                BinaryOperator::Modulo,
                binop(BinaryOperator::Divide, ident(&c, span), inner_product, span),
                counts[t].clone(),
                span,
            );
            let value = plus(
                long(l.lb.clone(), span),
                times(k, long(l.step.clone(), span), span),
                span,
            );
            items.push(decl_item(var.declare(
                &l.var,
                Form::Same,
                Some(value),
                false,
                span,
            )));
        }
        items.push(item(current));
        let total = product(&counts, span);
        let init = simple_decl(
            &[TypeSpecifier::Long],
            &c,
            None,
            false,
            Some(int(0, span)),
            span,
        );
        let bspan = items.last().map(|i| i.span).unwrap_or(span);
        Ok(for_loop(
            init,
            binop(BinaryOperator::Less, ident(&c, span), total, span),
            unop(UnaryOperator::PostIncrement, ident(&c, span), span),
            block(items, bspan),
            span,
        ))
    }

    /// `linear(x[:s])` on a combined construct: see the module header.
    fn linear(
        &mut self,
        d: &mut Directive,
        body: &Node<Statement>,
        prefix: &mut Vec<Node<BlockItem>>,
        before: &mut Vec<Node<BlockItem>>,
    ) -> R<()> {
        let span = dspan(d);
        let loop_var = canonical(body.clone())
            .map_err(|m| (span, m.to_string()))?
            .var;
        let k = iteration_number(body, span).map_err(|m| (span, m.to_string()))?;
        let mut last: Vec<String> = vec![];
        for c in d.clauses.iter().filter(|c| c.name == "lastprivate") {
            if c.args.as_deref().is_some_and(|a| a.contains(':')) {
                return fail(d, "`lastprivate` with a modifier");
            }
            last.extend(c.vars());
        }
        for c in d.clauses.iter().filter(|c| c.name == "linear") {
            let args = c.args.clone().unwrap_or_default();
            if args.contains('(') {
                return fail(d, "`linear` with a modifier");
            }
            let (list, step) = match args.split_once(':') {
                Some((l, s)) => match s.trim().parse::<u64>() {
                    Ok(s) => (l.to_string(), s),
                    Err(_) => return fail(d, "`linear` with a step that is not a number"),
                },
                None => (args.clone(), 1),
            };
            for v in list.split(',').map(str::trim).filter(|v| !v.is_empty()) {
                if v == loop_var {
                    continue;
                }
                if last.iter().any(|l| l == v) {
                    return fail(d, format!("`{v}` both `linear` and `lastprivate`"));
                }
                let Some(var) = self.lookup(v).cloned() else {
                    return fail(d, format!("`{v}` in `linear` is not a variable ladr knows"));
                };
                if var.is_array() {
                    return fail(d, format!("`linear` array `{v}`"));
                }
                let start = names::omp("linear", self.fresh());
                before.push(decl_item(var.declare(
                    &start,
                    Form::Same,
                    Some(ident(v, span)),
                    false,
                    span,
                )));
                if let Some(scope) = self.scopes.last_mut() {
                    scope.insert(start.clone(), var.clone());
                }
                prefix.push(item(set(
                    ident(v, span),
                    plus(
                        ident(&start, span),
                        times(k.clone(), int(step, span), span),
                        span,
                    ),
                    span,
                )));
                last.push(v.to_string());
            }
        }
        d.clauses
            .retain(|c| c.name != "linear" && c.name != "lastprivate");
        if !last.is_empty() {
            d.clauses.push(Clause {
                name: "lastprivate".into(),
                args: Some(last.join(", ")),
            });
        }
        Ok(())
    }

    /// The iteration number and last-iteration test of a `for ordered` loop, named after
    /// `n`, at the top of each iteration; every iteration must run one `ordered` region.
    fn ordered_loop(
        &mut self,
        d: &Directive,
        body: &Node<Statement>,
        n: usize,
        prefix: &mut Vec<Node<BlockItem>>,
    ) -> R<()> {
        let span = dspan(d);
        let l = canonical(body.clone()).map_err(|m| (span, m.to_string()))?;
        let iter = names::omp("ordered_iteration", n);
        if any_stmt(&l.body, InExpressions::Enter, |s| {
            matches!(
                s.node,
                Statement::Continue | Statement::Goto(_) | Statement::Return(_)
            )
        }) {
            return fail(d, "`for ordered` whose body may skip its `ordered` region (`continue`, `goto`, `return`)");
        }
        let uses = |s: &Node<Statement>| {
            any_expr(s, Operands::All, |e| ident_name(e) == Some(iter.as_str()))
        };
        // Every `ordered` region at the top level of the body, never under control flow.
        fn count(
            s: &Node<Statement>,
            uses: &dyn Fn(&Node<Statement>) -> bool,
        ) -> Result<usize, ()> {
            match &s.node {
                Statement::Compound(items) => {
                    let mut total = 0;
                    for it in items {
                        if let BlockItem::Statement(st) = &it.node {
                            total += count(st, uses)?;
                        }
                    }
                    Ok(total)
                }
                Statement::Expression(_) => Ok(uses(s) as usize),
                _ if uses(s) => Err(()),
                _ => Ok(0),
            }
        }
        match count(&l.body, &uses) {
            Ok(0 | 1) => {}
            _ => {
                return fail(
                    d,
                    "`for ordered` whose iterations may not run exactly one `ordered` region",
                )
            }
        }
        let next = names::omp("ordered_next", n);
        let last = names::omp("ordered_last", n);
        let var = match &l.declared {
            Some(decl) => super::vars::declared(&decl.node).pop().map(|(_, v)| v),
            None => self.lookup(&l.var).cloned(),
        };
        let Some(var) = var else {
            return fail(d, format!("the loop variable `{}` is not declared", l.var));
        };
        let k = iteration_number(body, span).map_err(|m| (span, m.to_string()))?;
        let mut test = l.cond.clone();
        let Ok(()) = visit_mut::expr(&mut Rename(&l.var, &next), &mut test);
        prefix.push(decl_item(simple_decl(
            &[TypeSpecifier::Long],
            &iter,
            None,
            false,
            Some(k),
            span,
        )));
        prefix.push(decl_item(var.declare(
            &next,
            Form::Same,
            Some(plus(ident(&l.var, span), l.step.clone(), span)),
            false,
            span,
        )));
        prefix.push(decl_item(simple_decl(
            &[TypeSpecifier::Int],
            &last,
            None,
            false,
            Some(not(test, span)),
            span,
        )));
        Ok(())
    }

    /// An `ordered` region of the `for ordered` loop named after `n`: waits for its turn,
    /// passes it on (the last iteration resets it for the next time).
    pub fn ordered_region(&mut self, d: &Directive, body: Node<Statement>) -> R<Node<Statement>> {
        self.no_clauses(d, &["threads"])?;
        let Some(&n) = self.ordered_loops.last() else {
            return fail(
                d,
                "`ordered` region outside a `for ordered` loop of the same function",
            );
        };
        if self.doacross.contains_key(&n) {
            return fail(d, "an `ordered` region in a doacross loop (`ordered(n)`)");
        }
        let span = dspan(d);
        let turn = names::omp("ordered_turn", n);
        if self.declared_turns.insert(n) {
            self.global(&[TypeSpecifier::Long], &turn, None);
        }
        let iter = ident(&names::omp("ordered_iteration", n), span);
        let last = ident(&names::omp("ordered_last", n), span);
        let t = || ident(&turn, span);
        let wait = atomic_section(vec![assume(eq(t(), iter, span), span)], span);
        let pass = atomic_section(
            vec![set(
                t(),
                cond(
                    last,
                    long(int(0, span), span),
                    plus(t(), int(1, span), span),
                    span,
                ),
                span,
            )],
            span,
        );
        let bspan = body.span;
        let mut all = wait;
        all.push(body);
        all.extend(pass);
        Ok(block_of(all, bspan))
    }

    /// `simd` clauses and the team of lanes: see the module header.
    fn simd(&mut self, d: &mut Directive, body: &Node<Statement>) -> R<()> {
        for refused in ["if", "nontemporal", "order", "num_threads"] {
            if d.clause(refused).is_some() {
                return fail(
                    d,
                    format!(
                        "the clause `{refused}` of OpenMP `{}` is not modelled",
                        d.name()
                    ),
                );
            }
        }
        if any_expr(body, Operands::All, |e| match &e.node {
            Expression::Call(c) => callee_name(&c.node).is_some_and(|n| n.starts_with("omp_")),
            _ => false,
        }) {
            return fail(d, "an OpenMP runtime call in a `simd` loop");
        }
        // `safelen` on `parallel for simd`: any two iterations may already run on two
        // threads of the team (at least two), whatever their distance.
        d.clauses
            .retain(|c| !["simdlen", "aligned", "safelen"].contains(&c.name.as_str()));
        let lanes = if d.is(&["simd"]) { 2 } else { self.team.max(2) };
        d.words = vec!["parallel".into(), "for".into()];
        d.clauses.push(Clause {
            name: "num_threads".into(),
            args: Some(lanes.to_string()),
        });
        Ok(())
    }
}
