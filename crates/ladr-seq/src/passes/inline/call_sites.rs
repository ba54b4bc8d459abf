//! The inliner's walk over the call sites ([`Inliner`]): a direct call becomes a copy of the
//! callee's body (or a recursion cut at depth U), a call through a function pointer an
//! if-chain over the candidates, within a budget of copied statements.

use super::functions::{is_atomic_function, peel_deref, FnInfo};
use crate::normal_form::is_atomic_section;
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use ladr_c::syntax::query;
use ladr_ir::abi;
use ladr_ir::program::{Cut, CutKind};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

pub(super) struct Inliner<'a> {
    pub(super) names: &'a mut Names,
    pub(super) cuts: &'a mut Vec<Cut>,
    pub(super) info: &'a FnInfo,
    pub(super) unwind: usize,
    /// Statements left to copy before the program counts as too large.
    pub(super) budget: usize,
}

/// At most this many statements are copied by inlining (a bounded program larger than this
/// would not be checkable anyway); beyond it, an error names the call.
pub const INLINE_BUDGET: usize = 200_000;

/// Where the value of a call goes: `lv = [(T)] f(..)`.
pub(super) struct Dest {
    lv: Node<Expression>,
    cast: Option<Node<TypeName>>,
}

impl Inliner<'_> {
    pub(super) fn stmt(
        &mut self,
        s: &mut Node<Statement>,
        stack: &mut Vec<String>,
        atomic: bool,
    ) -> Result<()> {
        match &mut s.node {
            Statement::Compound(items) => {
                let section = is_atomic_section(items);
                if section && atomic {
                    // A section inside a section (an atomic function's own
                    // begin/end inlined into an atomic context) is just its body.
                    items.pop();
                    items.remove(0);
                }
                for it in items {
                    if let BlockItem::Statement(st) = &mut it.node {
                        self.stmt(st, stack, atomic || section)?;
                    }
                }
            }
            Statement::If(i) => {
                self.stmt(&mut i.node.then_statement, stack, atomic)?;
                if let Some(e) = &mut i.node.else_statement {
                    self.stmt(e, stack, atomic)?;
                }
            }
            Statement::While(w) => self.stmt(&mut w.node.statement, stack, atomic)?,
            Statement::DoWhile(w) => self.stmt(&mut w.node.statement, stack, atomic)?,
            Statement::For(w) => self.stmt(&mut w.node.statement, stack, atomic)?,
            Statement::Switch(w) => self.stmt(&mut w.node.statement, stack, atomic)?,
            Statement::Labeled(l) => self.stmt(&mut l.node.statement, stack, atomic)?,
            Statement::Expression(Some(e)) => {
                if let Some((call, dest)) = split_call(e) {
                    if let Some(new) = self.call(call, dest, s.span, stack, atomic)? {
                        *s = new;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The replacement of a call statement, or None to keep it.
    fn call(
        &mut self,
        c: CallExpression,
        dest: Option<Dest>,
        span: Span,
        stack: &mut Vec<String>,
        atomic: bool,
    ) -> Result<Option<Node<Statement>>> {
        if let Some(name) = peel_deref(&c.callee) {
            // Generated names are variables (temporaries), but for the pthread model's
            // functions that `normalise` already calls (`pthread_once` through a pointer).
            let is_var = self.info.vars.contains(name)
                || (ladr_c::syntax::names::is_generated(name)
                    && !abi::is_model_pthread_function(name));
            if !is_var && !self.info.arity.contains_key(name) && !self.info.defs.contains_key(name)
            {
                return Ok(None); // an undeclared builtin
            }
            if !is_var {
                if name == "main" && self.info.defs.contains_key(name) {
                    return Err(Error::unsupported(span, "call of `main`"));
                }
                if !self.info.inlinable(name) {
                    return Ok(None);
                }
                let name = name.to_string();
                return self
                    .direct(&name, &c.arguments, dest.as_ref(), span, stack, atomic)
                    .map(Some);
            }
        }
        self.indirect(c, dest, span, stack, atomic).map(Some)
    }

    /// A call through a function pointer: an if-chain over the candidates.
    fn indirect(
        &mut self,
        c: CallExpression,
        dest: Option<Dest>,
        span: Span,
        stack: &mut Vec<String>,
        atomic: bool,
    ) -> Result<Node<Statement>> {
        let n = c.arguments.len();
        let cands: Vec<String> = self
            .info
            .taken
            .iter()
            // Only a function whose address the program may store can be reached by a
            // pointer.
            .filter(|f| self.info.escaping.contains(*f))
            .filter(|f| {
                self.info
                    .arity
                    .get(*f)
                    .is_some_and(|&(k, var)| k == n || (var && n >= k))
            })
            // A void function cannot be the target when the value is used.
            .filter(|f| dest.is_none() || !self.info.void_fns.contains(*f))
            // Nor a function of an incompatible type.
            .filter(|f| self.info.types.may_reach(&c.callee, f))
            .cloned()
            .collect();
        if cands.is_empty() {
            // No function of the program can be the target (e.g. a field of an extern
            // struct never assigned in the program): the callee is outside the program,
            // like any function without a body. The pointer and the arguments are
            // evaluated; a used result is a fresh nondeterministic value.
            let mut items = vec![item(expr_stmt((*c.callee).clone()))];
            for a in &c.arguments {
                items.push(item(expr_stmt(a.clone())));
            }
            if let Some(d) = &dest {
                let t = self.names.temp();
                let call = call_expr((*c.callee).clone(), c.arguments.clone(), span);
                items.push(decl_item(typeof_decl(&t, call, false, span)));
                items.push(item(expr_stmt(ladr_c::syntax::build::call(
                    abi::HAVOC,
                    vec![addr(ident(&t, span), span)],
                    span,
                ))));
                items.push(item(expr_stmt(with_dest(ident(&t, span), Some(d), span))));
            }
            return Ok(block(items, span));
        }
        // The pointer, evaluated once.
        let mut ptr = (*c.callee).clone();
        while let Expression::UnaryOperator(u) = &ptr.node {
            if matches!(u.node.operator.node, UnaryOperator::Indirection) {
                ptr = (*u.node.operand).clone();
            } else {
                break;
            }
        }
        let mut pre = vec![];
        if !matches!(ptr.node, Expression::Identifier(_)) {
            let t = self.names.temp();
            pre.push(decl_item(typeof_decl(&t, ptr.clone(), false, span)));
            pre.push(item(expr_stmt(assign(ident(&t, span), ptr, span))));
            ptr = ident(&t, span);
        }
        let mut branches = vec![];
        for f in &cands {
            let b = if stack.iter().filter(|g| *g == f).count() >= self.unwind {
                // The pointer may reach a function already running (a start routine whose
                // address is taken): a cut of its own kind, not "recursion", since the
                // program need not recurse.
                self.cuts.push(Cut {
                    kind: CutKind::FunctionPointer,
                    span,
                });
                assume(int(0, span), span)
            } else if self.info.inlinable(f) {
                self.direct(f, &c.arguments, dest.as_ref(), span, stack, atomic)?
            } else {
                let call = call(f, c.arguments.clone(), span);
                expr_stmt(with_dest(call, dest.as_ref(), span))
            };
            branches.push(b);
        }
        let mut chain = assume(int(0, span), span);
        for (f, b) in cands.iter().zip(branches).rev() {
            let voidp = || type_name(&[TypeSpecifier::Void], 1, span);
            let test = eq(
                cast(voidp(), ptr.clone(), span),
                cast(voidp(), ident(f, span), span),
                span,
            );
            chain = if_stmt(test, b, Some(chain), span);
        }
        if pre.is_empty() {
            Ok(chain)
        } else {
            pre.push(item(chain));
            Ok(block(pre, span))
        }
    }

    /// The inlined body of `name` for one call (or a recursion cut).
    fn direct(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        dest: Option<&Dest>,
        span: Span,
        stack: &mut Vec<String>,
        atomic: bool,
    ) -> Result<Node<Statement>> {
        if stack.iter().filter(|f| *f == name).count() >= self.unwind {
            self.cuts.push(Cut {
                kind: CutKind::Recursion,
                span,
            });
            return Ok(assume(int(0, span), span));
        }
        let def = self.info.defs[name].clone();
        let is_atomic = is_atomic_function(name);
        // An atomic function called outside an atomic section gets its own section.
        let mut s = self.copy_body(name, &def, args, dest, span, is_atomic && !atomic)?;
        let size = statement_count(&s);
        if size > self.budget {
            return Err(Error::unsupported(
                span,
                format!(
                    "inlining `{name}` here makes the bounded program larger than {INLINE_BUDGET} statements"
                ),
            ));
        }
        self.budget -= size;
        stack.push(name.to_string());
        // The section, if any, makes its body atomic.
        let r = self.stmt(&mut s, stack, atomic);
        stack.pop();
        r?;
        Ok(s)
    }
}

pub(super) fn with_dest(
    value: Node<Expression>,
    dest: Option<&Dest>,
    span: Span,
) -> Node<Expression> {
    match dest {
        None => value,
        Some(d) => {
            let v = match &d.cast {
                Some(t) => cast(t.clone(), value, span),
                None => value,
            };
            assign(d.lv.clone(), v, span)
        }
    }
}

/// `f(a..)`, `(T) f(a..)`, `lv = f(a..)`, `lv = (T) f(a..)`.
fn split_call(e: &Node<Expression>) -> Option<(CallExpression, Option<Dest>)> {
    fn peel(e: &Node<Expression>) -> Option<(CallExpression, Option<Node<TypeName>>)> {
        match &e.node {
            Expression::Call(c) => Some((c.node.clone(), None)),
            Expression::Cast(c) => match &c.node.expression.node {
                Expression::Call(call) => Some((call.node.clone(), Some(c.node.type_name.clone()))),
                _ => None,
            },
            _ => None,
        }
    }
    match &e.node {
        Expression::BinaryOperator(b) if matches!(b.node.operator.node, BinaryOperator::Assign) => {
            let (c, cast) = peel(&b.node.rhs)?;
            Some((
                c,
                Some(Dest {
                    lv: (*b.node.lhs).clone(),
                    cast,
                }),
            ))
        }
        _ => peel(e).map(|(c, _)| (c, None)),
    }
}

/// Number of statements in `s` (all levels).
fn statement_count(s: &Node<Statement>) -> usize {
    // Statements inside expressions (`({ … })`) are not counted.
    query::count_stmts(s, query::InExpressions::Skip)
}
