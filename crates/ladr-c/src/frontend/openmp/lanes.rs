//! SIMD lanes of a thread: `simd` inside a `parallel` region, `for simd`, and `simd
//! safelen(n)` in `main` (docs/openmp.md, "`simd`").
//!
//! One extra thread, the *lane*, is created with the team (or around the loop, outside a
//! region) and waits for a job. In each iteration of a `simd` loop the thread running it
//! may, once per lane (nondeterministically), hand the iteration over instead of running
//! it: it stores the iteration's loop variable and pointers to the locals the body uses,
//! posts the job (the loop's number) and goes on with its next iterations; the lane runs
//! that iteration's body concurrently and marks itself done. The thread waits for it at
//! the end of its part of the loop, or, with `safelen(n)`, before its `n`th iteration
//! after the handed-over one.
//!
//! ```text
//! simd loop N:                         lane (start routine __omp_laneR):
//! { int posted = 0, left = 0;            atomic { assume(job != 0); j = job; }
//!   for (...) {                          if (j == N) { T *x = cap_x; int i = cap_i;
//!     if (posted && --left <= 0)                       do { body } while (0); }
//!       atomic { assume(done); }         atomic { done = 1; }
//!     int take = 0;
//!     if (nondet) atomic { if (free) { free = 0; take = 1; } }
//!     if (take) { cap_x = &x; cap_i = i; atomic { job = N; } posted = 1; left = n; }
//!     else body
//!   }
//!   if (posted) atomic { assume(done); } }
//! ```
//!
//! A race between two lanes involves two iterations a and b; the execution that hands a
//! over (the lane is still free) runs it concurrently with b, so one lane finds it. The
//! lane's accesses are the iteration's own, through the thread's objects; nothing after
//! the loop (or after the `safelen` window) runs before it is done.

use super::directive::Directive;
use super::lower::{atomic_section, dspan, fail, Lowering, R};
use super::outline::Uses;
use super::vars::{Form, Var};
use super::work::canonical;
use crate::syntax::build::*;
use crate::syntax::names;
use crate::syntax::query::{any_expr, Operands};
use crate::syntax::walk::visit_mut;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{HashMap, HashSet};

/// What a `for simd` adds to its worksharing loop's per-thread part: declarations before
/// the claims and the wait for the lane after them (before the barrier).
pub struct LaneFrame {
    pub decls: Vec<Node<BlockItem>>,
    pub after: Vec<Node<Statement>>,
}

fn set(lhs: Node<Expression>, rhs: Node<Expression>, span: Span) -> Node<Statement> {
    expr_stmt(assign(lhs, rhs, span))
}

/// `int name = init;` (or without an initialiser) as a block item.
pub(super) fn int_decl(name: &str, init: Option<Node<Expression>>, span: Span) -> Node<BlockItem> {
    decl_item(simple_decl(
        &[TypeSpecifier::Int],
        name,
        None,
        false,
        init,
        span,
    ))
}

fn lane_global(what: &str) -> String {
    names::omp(&format!("lane_{what}"), 0)
}

/// `atomic { assume(done); }`
fn wait_done(span: Span) -> Vec<Node<Statement>> {
    atomic_section(vec![assume(ident(&lane_global("done"), span), span)], span)
}

