//! `single copyprivate(x)`: the thread that ran the block copies its `x` into an internal
//! buffer before the barrier after the block; after the barrier every thread copies the
//! buffer into its own `x` (docs/openmp.md). Inside a loop a second barrier keeps the next
//! encounter's copy-in from overwriting a buffer a thread has not read yet.

use super::directive::Directive;
use super::lower::{dspan, fail, Lowering, R};
use super::vars::Form;
use crate::syntax::build::*;
use crate::syntax::names;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

impl Lowering {
    /// `single copyprivate(list)`: see the module header.
    pub fn copyprivate(&mut self, d: &Directive, body: Node<Statement>) -> R<Node<Statement>> {
        if d.clause("nowait").is_some() {
            return fail(d, "`copyprivate` with `nowait`");
        }
        let span = dspan(d);
        let mut single = d.clone();
        single.clauses.retain(|c| c.name != "copyprivate");
        let privates: Vec<String> = d
            .vars_of("private")
            .into_iter()
            .chain(d.vars_of("firstprivate"))
            .collect();
        let mut publish = vec![];
        let mut receive = vec![];
        for v in d.vars_of("copyprivate") {
            if privates.contains(&v) {
                return fail(
                    d,
                    format!("`{v}` both private to `single` and `copyprivate`"),
                );
            }
            let Some(var) = self.lookup(&v).cloned() else {
                return fail(
                    d,
                    format!("`{v}` in `copyprivate` is not a variable ladr knows"),
                );
            };
            if var.is_array() {
                return fail(d, format!("`copyprivate` array `{v}`"));
            }
            let buffer = names::omp("copyprivate", self.fresh());
            let decl = var.declare(&buffer, Form::Same, None, true, Span::none());
            self.new_items
                .push(node(ExternalDeclaration::Declaration(decl), Span::none()));
            publish.push(expr_stmt(assign(
                ident(&buffer, span),
                ident(&v, span),
                span,
            )));
            receive.push(expr_stmt(assign(
                ident(&v, span),
                ident(&buffer, span),
                span,
            )));
        }
        let bspan = body.span;
        let mut block = vec![body];
        block.extend(publish);
        let mut all = vec![self.single(&single, block_of(block, bspan))?];
        all.extend(receive);
        if self.loop_depth > 0 {
            all.extend(self.barrier(span));
        }
        Ok(block_of(all, bspan))
    }
}
