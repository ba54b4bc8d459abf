//! `schedule(static, c)` and `schedule(dynamic, c)` with chunks of several iterations.
//!
//! OpenMP gives a chunk's `c` consecutive iterations to one thread, which runs them in
//! order: two iterations of one chunk never run at once. A claim of one iteration at a
//! time would let two threads run them at once, a race no schedule has (`a[i - i % 2] +=
//! i` under `schedule(static, 2)`: iterations 0 and 1 both update `a[0]`, always on one
//! thread). So the claims count chunks, and the thread runs its chunk's iterations:
//!
//! ```text
//! #pragma omp for schedule(dynamic, c)     { long size = c; assume(size >= 1);
//! for (i = lb; i < ub; i += s)               claims of chunk numbers k, i = lb + k * (size * s)
//!   body                                       (the worksharing loop, `work.rs`), then
//!                                            { T first = i; long j;
//!                                              for (j = 0; j < size; j++) {
//!                                                i = first + j * s;
//!                                                if (!(i < ub && i == first + j * s)) break;
//!                                                body } } }
//! ```
//!
//! The chunk size is evaluated by each thread where the loop starts (OpenMP evaluates it
//! once; an expression of the program's variables reads them as the loop bounds do). A
//! skip (dynamic schedules) passes over whole chunks and lands on a chunk's start. A
//! chunk size of 1 is the plain worksharing loop. `guided` with a chunk size above 1 is
//! refused (its chunks are at least that long, their boundaries the implementation's), as
//! are chunks with `lastprivate`, `ordered(n)` and `simd` (not modelled together).
use super::directive::Directive;
use super::lower::{fail, Lowering, R};
use super::outline::expression;
use super::static_skip::schedule;
use super::vars::{Form, Var};
use super::work::{long_decl, Canonical};
use crate::syntax::build::*;
use crate::syntax::names;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

impl Lowering {
    /// `d`'s loop `l` claiming chunks when its schedule has chunks of several iterations
    /// (module header: its step is the chunk's, its body runs the chunk's iterations),
    /// with the chunk size's declaration to put before the claims.
    pub(super) fn chunked(
        &mut self,
        d: &Directive,
        l: Canonical,
        var: &Var,
        span: Span,
    ) -> R<(Canonical, Vec<Node<BlockItem>>)> {
        // The chunk size's text, when it is not `1`.
        let Some(text) = schedule(d).and_then(|(_, c)| c.filter(|c| *c != "1")) else {
            return Ok((l, vec![]));
        };
        let args = d.clause("schedule").and_then(|c| c.args.as_deref());
        if args.is_some_and(|a| a.contains("guided")) {
            return fail(d, "`schedule(guided, c)` with a chunk size above 1");
        }
        if d.clause("lastprivate").is_some() {
            return fail(
                d,
                "`lastprivate` on a loop with chunks of several iterations",
            );
        }
        if self.claims_epoch.is_some() {
            return fail(
                d,
                "`ordered(n)` on a loop with chunks of several iterations",
            );
        }
        if d.words.iter().any(|w| w == "simd") || self.lane_frame.is_some() {
            return fail(d, "`simd` on a loop with chunks of several iterations");
        }
        let n = self.fresh();
        let size = names::omp("chunk", n);
        let first = names::omp("first", n);
        let j = names::omp("j", n);
        let c = expression(d, text, "schedule")?;
        let decls = vec![
            long_decl(&size, Some(c), span),
            item(assume(
                binop(
                    BinaryOperator::GreaterOrEqual,
                    ident(&size, span),
                    int(1, span),
                    span,
                ),
                span,
            )),
        ];
        let iv = || ident(&l.var, span);
        let value = || {
            binop(
                BinaryOperator::Plus,
                ident(&first, span),
                binop(
                    BinaryOperator::Multiply,
                    ident(&j, span),
                    l.step.clone(),
                    span,
                ),
                span,
            )
        };
        let within = and(l.cond.clone(), eq(iv(), value(), span), span);
        let stop = if_stmt(not(within, span), node(Statement::Break, span), None, span);
        let each = block(
            vec![
                item(expr_stmt(assign(iv(), value(), span))),
                item(stop),
                item(l.body),
            ],
            span,
        );
        let chunk_loop = node(
            Statement::For(node(
                ForStatement {
                    initializer: node(
                        ForInitializer::Expression(Box::new(assign(
                            ident(&j, span),
                            int(0, span),
                            span,
                        ))),
                        span,
                    ),
                    condition: Some(Box::new(binop(
                        BinaryOperator::Less,
                        ident(&j, span),
                        ident(&size, span),
                        span,
                    ))),
                    step: Some(Box::new(assign(
                        ident(&j, span),
                        binop(BinaryOperator::Plus, ident(&j, span), int(1, span), span),
                        span,
                    ))),
                    statement: Box::new(each),
                },
                span,
            )),
            span,
        );
        let body = block(
            vec![
                decl_item(var.declare(&first, Form::Same, Some(iv()), false, span)),
                long_decl(&j, None, span),
                item(chunk_loop),
            ],
            span,
        );
        let step = binop(
            BinaryOperator::Multiply,
            ident(&size, span),
            l.step.clone(),
            span,
        );
        let l = Canonical { step, body, ..l };
        Ok((l, decls))
    }
}