impl Lowering {
    /// A `simd` loop inside a region, a `for simd`, or a `simd safelen(n)` of `main`
    /// outside any region: see the module header.
    pub fn simd_lanes(&mut self, d: &Directive, body: Node<Statement>) -> R<Node<Statement>> {
        let is_for = d.is(&["for", "simd"]);
        let standalone = self.parallel_depth == 0;
        if standalone && (is_for || self.function_name != "main") {
            return fail(
                d,
                format!(
                    "`{}` outside a parallel region{} (its lanes are modelled only inside a \
                     region or in `main`)",
                    d.name(),
                    if is_for { "" } else { " with `safelen`" }
                ),
            );
        }
        let mut known = vec!["private", "safelen", "simdlen", "aligned"];
        if is_for {
            known.extend(["schedule", "nowait"]);
        }
        for c in &d.clauses {
            let ok = known.contains(&c.name.as_str())
                || (c.name == "collapse" && c.args.as_deref().map(str::trim) == Some("1"));
            if !ok {
                return fail(
                    d,
                    format!(
                        "the clause `{}` of OpenMP `{}` on a loop whose lanes are modelled",
                        c.name,
                        d.name()
                    ),
                );
            }
        }
        let safelen = match d.clause("safelen").and_then(|c| c.args.as_deref()) {
            None => None,
            Some(a) => match a.trim().parse::<u64>() {
                Ok(n) if (1..=1 << 20).contains(&n) => Some(n),
                _ => return fail(d, "`safelen(...)` that is not a positive number"),
            },
        };
        if any_expr(&body, Operands::All, |e| match &e.node {
            Expression::Call(c) => callee_name(&c.node)
                .is_some_and(|n| n.starts_with("omp_") || n.starts_with("pthread_")),
            _ => false,
        }) {
            return fail(
                d,
                "an OpenMP runtime call or synchronisation in a `simd` loop",
            );
        }
        for g in &self.threadprivate {
            if any_expr(&body, Operands::All, |e| ident_name(e) == Some(g.as_str())) {
                return fail(
                    d,
                    format!("a `simd` loop using the `threadprivate` variable `{g}`"),
                );
            }
        }
        let span = dspan(d);
        let plain = d
            .clauses
            .iter()
            .all(|c| ["simdlen", "aligned", "safelen"].contains(&c.name.as_str()));
        if self.mode == super::Mode::FoldSimd && !is_for && !standalone && plain {
            // The proof's view: the thread runs the loop itself; the proof checks that no
            // two of its iterations conflict (`ladr_seq::prove::lanes`).
            let Statement::For(f) = &body.node else {
                return fail(d, "a `simd` directive not followed by a `for` loop");
            };
            let b = f.node.statement.span;
            self.folded_simd.push((b.start, b.end));
            return Ok(body);
        }
        let n = self.fresh();
        let posted = names::omp("lane_posted", n);
        let left = names::omp("lane_left", n);
        let Statement::For(mut f) = body.node else {
            return fail(d, "a `simd` directive not followed by a `for` loop");
        };
        let bspan = body.span;
        let loop_body = std::mem::replace(&mut *f.node.statement, empty_stmt(bspan));
        let (var_name, var) = self.loop_variable(d, &f)?;
        let arm = self.lane_arm(d, n, &var_name, &var, loop_body.clone())?;
        let handover = arm.1;
        self.lane_arms.push(arm.0);
        *f.node.statement = self.iteration(n, &posted, &left, safelen, handover, loop_body, span);
        let the_loop = node(Statement::For(f), bspan);
        let decls = vec![
            int_decl(&posted, Some(int(0, span)), span),
            int_decl(&left, Some(int(0, span)), span),
        ];
        let after = vec![if_stmt(
            ident(&posted, span),
            block_of(wait_done(span), span),
            None,
            span,
        )];
        if is_for {
            let mut ws = d.clone();
            ws.words = vec!["for".into()];
            ws.clauses.retain(|c| {
                !["safelen", "simdlen", "aligned", "collapse"].contains(&c.name.as_str())
            });
            self.lane_frame = Some(LaneFrame { decls, after });
            let lowered = self.worksharing_for(&ws, the_loop, false);
            self.lane_frame = None;
            return lowered;
        }
        let mut items = decls;
        items.push(item(self.privatise(d, the_loop, span)?));
        items.extend(after.into_iter().map(item));
        let lowered = block(items, bspan);
        if !standalone {
            return Ok(lowered);
        }
        let mut all = self.lane_start(span);
        all.push(lowered);
        all.extend(self.lane_stop(span));
        Ok(block_of(all, bspan))
    }

    /// A worksharing loop's claims (`claims`) after `items`; for `for simd` the lane's
    /// flags before them and the thread's wait for its lane after them (before the barrier).
    pub fn add_lane_frame(&mut self, items: &mut Vec<Node<BlockItem>>, claims: Node<Statement>) {
        items.push(item(claims));
        if let Some(frame) = self.lane_frame.take() {
            items.splice(0..0, frame.decls);
            items.extend(frame.after.into_iter().map(item));
        }
    }

    /// The loop variable of a `simd` loop and its declaration.
    fn loop_variable(&self, d: &Directive, f: &Node<ForStatement>) -> R<(String, Var)> {
        let probe = node(
            Statement::For(node(
                ForStatement {
                    initializer: f.node.initializer.clone(),
                    condition: f.node.condition.clone(),
                    step: f.node.step.clone(),
                    statement: Box::new(empty_stmt(f.span)),
                },
                f.span,
            )),
            f.span,
        );
        let l = canonical(probe).map_err(|m| (dspan(d), m.to_string()))?;
        let var = match &l.declared {
            Some(decl) => super::vars::declared(&decl.node).pop().map(|(_, v)| v),
            None => self.lookup(&l.var).cloned(),
        };
        match var {
            Some(v) if !v.is_array() => Ok((l.var, v)),
            _ => fail(d, format!("the loop variable `{}` is not declared", l.var)),
        }
    }

