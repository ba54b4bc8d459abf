//! Variadic callees: the promoted types of the variable arguments and the lowering of the
//! `va_*` operations onto the call's arguments ([`LowerVa`]).

use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use ladr_c::syntax::query;
use ladr_c::syntax::walk::visit_mut::VisitorMut;
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// An expression of the type `a` has after the default argument promotions (C11
/// 6.5.2.2p6), for `__typeof__`: `float` becomes `double`, `_Bool`, `char` and `short`
/// (signed or not) become `int`, arrays and functions decay (`1 ? a : a`). The
/// conditional alone is not enough: CBMC 6.6 gives `1 ? c : c` the type `char` and keeps
/// `float`, so the types are named with `_Generic` (which both gcc and CBMC read).
pub(super) fn promoted(a: &Node<Expression>) -> Node<Expression> {
    let span = a.span;
    let decayed = || cond(int(1, span), a.clone(), a.clone(), span);
    let to_int = [
        vec![TypeSpecifier::Bool],
        vec![TypeSpecifier::Char],
        vec![TypeSpecifier::Signed, TypeSpecifier::Char],
        vec![TypeSpecifier::Unsigned, TypeSpecifier::Char],
        vec![TypeSpecifier::Short],
        vec![TypeSpecifier::Unsigned, TypeSpecifier::Short],
    ];
    let double = type_name(&[TypeSpecifier::Double], 0, span);
    let mut types = vec![(
        type_name(&[TypeSpecifier::Float], 0, span),
        cast(double, int(0, span), span),
    )];
    types.extend(to_int.iter().map(|t| (type_name(t, 0, span), int(0, span))));
    generic(decayed(), types, decayed(), span)
}

/// The `va_*` operations of an inlined variadic function on the call's variable arguments
/// (the locals `args`, in order): each `va_list` `ap` it starts gets an index local (the
/// next argument's position), `va_start(ap, x)` → `i = 0`, `va_copy(d, s)` → `i_d = i_s`,
/// `va_end(ap)` → nothing, and `t = va_arg(ap, T)` (the form `normalise` leaves) →
/// `if (i == 0) t = *(__typeof__(t) *)&v0; else if (i == 1) …; i = i + 1;`. The `va_list`
/// objects themselves stay (never started): CBMC's `vfprintf`, `vsnprintf`, … do not read
/// through them. A `va_arg` of a list the function did not start is unsupported.
pub(super) struct LowerVa<'a> {
    pub(super) names: &'a mut Names,
    pub(super) args: &'a [String],
    /// `va_list` variable → its index local.
    pub(super) lists: HashMap<String, String>,
}

impl LowerVa<'_> {
    fn index(&mut self, list: &Node<Expression>, what: &str) -> Result<String> {
        let Some(n) = ident_name(list) else {
            return Err(Error::unsupported(
                list.span,
                format!("`{what}` of a `va_list` that is not a variable"),
            ));
        };
        if let Some(i) = self.lists.get(n) {
            return Ok(i.clone());
        }
        if what != "va_start" && what != "va_copy" {
            return Err(Error::unsupported(
                list.span,
                format!("`{what}` of a `va_list` this function did not start with `va_start`"),
            ));
        }
        let i = self.names.local("va_index");
        self.lists.insert(n.to_string(), i.clone());
        Ok(i)
    }
}

impl VisitorMut for LowerVa<'_> {
    type Error = Error;
    /// `__typeof__(va_arg(ap, T))` (a temporary's type) reads nothing.
    const UNEVALUATED: bool = false;
    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk> {
        let span = s.span;
        let Statement::Expression(Some(e)) = &s.node else {
            return Ok(Walk::Descend);
        };
        let new = match &e.node {
            Expression::Call(c) => {
                let args = &c.node.arguments;
                match callee_name(&c.node) {
                    Some(abi::VA_START) if !args.is_empty() => {
                        let i = self.index(&args[0], "va_start")?;
                        expr_stmt(assign(ident(&i, span), int(0, span), span))
                    }
                    Some(abi::VA_END) if !args.is_empty() => {
                        self.index(&args[0], "va_end")?;
                        empty_stmt(span)
                    }
                    Some(abi::VA_COPY) if args.len() == 2 => {
                        let from = self.index(&args[1], "va_copy")?;
                        let to = self.index(&args[0], "va_copy")?;
                        expr_stmt(assign(ident(&to, span), ident(&from, span), span))
                    }
                    _ => return Ok(Walk::Descend),
                }
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
                let Expression::VaArg(v) = &b.node.rhs.node else {
                    return Ok(Walk::Descend);
                };
                let i = self.index(&v.node.va_list, "va_arg")?;
                let lhs: &Node<Expression> = &b.node.lhs;
                let ptr = type_name(&[typeof_expr(lhs.clone(), span)], 1, span);
                let mut chain: Option<Node<Statement>> = None;
                for (k, a) in self.args.iter().enumerate().rev() {
                    let read = deref(cast(ptr.clone(), addr(ident(a, span), span), span), span);
                    let then = expr_stmt(assign(lhs.clone(), read, span));
                    let test = eq(ident(&i, span), int(k as u64, span), span);
                    chain = Some(if_stmt(test, then, chain, span));
                }
                let step = expr_stmt(assign(
                    ident(&i, span),
                    binop(BinaryOperator::Plus, ident(&i, span), int(1, span), span),
                    span,
                ));
                block_of(chain.into_iter().chain([step]).collect(), span)
            }
            _ => return Ok(Walk::Descend),
        };
        *s = new;
        Ok(Walk::Skip)
    }
    fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk> {
        if let Expression::VaArg(_) = e.node {
            return Err(Error::unsupported(
                e.span,
                "`va_arg` outside `t = va_arg(ap, T)`",
            ));
        }
        Ok(Walk::Descend)
    }
}

/// True if a function body applies `va_arg` (to a `va_list` it was passed).
pub(super) fn mentions_va_arg(body: &Node<Statement>) -> bool {
    query::any_expr(body, query::Operands::Evaluated, |e| {
        matches!(e.node, Expression::VaArg(_))
    })
}

/// True if a function body uses its variable arguments (`va_start` and friends).
pub(super) fn mentions_va(body: &Node<Statement>) -> bool {
    query::any_expr(body, query::Operands::All, |e| match &e.node {
        Expression::Identifier(i) => i.node.name.contains("va_"),
        Expression::VaArg(_) => true,
        _ => false,
    })
}
