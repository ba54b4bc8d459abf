//! `unwind`'s sampled loops (issue 31; `docs/decisions/data-only.md`, "Loops run as one
//! iteration"): a loop that copies would cut (a bound not known, or beyond `max_unwind`),
//! outside `main`'s set-up, whose body only computes and stores
//! (`for (j = 0; j < m; j++) b[i][j] = b[i][j - 1];`), runs one iteration, any of them:
//!
//! ```text
//! while (j < E) { B; j++; }   ──▶   { if (j < E) { havoc(written); T k; havoc(&k);
//!                                        assume(k >= j && k < E); j = k; B;
//!                                        havoc(written); j = E; }
//!                                      assume(!(j < E)); }
//! ```
//!
//! A race is two accesses; of this loop's, one iteration's. The step runs any iteration
//! `k`, on a state where what the loop writes holds arbitrary values (among them those of
//! the iterations before `k`), and leaves arbitrary values after it (among them the final
//! ones): it over-approximates the loop's states and keeps every iteration's accesses, so
//! a "no race" holds for every iteration, not only the first `--unwind` (no cut is
//! recorded). Like a set-up loop made one step (`solo`), it is a summary
//! (`Program::summaries`): a race found with it is a race when everything the havocs
//! touch is data-only (`Program::exact_summaries`), so that the program's own run reaches
//! the same two accesses.
//!
//! The translation keeps the step only where it is exact (`pipeline::translate` translates
//! again with `Options::sample_loops` off otherwise), so a race found with it is reported.
//!
//! What qualifies: an innermost loop (no loop in its body), the test `j < E` of a private
//! counter `j` moved only by the body's last
//! statement `j++`, `E` of constants and private locals the body does not write; the body
//! what a set-up loop's may be (`solo::Effects`: no call but `__VERIFIER_nondet_*` and
//! havocs of locals, jumps only inside itself, stores only to variables, `p[e]` and
//! `a[e1]…[ek]` of an array of at least `k` dimensions), writing no constant `unwind` uses.

use super::solo::Effects;
use super::Unwinder;
use ladr_c::syntax::build::*;
use ladr_c::syntax::query::{any_expr, Operands};
use ladr_c::syntax::walk::visit;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;

impl Unwinder<'_> {
    /// The one-iteration step that replaces the loop `s`, if it qualifies (module doc); its
    /// body's own loops unwound.
    pub(super) fn sample_loop(
        &mut self,
        s: &Node<Statement>,
    ) -> ladr_c::diag::Result<Option<Node<Statement>>> {
        let Some((j, end, body)) = self.sampled(s) else {
            return Ok(None);
        };
        let (span, test) = (s.span, end.span);
        let mut fx = Effects::default();
        for i in &body {
            let Ok(()) = visit::block_item(&mut fx, i);
        }
        // Nothing it writes is the counter or what the end reads.
        let reads_end =
            |v: &str| v == j || any_expr(&end, Operands::All, |x| ident_name(x) == Some(v));
        let Some(havocs) = self.summary_havocs(&fx, reads_end, span) else {
            return Ok(None);
        };
        let havocs = || havocs.iter().cloned().map(item);
        let mut iteration = block(body, span);
        self.stmt(&mut iteration)?;
        let k = self.names.temp();
        let var = |n: &str| ident(n, span);
        let less = |a: Node<Expression>| binop(BinaryOperator::Less, a, end.clone(), test);
        let mut run: Vec<Node<BlockItem>> = havocs().collect();
        run.push(decl_item(typeof_decl(&k, var(&j), false, span)));
        run.push(item(expr_stmt(call(
            abi::HAVOC,
            vec![addr(var(&k), test)],
            test,
        ))));
        let from = binop(BinaryOperator::GreaterOrEqual, var(&k), var(&j), test);
        run.push(item(assume(and(from, less(var(&k)), test), test)));
        run.push(item(expr_stmt(assign(var(&j), var(&k), span))));
        run.push(item(iteration));
        run.extend(havocs());
        run.push(item(expr_stmt(assign(var(&j), end.clone(), span))));
        let step = vec![
            item(if_stmt(less(var(&j)), block(run, span), None, span)),
            item(assume(not(less(var(&j)), span), span)),
        ];
        Ok(Some(block(step, span)))
    }

    /// `while (j < E) { B; j++; }` with `j` private and `E` of constants and private
    /// locals: `j`, `E` and `B`'s items.
    fn sampled(
        &self,
        s: &Node<Statement>,
    ) -> Option<(String, Node<Expression>, Vec<Node<BlockItem>>)> {
        let Statement::While(w) = &s.node else {
            return None;
        };
        let Expression::BinaryOperator(c) = &w.node.expression.node else {
            return None;
        };
        if c.node.operator.node != BinaryOperator::Less {
            return None;
        }
        let j = ident_name(&c.node.lhs)?;
        let end: &Node<Expression> = &c.node.rhs;
        let items = super::loops::body_items(&w.node.statement)?;
        let (last, body) = items.split_last()?;
        let BlockItem::Statement(step) = &last.node else {
            return None;
        };
        let fixed = |x: &Node<Expression>| match &x.node {
            Expression::Identifier(i) => i.node.name != j && self.is_private(&i.node.name),
            Expression::BinaryOperator(b) => {
                !ladr_c::syntax::walk::is_assign_op(&b.node.operator.node)
                    && b.node.operator.node != BinaryOperator::Index
            }
            Expression::Constant(_) | Expression::Cast(_) => true,
            Expression::UnaryOperator(u) => u.node.operator.node == UnaryOperator::Minus,
            _ => false,
        };
        let end_ok = !any_expr(end, Operands::All, |x| !fixed(x));
        // Innermost loops only: an outer one's havoc would take the inner counters, which
        // decide branches (never exact).
        let nested = body.iter().any(|i| {
            use ladr_c::syntax::query::{any_stmt, InExpressions};
            any_stmt(i, InExpressions::Enter, |s| {
                matches!(s.node, Statement::While(_))
            })
        });
        let ok =
            !nested && self.is_private(j) && end_ok && super::loops::step_of(step, j) == Some(1);
        ok.then(|| (j.to_string(), end.clone(), body.to_vec()))
    }
}
