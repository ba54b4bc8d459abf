//! `pthread_once(control, routine)` whose routine is not a function named directly (a
//! struct member, an element of a table, a pointer variable) → the model's steps around a
//! call through the pointer, which `inline` resolves like any other:
//!
//! ```text
//! lv = pthread_once(c, e);  →  { int t; t = __ladr_pthread_once(c);
//!                                 if (t) { (*e)(); __ladr_pthread_once_done(c); } lv = 0; }
//! ```
//!
//! A routine named directly (`init`, `&init`, a cast of it) stays for `threads`, which
//! copies its body in place. `call_once` was mapped to `pthread_once` before ([`super::c11`]).

use ladr_c::diag::Error;
use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashSet;

/// Rewrites the `pthread_once` calls through a pointer of one normalised body.
struct OnceCalls<'a> {
    names: &'a mut Names,
    /// Functions the program defines.
    defined: &'a HashSet<String>,
}

/// The function a routine argument names directly: `f`, `&f`, `(T) f`.
fn named(e: &Expression) -> Option<&str> {
    match e {
        Expression::Identifier(i) => Some(&i.node.name),
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            named(&u.node.operand.node)
        }
        Expression::Cast(c) => named(&c.node.expression.node),
        _ => None,
    }
}

impl VisitorMut for OnceCalls<'_> {
    type Error = Error;
    const UNEVALUATED: bool = false;

    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk, Error> {
        let Statement::Expression(Some(e)) = &s.node else {
            return Ok(Walk::Descend);
        };
        let Some((lv, c)) = super::call_statement(e) else {
            return Ok(Walk::Skip);
        };
        let once = callee_name(&c.node) == Some("pthread_once")
            && !self.defined.contains("pthread_once")
            && c.node.arguments.len() == 2;
        if !once || named(&c.node.arguments[1].node).is_some_and(|f| self.defined.contains(f)) {
            return Ok(Walk::Skip);
        }
        let (span, cspan) = (s.span, c.span);
        let (control, routine) = (c.node.arguments[0].clone(), c.node.arguments[1].clone());
        let t = self.names.temp();
        let run = block_of(
            vec![
                expr_stmt(call_expr(deref(routine, cspan), vec![], cspan)),
                expr_stmt(call(
                    &abi::model_function("pthread_once_done"),
                    vec![control.clone()],
                    cspan,
                )),
            ],
            cspan,
        );
        let mut items = vec![
            decl_item(simple_decl(
                &[TypeSpecifier::Int],
                &t,
                None,
                false,
                None,
                span,
            )),
            item(expr_stmt(assign(
                ident(&t, span),
                call(&abi::model_function("pthread_once"), vec![control], cspan),
                span,
            ))),
            item(if_stmt(ident(&t, span), run, None, span)),
        ];
        if let Some(lv) = lv {
            items.push(item(expr_stmt(assign(lv, int(0, span), span))));
        }
        *s = block(items, span);
        Ok(Walk::Skip)
    }
}

/// Rewrites the `pthread_once` calls through a pointer of a normalised body (module doc).
pub(super) fn through_pointers(
    body: &mut Node<Statement>,
    names: &mut Names,
    defined: &HashSet<String>,
) -> Result<(), Error> {
    if !ladr_c::syntax::walk::mentions(body, &["pthread_once"]) {
        return Ok(());
    }
    visit_mut::stmt(&mut OnceCalls { names, defined }, body)
}
