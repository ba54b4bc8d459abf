//! C11 `<threads.h>` calls → their POSIX counterparts, after a body is in normal form (so
//! each call is a whole statement `[lv =] f(args);` and the temporaries of `normalise` are
//! typed by the C11 call, which the header declares). The later passes know POSIX threads
//! only; the names are `ladr_ir::abi::C11_THREADS`.
//!
//! * same arguments: `thrd_detach`, `thrd_current`, `thrd_equal`, `thrd_yield`, `mtx_lock`,
//!   `mtx_unlock`, `mtx_destroy`, `cnd_signal`, `cnd_broadcast`, `cnd_wait`, `cnd_destroy`,
//!   `call_once`, `tss_create`, `tss_get`, `tss_delete`: the results agree (0 is
//!   `thrd_success`);
//! * `thrd_create(t, f, a)` → `pthread_create(t, 0, f, a)`: the start routine returns `int`,
//!   which `threads` stores as the exit value (`(void *)(e)`);
//! * `thrd_exit(r)` → `pthread_exit((void *)(long)(r))`;
//! * `thrd_join(t, &x)` → `pthread_join(t, &x)` (`threads` stores the exit value converted
//!   to `x`'s type); `thrd_join(t, p)` → `{ void *v; lv = pthread_join(t, &v);
//!   if (p) *p = (int)(long)v; }`, the `int` stored by the joining thread;
//! * `cnd_init(c)` → `pthread_cond_init(c, 0)`;
//! * `mtx_init(m, type)` → `{ int a; a = (type & mtx_recursive) != 0; lv =
//!   pthread_mutex_init(m, &a); }` (the model reads the first int of an attribute object as
//!   the mutex type, 1 recursive; plain and timed mutexes are normal ones);
//! * results that differ: `mtx_trylock` (`thrd_busy`), `mtx_timedlock` and `cnd_timedwait`
//!   (`thrd_timedout`), `tss_set` (`thrd_error`) → `{ int r; r = pthread_…(…); lv = r ?
//!   thrd_… : thrd_success; }`.
//!
//! The result constants are the header's enumerators when the program declares them, else
//! glibc's values. A function the program defines itself keeps its calls.

use ladr_c::diag::Error;
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::names::Names;
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashSet;

/// Maps the C11 thread calls of one normalised body (module doc).
pub(super) struct C11Calls<'a> {
    pub(super) names: &'a mut Names,
    /// Functions the program defines (their calls stay).
    pub(super) defined: &'a HashSet<String>,
    /// Enumerators the program declares (`thrd_busy`, …).
    pub(super) enumerators: &'a HashSet<String>,
}

