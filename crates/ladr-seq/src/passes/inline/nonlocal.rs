//! `setjmp`/`longjmp` (and `sigsetjmp`/`siglongjmp`, glibc's `_setjmp`, `__sigsetjmp`,
//! `_longjmp`, `__longjmp_chk`) as jumps within one body, once every call is inlined: a
//! `longjmp` in a helper is then in the body of the `setjmp` that it returns to.
//!
//! ```text
//! r = setjmp(env);            →   *(int *)(env) = 1; __ladr_t1 = 0;  __ladr_setjmp2: r = __ladr_t1;
//! longjmp(env, v);            →   if (*(int *)(env) == 1) { __ladr_t1 = v ? v : 1; goto __ladr_setjmp2; } …
//! ```
//!
//! Site `i` of the body (numbered from 1) stores `i` in the first int of the buffer, as
//! `setjmp` writes the buffer (a write of the calling thread); a `longjmp` reads it and
//! jumps to the site it names, with the value `v` (1 when `v` is 0). With one site in the
//! body the jump is direct; with several the last is the one left (a buffer set by no site
//! of this body is undefined behaviour). The jumps may go backwards: `unwind` unwinds them
//! as loops, a cut past the bound. Locals keep their values (C leaves the non-`volatile`
//! ones changed since `setjmp` indeterminate; keeping them is one of the allowed outcomes).
//!
//! A `longjmp` in a body without a `setjmp` (to a function that was not inlined into it: a
//! recursive or kept one, or another thread) is a located "unsupported" error.
//!
//! Cleanup handlers and cancellation use the same jumps ([`cancel`]).

use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

mod cancel;
use cancel::Cleanup;

/// The functions that save a jump buffer.
const SETJMP: &[&str] = &[
    "setjmp",
    "_setjmp",
    "sigsetjmp",
    "__sigsetjmp",
    "__sigsetjmp_cancel",
];

/// The functions that jump to a saved buffer.
const LONGJMP: &[&str] = &["longjmp", "_longjmp", "siglongjmp", "__longjmp_chk"];

/// One `setjmp` site of a body.
struct Site {
    /// The label the `longjmp`s go to.
    label: String,
    /// The variable that holds the value `setjmp` returns (when the result is used).
    value: Option<String>,
}

/// A call statement taken apart: the lvalue its result goes to, the arguments, the call's
/// span.
type CallParts<'s> = (Option<&'s Node<Expression>>, &'s [Node<Expression>], Span);

/// `[lv =] f(args);` with `f` one of `names`: (lv, args, call span).
fn call_of<'s>(s: &'s Statement, names: &[&str]) -> Option<CallParts<'s>> {
    let Statement::Expression(Some(e)) = s else {
        return None;
    };
    let (lv, c) = match &e.node {
        Expression::Call(c) => (None, c),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
            match &b.node.rhs.node {
                Expression::Call(c) => (Some(&*b.node.lhs), c),
                _ => return None,
            }
        }
        _ => return None,
    };
    let f = callee_name(&c.node)?;
    names
        .contains(&f)
        .then_some((lv, c.node.arguments.as_slice(), c.span))
}

/// `*(int *)(env)`: the buffer's first int, the number of the site that saved it.
fn saved_site(env: &Node<Expression>, span: Span) -> Node<Expression> {
    deref(
        cast(type_name(&[TypeSpecifier::Int], 1, span), env.clone(), span),
        span,
    )
}

/// Rewrites the `setjmp` sites of a body (first walk) and then its `longjmp`s.
struct Jumps<'a> {
    names: &'a mut Names,
    sites: Vec<Site>,
    /// The second walk: `longjmp`s, with every site known.
    jumps: bool,
    /// Cancellation is modelled: the program calls `pthread_cancel`.
    cancel: bool,
    /// The body registers cleanup handlers.
    handlers: bool,
    /// The body's cleanup handlers ([`cancel`]), once one is registered or the thread may be
    /// cancelled.
    cleanup: Option<Cleanup>,
}

