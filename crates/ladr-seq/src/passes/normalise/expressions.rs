//! Expressions: the side effects hoisted out into statements before them ([`Normaliser::effect`]
//! for an expression evaluated for its effects, [`Normaliser::value`] for one whose value is
//! used), calls with the SV-COMP functions mapped, temporaries `__typeof__(e) __ladr_tN;`.

use super::{as_stmt, stmt_item, temp_decl, Items, Normaliser};
use crate::normal_form::ERROR_FUNCTIONS;
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::{has_side_effect, is_assign_op, is_inc_dec};
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

fn void_type(span: Span) -> Node<TypeName> {
    type_name(&[TypeSpecifier::Void], 0, span)
}

fn is_void_cast(t: &TypeName) -> bool {
    t.declarator.is_none()
        && t.specifiers.len() == 1
        && matches!(&t.specifiers[0].node, SpecifierQualifier::TypeSpecifier(s) if s.node == TypeSpecifier::Void)
}

fn is_const_expr(e: &Expression) -> bool {
    matches!(e, Expression::Constant(_) | Expression::StringLiteral(_))
        || matches!(e, Expression::Cast(c) if is_const_expr(&c.node.expression.node))
}

impl Normaliser<'_> {
    fn temp(&mut self) -> String {
        self.names.temp()
    }

    /// Evaluates `e` for its effects only, as statements appended to `pre`. `keep_pure`: keep
    /// a side-effect-free expression as a statement (its reads may matter for races).
    pub(super) fn effect(
        &mut self,
        e: Node<Expression>,
        pre: &mut Items,
        keep_pure: bool,
    ) -> Result<()> {
        let span = e.span;
        if !has_side_effect(&e.node) {
            if keep_pure && !is_const_expr(&e.node) {
                pre.push(stmt_item(expr_stmt(e)));
            }
            return Ok(());
        }
        match e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                let b = b.node;
                let lhs = self.value(*b.lhs, pre)?;
                let rhs =
                    self.call_or_value(*b.rhs, pre, b.operator.node == BinaryOperator::Assign)?;
                pre.push(stmt_item(expr_stmt(binop(b.operator.node, lhs, rhs, span))));
            }
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                ) =>
            {
                let b = b.node;
                let a = self.value(*b.lhs, pre)?;
                let mut then = vec![];
                self.effect(*b.rhs, &mut then, true)?;
                let c = if b.operator.node == BinaryOperator::LogicalAnd {
                    a
                } else {
                    not(a, span)
                };
                if then.is_empty() {
                    pre.push(stmt_item(expr_stmt(c)));
                } else {
                    pre.push(stmt_item(if_stmt(c, block(then, span), None, span)));
                }
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                let u = u.node;
                let lv = self.value(*u.operand, pre)?;
                pre.push(stmt_item(expr_stmt(unop(u.operator.node, lv, span))));
            }
            Expression::Call(c) => {
                if let Some(e) = self.call(*c, pre, span)? {
                    pre.push(stmt_item(expr_stmt(e)));
                }
            }
            Expression::Comma(es) => {
                for x in *es {
                    self.effect(x, pre, true)?;
                }
            }
            Expression::Conditional(c) => {
                let c = c.node;
                let cv = self.value(*c.condition, pre)?;
                let mut t = vec![];
                self.effect(*c.then_expression, &mut t, true)?;
                let mut f = vec![];
                self.effect(*c.else_expression, &mut f, true)?;
                match (t.is_empty(), f.is_empty()) {
                    (true, true) => pre.push(stmt_item(expr_stmt(cv))),
                    (false, true) => pre.push(stmt_item(if_stmt(cv, block(t, span), None, span))),
                    (true, false) => pre.push(stmt_item(if_stmt(
                        not(cv, span),
                        block(f, span),
                        None,
                        span,
                    ))),
                    (false, false) => pre.push(stmt_item(if_stmt(
                        cv,
                        block(t, span),
                        Some(block(f, span)),
                        span,
                    ))),
                }
            }
            Expression::Cast(c) => self.effect(*c.node.expression, pre, false)?,
            Expression::Statement(s) => pre.extend(self.stmt(*s)?),
            other => {
                let v = self.value(node(other, span), pre)?;
                if keep_pure && !is_const_expr(&v.node) {
                    pre.push(stmt_item(expr_stmt(v)));
                }
            }
        }
        Ok(())
    }

    /// Like [`Self::value`], but a call on the right of a plain `=` stays there (`lv = f(a)`).
    fn call_or_value(
        &mut self,
        e: Node<Expression>,
        pre: &mut Items,
        allow_call: bool,
    ) -> Result<Node<Expression>> {
        let span = e.span;
        match e.node {
            Expression::Call(c) if allow_call && !is_special_call(&c.node) => {
                match self.call(*c, pre, span)? {
                    Some(e) => Ok(e),
                    None => Ok(int(0, span)),
                }
            }
            other => self.value(node(other, span), pre),
        }
    }

    /// A call with side-effect-free callee and arguments; SV-COMP functions mapped. `None`
    /// when the call became statements (error functions, assumptions).
    fn call(
        &mut self,
        c: Node<CallExpression>,
        pre: &mut Items,
        span: Span,
    ) -> Result<Option<Node<Expression>>> {
        let c = c.node;
        let name = callee_name(&c).map(str::to_string);
        match name.as_deref() {
            Some(n) if ERROR_FUNCTIONS.contains(&n) => {
                for a in c.arguments {
                    self.effect(a, pre, false)?;
                }
                pre.push(stmt_item(assume(int(0, span), span)));
                Ok(None)
            }
            Some(abi::VERIFIER_ASSUME | "assert" | abi::ASSUME) if c.arguments.len() == 1 => {
                let a = c.arguments.into_iter().next().unwrap();
                let v = self.value(a, pre)?;
                pre.push(stmt_item(assume(v, span)));
                Ok(None)
            }
            _ => {
                let callee = self.value(*c.callee, pre)?;
                let mut args = vec![];
                for a in c.arguments {
                    args.push(self.value(a, pre)?);
                }
                Ok(Some(call_expr(callee, args, span)))
            }
        }
    }

    /// Value of a `return` operand: a void call stays a statement.
    pub(super) fn value_or_void(
        &mut self,
        e: Node<Expression>,
        pre: &mut Items,
    ) -> Result<Option<Node<Expression>>> {
        if self.ret_void {
            self.effect(e, pre, false)?;
            return Ok(None);
        }
        Ok(Some(self.value(e, pre)?))
    }

    /// A side-effect-free expression with the value of `e`; the effects go to `pre`. One
    /// helper per family of expressions that needs more than a rebuild of its operands.
    pub(super) fn value(
        &mut self,
        e: Node<Expression>,
        pre: &mut Items,
    ) -> Result<Node<Expression>> {
        if !has_side_effect(&e.node) {
            return Ok(e);
        }
        let span = e.span;
        let orig = e.clone();
        Ok(match e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                self.assignment_value(b.node, span, pre)?
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                self.inc_dec_value(u.node, span, pre)?
            }
            Expression::Call(c) => self.call_value(*c, span, pre)?,
            Expression::Comma(es) => self.comma_value(*es, span, pre)?,
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                ) =>
            {
                self.logical_value(b.node, span, pre)?
            }
            Expression::Conditional(c) => self.conditional_value(c.node, &orig, span, pre)?,
            Expression::Statement(s) => self.statement_expression_value(*s, &orig, span, pre)?,
            Expression::Cast(c) => self.cast_value(c.node, span, pre)?,
            Expression::BinaryOperator(b) => {
                let b = b.node;
                let l = self.value(*b.lhs, pre)?;
                let r = self.value(*b.rhs, pre)?;
                binop(b.operator.node, l, r, span)
            }
            Expression::UnaryOperator(u) => {
                let u = u.node;
                let v = self.value(*u.operand, pre)?;
                unop(u.operator.node, v, span)
            }
            Expression::Member(m) => {
                let m = m.node;
                let v = self.value(*m.expression, pre)?;
                member(
                    v,
                    &m.identifier.node.name,
                    m.operator.node == MemberOperator::Indirect,
                    span,
                )
            }
            Expression::CompoundLiteral(c) => {
                let mut c = c.node;
                c.initializer_list = self.init_items(c.initializer_list, pre)?;
                node(Expression::CompoundLiteral(Box::new(node(c, span))), span)
            }
            // `va_arg` advances its list: a statement of its own, `t = va_arg(ap, T)`,
            // which `inline` rewrites into a read of the call's variable arguments.
            Expression::VaArg(_) => {
                let t = self.temp();
                pre.push(temp_decl(&t, &orig));
                pre.push(stmt_item(expr_stmt(assign(ident(&t, span), orig, span))));
                ident(&t, span)
            }
            Expression::GenericSelection(_) => {
                return Err(Error::unsupported(span, "side effects inside `_Generic`"))
            }
            Expression::OffsetOf(_) => {
                return Err(Error::unsupported(span, "side effects inside `offsetof`"))
            }
            Expression::Identifier(_)
            | Expression::Constant(_)
            | Expression::StringLiteral(_)
            | Expression::SizeOfTy(_)
            | Expression::SizeOfVal(_)
            | Expression::AlignOf(_) => orig,
        })
    }

    /// [`Self::value`] of `lhs = rhs` and `lhs op= rhs`: `t = rhs [op] ...; lhs = t;`, value `t`.
    fn assignment_value(
        &mut self,
        b: BinaryOperatorExpression,
        span: Span,
        pre: &mut Items,
    ) -> Result<Node<Expression>> {
        let lhs = self.value(*b.lhs, pre)?;
        let rhs = self.value(*b.rhs, pre)?;
        let t = self.temp();
        pre.push(temp_decl(&t, &lhs));
        let v = match compound_base(&b.operator.node) {
            None => rhs,
            Some(op) => binop(op, lhs.clone(), rhs, span),
        };
        pre.push(stmt_item(expr_stmt(assign(ident(&t, span), v, span))));
        pre.push(stmt_item(expr_stmt(assign(lhs, ident(&t, span), span))));
        Ok(ident(&t, span))
    }

    /// [`Self::value`] of `lv++`, `lv--`, `++lv`, `--lv`: through a temporary `t`.
    fn inc_dec_value(
        &mut self,
        u: UnaryOperatorExpression,
        span: Span,
        pre: &mut Items,
    ) -> Result<Node<Expression>> {
        let op = u.operator.node;
        let lv = self.value(*u.operand, pre)?;
        let t = self.temp();
        pre.push(temp_decl(&t, &lv));
        let delta = if matches!(
            op,
            UnaryOperator::PostIncrement | UnaryOperator::PreIncrement
        ) {
            BinaryOperator::Plus
        } else {
            BinaryOperator::Minus
        };
        if matches!(
            op,
            UnaryOperator::PostIncrement | UnaryOperator::PostDecrement
        ) {
            // t = lv; lv = t + 1;
            pre.push(stmt_item(expr_stmt(assign(
                ident(&t, span),
                lv.clone(),
                span,
            ))));
            pre.push(stmt_item(expr_stmt(assign(
                lv,
                binop(delta, ident(&t, span), int(1, span), span),
                span,
            ))));
        } else {
            // t = lv + 1; lv = t;
            pre.push(stmt_item(expr_stmt(assign(
                ident(&t, span),
                binop(delta, lv.clone(), int(1, span), span),
                span,
            ))));
            pre.push(stmt_item(expr_stmt(assign(lv, ident(&t, span), span))));
        }
        Ok(ident(&t, span))
    }

    /// [`Self::value`] of a call: its result in a temporary; `(void) 0` for a call that
    /// became statements.
    fn call_value(
        &mut self,
        c: Node<CallExpression>,
        span: Span,
        pre: &mut Items,
    ) -> Result<Node<Expression>> {
        Ok(match self.call(c, pre, span)? {
            Some(call) => {
                let t = self.temp();
                pre.push(temp_decl(&t, &call));
                pre.push(stmt_item(expr_stmt(assign(ident(&t, span), call, span))));
                ident(&t, span)
            }
            None => cast(void_type(span), int(0, span), span),
        })
    }

    /// [`Self::value`] of `a, b, …`: the effects of all but the last, the value of the last.
    fn comma_value(
        &mut self,
        mut es: Vec<Node<Expression>>,
        span: Span,
        pre: &mut Items,
    ) -> Result<Node<Expression>> {
        let last = es.pop().unwrap_or_else(|| int(0, span));
        for x in es {
            self.effect(x, pre, true)?;
        }
        self.value(last, pre)
    }

    /// [`Self::value`] of `a && b` and `a || b`: with effects in `b`, an `int` temporary set
    /// by an `if`, so `b` runs only when C evaluates it.
    fn logical_value(
        &mut self,
        b: BinaryOperatorExpression,
        span: Span,
        pre: &mut Items,
    ) -> Result<Node<Expression>> {
        let is_and = b.operator.node == BinaryOperator::LogicalAnd;
        let a = self.value(*b.lhs, pre)?;
        if !has_side_effect(&b.rhs.node) {
            return Ok(binop(b.operator.node, a, *b.rhs, span));
        }
        let t = self.temp();
        pre.push(decl_item(simple_decl(
            &[TypeSpecifier::Int],
            &t,
            None,
            false,
            None,
            span,
        )));
        let mut eval = vec![];
        let r = self.value(*b.rhs, &mut eval)?;
        eval.push(stmt_item(expr_stmt(assign(
            ident(&t, span),
            binop(BinaryOperator::NotEquals, r, int(0, span), span),
            span,
        ))));
        let short = stmt_item(expr_stmt(assign(
            ident(&t, span),
            int(if is_and { 0 } else { 1 }, span),
            span,
        )));
        let c = if is_and { a } else { not(a, span) };
        pre.push(stmt_item(if_stmt(
            c,
            block(eval, span),
            Some(as_stmt(vec![short], span)),
            span,
        )));
        Ok(ident(&t, span))
    }

    /// [`Self::value`] of `c ? a : b` (`orig`): with effects in a branch, a temporary set in
    /// an `if`/`else`.
    fn conditional_value(
        &mut self,
        c: ConditionalExpression,
        orig: &Node<Expression>,
        span: Span,
        pre: &mut Items,
    ) -> Result<Node<Expression>> {
        let cv = self.value(*c.condition, pre)?;
        if !has_side_effect(&c.then_expression.node) && !has_side_effect(&c.else_expression.node) {
            return Ok(cond(cv, *c.then_expression, *c.else_expression, span));
        }
        let t = self.temp();
        pre.push(temp_decl(&t, orig));
        let mut tb = vec![];
        let tv = self.value(*c.then_expression, &mut tb)?;
        tb.push(stmt_item(expr_stmt(assign(ident(&t, span), tv, span))));
        let mut fb = vec![];
        let fv = self.value(*c.else_expression, &mut fb)?;
        fb.push(stmt_item(expr_stmt(assign(ident(&t, span), fv, span))));
        pre.push(stmt_item(if_stmt(
            cv,
            block(tb, span),
            Some(block(fb, span)),
            span,
        )));
        Ok(ident(&t, span))
    }

    /// [`Self::value`] of a statement expression `({ …; e; })` (`orig`): its block, with the
    /// last expression assigned to a temporary.
    fn statement_expression_value(
        &mut self,
        s: Node<Statement>,
        orig: &Node<Expression>,
        span: Span,
        pre: &mut Items,
    ) -> Result<Node<Expression>> {
        let t = self.temp();
        let items = match s.node {
            Statement::Compound(items) => items,
            _ => {
                return Err(Error::unsupported(
                    span,
                    "statement expression without a block",
                ))
            }
        };
        let mut items = items;
        let last = match items.pop() {
            Some(Node {
                node:
                    BlockItem::Statement(Node {
                        node: Statement::Expression(Some(e)),
                        ..
                    }),
                ..
            }) => *e,
            _ => {
                return Err(Error::unsupported(
                    span,
                    "value of a statement expression that does not end in an expression",
                ))
            }
        };
        pre.push(temp_decl(&t, orig));
        let lspan = last.span;
        items.push(stmt_item(expr_stmt(assign(ident(&t, lspan), last, lspan))));
        pre.extend(self.stmt(block(items, s.span))?);
        Ok(ident(&t, span))
    }

    /// [`Self::value`] of a cast: `(void) e` keeps only the effects of `e`.
    fn cast_value(
        &mut self,
        c: CastExpression,
        span: Span,
        pre: &mut Items,
    ) -> Result<Node<Expression>> {
        if is_void_cast(&c.type_name.node) {
            self.effect(*c.expression, pre, false)?;
            return Ok(cast(c.type_name, int(0, span), span));
        }
        let v = self.value(*c.expression, pre)?;
        Ok(cast(c.type_name, v, span))
    }
}

/// `+` for `+=` etc.; `None` for `=`.
fn compound_base(op: &BinaryOperator) -> Option<BinaryOperator> {
    use BinaryOperator::*;
    Some(match op {
        AssignMultiply => Multiply,
        AssignDivide => Divide,
        AssignModulo => Modulo,
        AssignPlus => Plus,
        AssignMinus => Minus,
        AssignShiftLeft => ShiftLeft,
        AssignShiftRight => ShiftRight,
        AssignBitwiseAnd => BitwiseAnd,
        AssignBitwiseXor => BitwiseXor,
        AssignBitwiseOr => BitwiseOr,
        _ => return None,
    })
}

/// Calls that [`Normaliser::call`] turns into statements.
fn is_special_call(c: &CallExpression) -> bool {
    matches!(callee_name(c), Some(n) if ERROR_FUNCTIONS.contains(&n)
        || n == abi::VERIFIER_ASSUME || n == "assert" || n == abi::ASSUME)
}