impl C11Calls<'_> {
    /// The header's constant `c` (its enumerator when declared, else its value).
    fn constant(&self, c: (&str, u64), span: Span) -> Node<Expression> {
        if self.enumerators.contains(c.0) {
            ident(c.0, span)
        } else {
            int(c.1, span)
        }
    }

    /// `{ int r; r = call; lv = r ? failure : thrd_success; }`, or `call;` without `lv`.
    fn with_result(
        &mut self,
        lv: Option<Node<Expression>>,
        call: Node<Expression>,
        failure: (&str, u64),
        span: Span,
    ) -> Node<Statement> {
        let Some(lv) = lv else {
            return expr_stmt(call);
        };
        let r = self.names.temp();
        let value = cond(
            ident(&r, span),
            self.constant(failure, span),
            self.constant(abi::THRD_SUCCESS, span),
            span,
        );
        block(
            vec![
                decl_item(simple_decl(
                    &[TypeSpecifier::Int],
                    &r,
                    None,
                    false,
                    None,
                    span,
                )),
                item(expr_stmt(assign(ident(&r, span), call, span))),
                item(expr_stmt(assign(lv, value, span))),
            ],
            span,
        )
    }

    /// The statements for `[lv =] f(args);`, `f` a C11 thread function.
    fn map(
        &mut self,
        lv: Option<Node<Expression>>,
        f: &str,
        mut args: Vec<Node<Expression>>,
        cspan: Span,
        span: Span,
    ) -> Option<Node<Statement>> {
        let posix = abi::c11_counterpart(f)?;
        let with_lv = |e: Node<Expression>, lv: Option<Node<Expression>>| match lv {
            Some(l) => expr_stmt(assign(l, e, span)),
            None => expr_stmt(e),
        };
        Some(match f {
            "thrd_create" if args.len() == 3 => {
                args.insert(1, int(0, cspan));
                with_lv(call(posix, args, cspan), lv)
            }
            "thrd_exit" if args.len() == 1 => {
                let r = args.pop()?;
                let long = cast(type_name(&[TypeSpecifier::Long], 0, cspan), r, cspan);
                let v = cast(type_name(&[TypeSpecifier::Void], 1, cspan), long, cspan);
                with_lv(call(posix, vec![v], cspan), lv)
            }
            "thrd_join" if args.len() == 2 => self.join(lv, args, cspan, span),
            "cnd_init" if args.len() == 1 => {
                args.push(int(0, cspan));
                with_lv(call(posix, args, cspan), lv)
            }
            "mtx_init" if args.len() == 2 => self.mutex_init(lv, args, cspan, span),
            "mtx_trylock" => self.with_result(lv, call(posix, args, cspan), abi::THRD_BUSY, span),
            "mtx_timedlock" | "cnd_timedwait" => {
                self.with_result(lv, call(posix, args, cspan), abi::THRD_TIMEDOUT, span)
            }
            "tss_set" => self.with_result(lv, call(posix, args, cspan), abi::THRD_ERROR, span),
            "thrd_create" | "thrd_exit" | "thrd_join" | "cnd_init" | "mtx_init" => return None,
            _ => with_lv(call(posix, args, cspan), lv),
        })
    }

    /// `thrd_join(t, res)` (module doc).
    fn join(
        &mut self,
        lv: Option<Node<Expression>>,
        mut args: Vec<Node<Expression>>,
        cspan: Span,
        span: Span,
    ) -> Node<Statement> {
        let res = args.pop().expect("two arguments");
        let posix = "pthread_join";
        let direct = constant::is_null_pointer_constant(&res.node)
            || matches!(&res.node, Expression::UnaryOperator(u)
                if u.node.operator.node == UnaryOperator::Address);
        let with_lv = |e: Node<Expression>| match lv.clone() {
            Some(l) => expr_stmt(assign(l, e, span)),
            None => expr_stmt(e),
        };
        if direct {
            args.push(res);
            return with_lv(call(posix, args, cspan));
        }
        let v = self.names.temp();
        args.push(addr(ident(&v, cspan), cspan));
        let long = cast(
            type_name(&[TypeSpecifier::Long], 0, cspan),
            ident(&v, cspan),
            cspan,
        );
        let value = cast(type_name(&[TypeSpecifier::Int], 0, cspan), long, cspan);
        let store = expr_stmt(assign(deref(res.clone(), cspan), value, cspan));
        block(
            vec![
                decl_item(declaration(
                    vec![spec(TypeSpecifier::Void, span)],
                    &v,
                    vec![node(DerivedDeclarator::Pointer(vec![]), span)],
                    None,
                    span,
                )),
                item(with_lv(call(posix, args, cspan))),
                item(if_stmt(res, store, None, span)),
            ],
            span,
        )
    }

    /// `mtx_init(m, type)` (module doc).
    fn mutex_init(
        &mut self,
        lv: Option<Node<Expression>>,
        mut args: Vec<Node<Expression>>,
        cspan: Span,
        span: Span,
    ) -> Node<Statement> {
        let kind = args.pop().expect("two arguments");
        let a = self.names.temp();
        let recursive = binop(
            BinaryOperator::NotEquals,
            binop(
                BinaryOperator::BitwiseAnd,
                kind,
                self.constant(abi::MTX_RECURSIVE, cspan),
                cspan,
            ),
            int(0, cspan),
            cspan,
        );
        args.push(addr(ident(&a, cspan), cspan));
        let init = call("pthread_mutex_init", args, cspan);
        block(
            vec![
                decl_item(simple_decl(
                    &[TypeSpecifier::Int],
                    &a,
                    None,
                    false,
                    None,
                    span,
                )),
                item(expr_stmt(assign(ident(&a, span), recursive, span))),
                item(match lv {
                    Some(l) => expr_stmt(assign(l, init, span)),
                    None => expr_stmt(init),
                }),
            ],
            span,
        )
    }
}

impl VisitorMut for C11Calls<'_> {
    type Error = Error;
    const UNEVALUATED: bool = false;

    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk, Error> {
        let Statement::Expression(Some(e)) = &s.node else {
            return Ok(Walk::Descend);
        };
        let Some((lv, c)) = super::call_statement(e) else {
            return Ok(Walk::Skip);
        };
        let Some(f) = callee_name(&c.node).filter(|f| !self.defined.contains(*f)) else {
            return Ok(Walk::Skip);
        };
        let f = f.to_string();
        let (args, cspan) = (c.node.arguments.clone(), c.span);
        if let Some(out) = self.map(lv, &f, args, cspan, s.span) {
            *s = out;
        }
        Ok(Walk::Skip)
    }
}

/// Maps the C11 thread calls of a normalised body (module doc).
pub(super) fn map_calls(
    body: &mut Node<Statement>,
    names: &mut Names,
    defined: &HashSet<String>,
    enumerators: &HashSet<String>,
) -> Result<(), Error> {
    let mut m = C11Calls {
        names,
        defined,
        enumerators,
    };
    visit_mut::stmt(&mut m, body)?;
    Ok(())
}