impl Jumps<'_> {
    /// `*(int *)(env) = i; v = 0; L: lv = v;`
    fn site(
        &mut self,
        lv: Option<&Node<Expression>>,
        env: &Node<Expression>,
        span: Span,
    ) -> Node<Statement> {
        let label = self.names.label("setjmp");
        let value = lv.map(|_| self.names.temp());
        let n = self.sites.len() as u64 + 1;
        let mut stmts = vec![expr_stmt(assign(saved_site(env, span), int(n, span), span))];
        let at_label = match (lv, &value) {
            (Some(lv), Some(v)) => {
                stmts.push(expr_stmt(assign(ident(v, span), int(0, span), span)));
                expr_stmt(assign(lv.clone(), ident(v, span), span))
            }
            _ => empty_stmt(span),
        };
        stmts.push(labeled(&label, at_label, span));
        self.sites.push(Site { label, value });
        block_of(stmts, span)
    }

    /// The jump of `longjmp(env, v)` to the site the buffer names.
    fn jump(&self, args: &[Node<Expression>], span: Span) -> Result<Node<Statement>> {
        let (Some(env), Some(v)) = (args.first(), args.get(1)) else {
            return Err(Error::unsupported(span, "`longjmp` with too few arguments"));
        };
        self.dispatch(&saved_site(env, span), v, span)
    }

    /// The jump to the site numbered `site` with the value `v` (1 when 0).
    fn dispatch(
        &self,
        number: &Node<Expression>,
        v: &Node<Expression>,
        span: Span,
    ) -> Result<Node<Statement>> {
        if self.sites.is_empty() {
            return Err(Error::unsupported(
                span,
                "a `longjmp` to a `setjmp` outside the function it runs in (after inlining)",
            )
            .note(
                "ladr follows a `longjmp` to a `setjmp` of the same thread once the calls \
                 between them are inlined; this one returns into a recursive or kept \
                 function, or another thread",
            ));
        }
        let go = |site: &Site| {
            let mut stmts = vec![];
            if let Some(value) = &site.value {
                let nonzero = cond(v.clone(), v.clone(), int(1, span), span);
                stmts.push(expr_stmt(assign(ident(value, span), nonzero, span)));
            }
            stmts.push(goto(&site.label, span));
            block_of(stmts, span)
        };
        let last = self.sites.len() - 1;
        let mut out = go(&self.sites[last]);
        for (i, site) in self.sites.iter().enumerate().take(last).rev() {
            let here = eq(number.clone(), int(i as u64 + 1, span), span);
            out = if_stmt(here, go(site), Some(out), span);
        }
        Ok(out)
    }
}

impl VisitorMut for Jumps<'_> {
    type Error = Error;
    const UNEVALUATED: bool = false;

    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk> {
        let span = s.span;
        if !self.jumps {
            if let Some((lv, args, cspan)) = call_of(&s.node, SETJMP) {
                let Some(env) = args.first() else {
                    return Err(Error::unsupported(cspan, "`setjmp` without a buffer"));
                };
                let (lv, env) = (lv.cloned(), env.clone());
                *s = self.site(lv.as_ref(), &env, span);
                return Ok(Walk::Skip);
            }
        } else if let Some((_, args, cspan)) = call_of(&s.node, LONGJMP) {
            *s = self.jump(args, cspan)?;
            return Ok(Walk::Skip);
        } else if let Some(out) = self.cancellation(s)? {
            *s = out;
            return Ok(Walk::Skip);
        }
        Ok(Walk::Descend)
    }

    fn type_name(&mut self, _t: &mut Node<TypeName>) -> Result<Walk> {
        Ok(Walk::Skip)
    }
}

/// Resolves the `setjmp`/`longjmp` pairs of one inlined body (module doc), its cleanup
/// handlers and, when the program calls `pthread_cancel` (`cancel`), its cancellation points
/// ([`cancel`]). The sites' value variables and the handlers' are declared first in the
/// body.
pub(super) fn resolve(body: &mut Node<Statement>, names: &mut Names, cancel: bool) -> Result<()> {
    let jumps = [SETJMP, LONGJMP, cancel::CLEANUP];
    if !cancel
        && !jumps
            .iter()
            .any(|f| ladr_c::syntax::walk::mentions(body, f))
    {
        return Ok(());
    }
    let mut j = Jumps {
        names,
        sites: vec![],
        jumps: false,
        cancel,
        handlers: ladr_c::syntax::walk::mentions(body, cancel::REGISTER),
        cleanup: None,
    };
    visit_mut::stmt(&mut j, body)?;
    j.jumps = true;
    visit_mut::stmt(&mut j, body)?;
    let span = body.span;
    let mut decls: Vec<Node<BlockItem>> = j
        .sites
        .iter()
        .filter_map(|s| s.value.as_ref())
        .map(|v| {
            decl_item(simple_decl(
                &[TypeSpecifier::Int],
                v,
                None,
                false,
                None,
                span,
            ))
        })
        .collect();
    if let Some(c) = &j.cleanup {
        decls.extend(c.declarations(span));
    }
    if !decls.is_empty() {
        let old = std::mem::replace(body, empty_stmt(span));
        let mut items = decls;
        items.push(item(old));
        *body = block(items, span);
    }
    Ok(())
}
