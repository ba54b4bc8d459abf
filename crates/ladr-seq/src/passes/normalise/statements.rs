//! Statements: blocks, labels (`case`/`default` collected for the enclosing switch), `if`,
//! the loops lowered to `while`, `switch` lowered to a chain of tests and `goto`s,
//! `break`/`continue` as `goto`s to labels created on first use.

use super::atomic::group_atomic;
use super::{as_stmt, stmt_item, temp_decl, CaseTest, Items, Normaliser, SwitchCtx, Target};
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::names;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

impl Normaliser<'_> {
    fn target(stack: &mut [Target], span: Span, what: &str) -> Result<String> {
        match stack.last_mut() {
            Some(t) => {
                t.used = true;
                Ok(t.label.clone())
            }
            None => Err(Error::unsupported(
                span,
                format!("`{what}` outside a loop or switch"),
            )),
        }
    }

    // ---------------------------------------------------------------- statements

    pub(super) fn stmt(&mut self, s: Node<Statement>) -> Result<Items> {
        let span = s.span;
        match s.node {
            Statement::Compound(items) => {
                let mut out = vec![];
                for it in items {
                    match it.node {
                        BlockItem::Declaration(d) => out.extend(self.declaration(d)?),
                        BlockItem::Statement(s) => out.extend(self.stmt(s)?),
                        BlockItem::StaticAssert(_) => out.push(it),
                    }
                }
                let out = group_atomic(out, span, self.names)?;
                Ok(vec![stmt_item(block(out, span))])
            }
            Statement::Labeled(l) => {
                let label = l.node.label;
                let inner = self.stmt(*l.node.statement)?;
                let name = match label.node {
                    Label::Identifier(i) => i.node.name,
                    Label::Case(e) => {
                        let name = self.names.label("case");
                        self.switch_ctx(span, "`case` outside a switch")?
                            .cases
                            .push((CaseTest::Value(*e), name.clone()));
                        name
                    }
                    Label::CaseRange(r) => {
                        let name = self.names.label("case");
                        let r = r.node;
                        self.switch_ctx(span, "`case` outside a switch")?
                            .cases
                            .push((CaseTest::Range(*r.low, *r.high), name.clone()));
                        name
                    }
                    Label::Default => {
                        let name = self.names.label("default");
                        self.switch_ctx(span, "`default` outside a switch")?.default =
                            Some(name.clone());
                        name
                    }
                };
                if inner.len() == 1 && matches!(inner[0].node, BlockItem::Statement(_)) {
                    let s = as_stmt(inner, span);
                    Ok(vec![stmt_item(labeled(&name, s, span))])
                } else {
                    let mut out = vec![stmt_item(labeled(&name, empty_stmt(span), span))];
                    out.extend(inner);
                    Ok(out)
                }
            }
            Statement::Expression(None) => Ok(vec![stmt_item(empty_stmt(span))]),
            Statement::Expression(Some(e)) => {
                let mut pre = vec![];
                self.effect(*e, &mut pre, true)?;
                if pre.is_empty() {
                    pre.push(stmt_item(empty_stmt(span)));
                }
                Ok(pre)
            }
            Statement::If(i) => {
                let i = i.node;
                let mut pre = vec![];
                let c = self.value(*i.condition, &mut pre)?;
                let t = self.stmt(*i.then_statement)?;
                let e = match i.else_statement {
                    Some(e) => Some(as_stmt(self.stmt(*e)?, span)),
                    None => None,
                };
                pre.push(stmt_item(if_stmt(c, as_stmt(t, span), e, span)));
                Ok(pre)
            }
            Statement::While(w) => {
                let w = w.node;
                self.lower_loop(None, Some(*w.expression), *w.statement, None, false, span)
            }
            Statement::DoWhile(d) => {
                let d = d.node;
                self.lower_loop(None, Some(*d.expression), *d.statement, None, true, span)
            }
            Statement::For(f) => {
                let f = f.node;
                let init = f.initializer;
                self.lower_loop(
                    Some(init),
                    f.condition.map(|c| *c),
                    *f.statement,
                    f.step.map(|s| *s),
                    false,
                    span,
                )
            }
            Statement::Switch(sw) => self.lower_switch(sw.node, span),
            Statement::Break => {
                let l = Self::target(&mut self.breaks, span, "break")?;
                Ok(vec![stmt_item(goto(&l, span))])
            }
            Statement::Continue => {
                let l = Self::target(&mut self.conts, span, "continue")?;
                Ok(vec![stmt_item(goto(&l, span))])
            }
            Statement::Return(Some(e)) => {
                let mut pre = vec![];
                let v = self.value_or_void(*e, &mut pre)?;
                pre.push(stmt_item(ret(v, span)));
                Ok(pre)
            }
            Statement::Goto(_) | Statement::Return(None) | Statement::Asm(_) => {
                Ok(vec![stmt_item(s)])
            }
        }
    }

    fn switch_ctx(&mut self, span: Span, what: &str) -> Result<&mut SwitchCtx> {
        self.switches
            .last_mut()
            .ok_or_else(|| Error::unsupported(span, what.to_string()))
    }

    /// `for`, `while` and `do` loops: `{ init; while (c) { body; cont: ; step; } brk: ; }`, or
    /// with a condition that has effects (and for `do`): `while (1) { [body; cont: ;]
    /// <effects>; if (!c) goto brk; [body; cont: ; step;] } brk: ;`.
    fn lower_loop(
        &mut self,
        init: Option<Node<ForInitializer>>,
        cond: Option<Node<Expression>>,
        body: Node<Statement>,
        step: Option<Node<Expression>>,
        is_do: bool,
        span: Span,
    ) -> Result<Items> {
        let mut out = vec![];
        if let Some(init) = init {
            match init.node {
                ForInitializer::Empty => {}
                ForInitializer::Expression(e) => self.effect(*e, &mut out, true)?,
                ForInitializer::Declaration(d) => out.extend(self.declaration(d)?),
                ForInitializer::StaticAssert(a) => {
                    out.push(node(BlockItem::StaticAssert(a), init.span))
                }
            }
        }
        let brk = self.names.label("brk");
        let cont = self.names.label("cont");
        self.breaks.push(Target {
            label: brk.clone(),
            used: false,
        });
        self.conts.push(Target {
            label: cont.clone(),
            used: false,
        });
        let body = self.stmt(body);
        let cont_used = self.conts.pop().unwrap().used;
        let mut brk_used = self.breaks.pop().unwrap().used;
        let mut inner = body?;
        if cont_used {
            inner.push(stmt_item(labeled(&cont, empty_stmt(span), span)));
        }
        if let Some(step) = step {
            self.effect(step, &mut inner, true)?;
        }
        let cond = cond.unwrap_or_else(|| int(1, span));
        // `do S while (0)` (the macro idiom) runs S once: no loop, nothing to unwind.
        if is_do && constant::is_null_pointer_constant(&cond.node) {
            out.push(stmt_item(block(inner, span)));
            if brk_used {
                out.push(stmt_item(labeled(&brk, empty_stmt(span), span)));
            }
            return Ok(vec![stmt_item(block(out, span))]);
        }
        let mut test = vec![];
        let c = self.value(cond.clone(), &mut test)?;
        let loop_stmt = if !is_do && test.is_empty() {
            node(
                Statement::While(node(
                    WhileStatement {
                        expression: Box::new(c),
                        statement: Box::new(block(inner, span)),
                    },
                    span,
                )),
                span,
            )
        } else {
            brk_used = true;
            test.push(stmt_item(if_stmt(
                not(c, cond.span),
                goto(&brk, span),
                None,
                cond.span,
            )));
            let mut all = vec![];
            if is_do {
                all.extend(inner);
                all.extend(test);
            } else {
                all.extend(test);
                all.extend(inner);
            }
            node(
                Statement::While(node(
                    WhileStatement {
                        expression: Box::new(int(1, span)),
                        statement: Box::new(block(all, span)),
                    },
                    span,
                )),
                span,
            )
        };
        out.push(stmt_item(loop_stmt));
        if brk_used {
            out.push(stmt_item(labeled(&brk, empty_stmt(span), span)));
        }
        Ok(vec![stmt_item(block(out, span))])
    }

    fn lower_switch(&mut self, sw: SwitchStatement, span: Span) -> Result<Items> {
        let mut out = vec![];
        let v = self.value(*sw.expression, &mut out)?;
        let t = match &v.node {
            Expression::Identifier(i) if names::is_temporary(&i.node.name) => i.node.name.clone(),
            _ => {
                let t = self.names.temp();
                out.push(temp_decl(&t, &v));
                out.push(stmt_item(expr_stmt(assign(ident(&t, v.span), v, span))));
                t
            }
        };
        let brk = self.names.label("brk");
        self.breaks.push(Target {
            label: brk.clone(),
            used: false,
        });
        self.switches.push(SwitchCtx::default());
        let body = self.stmt(*sw.statement);
        let ctx = self.switches.pop().unwrap();
        self.breaks.pop();
        let body = body?;
        for (test, label) in ctx.cases {
            let c = match test {
                CaseTest::Value(e) => eq(ident(&t, span), e, span),
                CaseTest::Range(lo, hi) => and(
                    binop(BinaryOperator::GreaterOrEqual, ident(&t, span), lo, span),
                    binop(BinaryOperator::LessOrEqual, ident(&t, span), hi, span),
                    span,
                ),
            };
            out.push(stmt_item(if_stmt(c, goto(&label, span), None, span)));
        }
        out.push(stmt_item(goto(
            ctx.default.as_deref().unwrap_or(&brk),
            span,
        )));
        out.extend(body);
        out.push(stmt_item(labeled(&brk, empty_stmt(span), span)));
        Ok(vec![stmt_item(block(out, span))])
    }
}