    /// The lane's arm for loop `n` (`if (job == n) { captures; body }`) and the thread's
    /// hand-over of the iteration (stores to the capture objects).
    fn lane_arm(
        &mut self,
        d: &Directive,
        n: usize,
        var_name: &str,
        var: &Var,
        mut body: Node<Statement>,
    ) -> R<(Node<Statement>, Vec<Node<Statement>>)> {
        let span = dspan(d);
        let private = d.vars_of("private");
        let mut locals: HashMap<String, Var> = HashMap::new();
        for s in &self.scopes {
            locals.extend(s.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        let is_captured =
            |x: &str| x != var_name && !private.iter().any(|p| p == x) && locals.contains_key(x);
        let mut uses = Uses::new(&is_captured);
        let Ok(()) = visit_mut::stmt(&mut uses, &mut body);
        let cap = |x: &str| names::omp(&format!("lane_v_{x}"), n);
        let mut inside = vec![];
        let mut handover = vec![];
        let mut deref = HashSet::new();
        for x in uses.used.keys() {
            let v = &locals[x];
            let form = if v.is_array() {
                if uses.sized.contains(x) {
                    return fail(d, format!("`sizeof` of the array `{x}` in a `simd` loop"));
                }
                if !v.element_pointer_ok() {
                    return fail(
                        d,
                        format!("the variable-length array `{x}` in a `simd` loop"),
                    );
                }
                Form::Element
            } else {
                deref.insert(x.clone());
                Form::Pointer
            };
            self.new_items.push(node(
                ExternalDeclaration::Declaration(v.declare(
                    &cap(x),
                    form,
                    None,
                    true,
                    Span::none(),
                )),
                Span::none(),
            ));
            let value = match form {
                Form::Pointer => addr(ident(x, span), span),
                _ => ident(x, span),
            };
            handover.push(set(ident(&cap(x), span), value, span));
            inside.push(decl_item(v.declare(
                x,
                form,
                Some(ident(&cap(x), span)),
                false,
                span,
            )));
        }
        if !deref.is_empty() {
            uses.deref = deref;
            uses.used.clear();
            let Ok(()) = visit_mut::stmt(&mut uses, &mut body);
        }
        // The iteration's loop variable, and the OpenMP thread number of the thread whose
        // lane it is (for the report).
        let iv = cap(var_name);
        self.new_items.push(node(
            ExternalDeclaration::Declaration(var.declare(
                &iv,
                Form::Same,
                None,
                true,
                Span::none(),
            )),
            Span::none(),
        ));
        handover.push(set(ident(&iv, span), ident(var_name, span), span));
        inside.push(decl_item(var.declare(
            var_name,
            Form::Same,
            Some(ident(&iv, span)),
            false,
            span,
        )));
        handover.push(set(
            ident(&lane_global("owner"), span),
            ident(names::OMP_THREAD_NUM, span),
            span,
        ));
        inside.push(item(set(
            ident(names::OMP_THREAD_NUM, span),
            ident(&lane_global("owner"), span),
            span,
        )));
        for p in &private {
            let Some(v) = self.lookup(p).cloned() else {
                return fail(
                    d,
                    format!("`{p}` in `private` is not a variable ladr knows"),
                );
            };
            if v.is_vla() {
                return fail(
                    d,
                    format!("a private copy of the variable-length array `{p}`"),
                );
            }
            inside.push(decl_item(v.declare(p, Form::Same, None, false, span)));
        }
        // `do { body } while (0)`: a `continue` of the body ends the iteration.
        inside.push(item(node(
            Statement::DoWhile(node(
                DoWhileStatement {
                    statement: Box::new(body),
                    expression: Box::new(int(0, span)),
                },
                span,
            )),
            span,
        )));
        let arm = if_stmt(
            eq(
                ident(&lane_global("job_taken"), span),
                int(n as u64, span),
                span,
            ),
            block(inside, span),
            None,
            span,
        );
        Ok((arm, handover))
    }

    /// The thread's iteration of loop `n`: the `safelen` wait, the choice to hand the
    /// iteration over, else the body.
    #[allow(clippy::too_many_arguments)]
    fn iteration(
        &mut self,
        n: usize,
        posted: &str,
        left: &str,
        safelen: Option<u64>,
        mut handover: Vec<Node<Statement>>,
        body: Node<Statement>,
        span: Span,
    ) -> Node<Statement> {
        let take = names::omp("lane_take", n);
        let g = |w: &str| ident(&lane_global(w), span);
        let mut items = vec![];
        if safelen.is_some() {
            let count_down = set(
                ident(left, span),
                binop(BinaryOperator::Minus, ident(left, span), int(1, span), span),
                span,
            );
            let due = binop(
                BinaryOperator::LessOrEqual,
                ident(left, span),
                int(0, span),
                span,
            );
            let mut then = vec![count_down];
            then.push(if_stmt(due, block_of(wait_done(span), span), None, span));
            items.push(item(if_stmt(
                ident(posted, span),
                block_of(then, span),
                None,
                span,
            )));
        }
        items.push(int_decl(&take, Some(int(0, span)), span));
        let claim = atomic_section(
            vec![if_stmt(
                g("free"),
                block_of(
                    vec![
                        set(g("free"), int(0, span), span),
                        set(ident(&take, span), int(1, span), span),
                    ],
                    span,
                ),
                None,
                span,
            )],
            span,
        );
        items.push(item(if_stmt(
            call(names::NONDET_LONG, vec![], span),
            block_of(claim, span),
            None,
            span,
        )));
        handover.extend(atomic_section(
            vec![set(g("job"), int(n as u64, span), span)],
            span,
        ));
        handover.push(set(ident(posted, span), int(1, span), span));
        if let Some(s) = safelen {
            handover.push(set(ident(left, span), int(s, span), span));
        }
        items.push(item(if_stmt(
            ident(&take, span),
            block_of(handover, span),
            Some(body),
            span,
        )));
        block(items, span)
    }

    /// The encountering thread, before the team (or the loop) starts: the lane's state,
    /// its start routine (the arms registered so far) and its creation.
    pub fn lane_start(&mut self, span: Span) -> Vec<Node<Statement>> {
        let r = self.fresh();
        let routine = names::omp_lane(r);
        let arms = std::mem::take(&mut self.lane_arms);
        let g = |w: &str| ident(&lane_global(w), span);
        if !self.declared_lane_state {
            self.declared_lane_state = true;
            for w in ["job", "free", "done", "owner"] {
                self.global(&[TypeSpecifier::Int], &lane_global(w), None);
            }
            self.global(
                &[TypeSpecifier::Unsigned, TypeSpecifier::Long],
                &lane_global("tid"),
                None,
            );
        }
        let mut items = vec![int_decl(&lane_global("job_taken"), None, span)];
        items.extend(
            atomic_section(
                vec![
                    assume(
                        binop(BinaryOperator::NotEquals, g("job"), int(0, span), span),
                        span,
                    ),
                    set(g("job_taken"), g("job"), span),
                ],
                span,
            )
            .into_iter()
            .map(item),
        );
        items.extend(arms.into_iter().map(item));
        items.extend(
            atomic_section(vec![set(g("done"), int(1, span), span)], span)
                .into_iter()
                .map(item),
        );
        items.push(item(ret(Some(int(0, span)), span)));
        self.new_items.push(super::outline::routine_def(
            &routine,
            &names::omp("lane_arg", r),
            block(items, span),
        ));
        vec![
            set(g("job"), int(0, span), span),
            set(g("free"), int(1, span), span),
            set(g("done"), int(0, span), span),
            expr_stmt(call(
                "pthread_create",
                vec![
                    addr(g("tid"), span),
                    int(0, span),
                    ident(&routine, span),
                    int(0, span),
                ],
                span,
            )),
        ]
    }

    /// The encountering thread, after the team (or the loop): a lane that got no job is
    /// told to stop (job −1); then it is joined.
    pub fn lane_stop(&mut self, span: Span) -> Vec<Node<Statement>> {
        let g = |w: &str| ident(&lane_global(w), span);
        let mut out = atomic_section(
            vec![if_stmt(
                eq(g("job"), int(0, span), span),
                set(
                    g("job"),
                    unop(UnaryOperator::Minus, int(1, span), span),
                    span,
                ),
                None,
                span,
            )],
            span,
        );
        out.push(expr_stmt(call(
            "pthread_join",
            vec![g("tid"), int(0, span)],
            span,
        )));
        out
    }
}
