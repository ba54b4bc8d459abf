//! Statements: one per line, bodies of `if`/`while`/`for`/`switch`/`do`, labels outdented,
//! the dangling-`else` guard, and GNU asm statements.

use super::declarations::type_qualifier;
use super::{Printer, PREC_COMMA, PREC_COND};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

impl Printer {
    /// Prints `s` starting on a new line; `span` is its origin.
    pub(super) fn statement(&mut self, s: &Statement, span: Span) {
        self.push(span);
        self.newline();
        self.statement_here(s);
        self.pop();
    }

    fn statement_node(&mut self, s: &Node<Statement>) {
        self.statement(&s.node, s.span);
    }

    /// `{ items }` with `{` on the current line.
    pub(super) fn compound_body(&mut self, items: &[Node<BlockItem>]) {
        self.write("{");
        self.indent += 1;
        for item in items {
            match &item.node {
                BlockItem::Declaration(d) => {
                    self.push(d.span);
                    self.newline();
                    self.declaration(&d.node);
                    self.pop();
                }
                BlockItem::StaticAssert(sa) => {
                    self.push(sa.span);
                    self.newline();
                    self.static_assert(&sa.node);
                    self.pop();
                }
                BlockItem::Statement(s) => self.statement_node(s),
            }
        }
        self.indent -= 1;
        self.newline();
        self.write("}");
    }

    /// The body of `if`/`while`/`for`/`switch`/`do`: a compound stays on the header line,
    /// anything else goes indented on the next line. Returns whether it was a compound (so the
    /// caller can put `else`/`while` after the `}`).
    fn body(&mut self, s: &Node<Statement>, force_braces: bool) -> bool {
        match &s.node {
            Statement::Compound(items) => {
                self.write(" ");
                self.push(s.span);
                self.compound_body(items);
                self.pop();
                true
            }
            _ if force_braces => {
                self.write(" {");
                self.indent += 1;
                self.statement_node(s);
                self.indent -= 1;
                self.newline();
                self.write("}");
                true
            }
            _ => {
                self.indent += 1;
                self.statement_node(s);
                self.indent -= 1;
                false
            }
        }
    }

    fn statement_here(&mut self, s: &Statement) {
        match s {
            Statement::Labeled(l) => {
                let saved = self.indent;
                self.indent = saved.saturating_sub(1);
                match &l.node.label.node {
                    Label::Identifier(id) => {
                        self.write(&id.node.name);
                        self.write(":");
                    }
                    Label::Case(e) => {
                        self.write("case ");
                        self.expr(&e.node, PREC_COND);
                        self.write(":");
                    }
                    Label::CaseRange(r) => {
                        self.write("case ");
                        self.expr(&r.node.low.node, PREC_COND);
                        self.write(" ... ");
                        self.expr(&r.node.high.node, PREC_COND);
                        self.write(":");
                    }
                    Label::Default => self.write("default:"),
                }
                self.newline();
                self.indent = saved;
                self.statement_node(&l.node.statement);
            }
            Statement::Compound(items) => self.compound_body(items),
            Statement::Expression(e) => {
                if let Some(e) = e {
                    self.expr(&e.node, PREC_COMMA);
                }
                self.write(";");
            }
            Statement::If(i) => {
                self.write("if (");
                self.expr(&i.node.condition.node, PREC_COMMA);
                self.write(")");
                let has_else = i.node.else_statement.is_some();
                let force = has_else && ends_in_open_if(&i.node.then_statement.node);
                let braced = self.body(&i.node.then_statement, force);
                if let Some(e) = &i.node.else_statement {
                    if braced {
                        self.write(" else");
                    } else {
                        self.newline();
                        self.write("else");
                    }
                    self.body(e, false);
                }
            }
            Statement::Switch(sw) => {
                self.write("switch (");
                self.expr(&sw.node.expression.node, PREC_COMMA);
                self.write(")");
                self.body(&sw.node.statement, false);
            }
            Statement::While(wh) => {
                self.write("while (");
                self.expr(&wh.node.expression.node, PREC_COMMA);
                self.write(")");
                self.body(&wh.node.statement, false);
            }
            Statement::DoWhile(d) => {
                self.write("do");
                if self.body(&d.node.statement, false) {
                    self.write(" ");
                } else {
                    self.newline();
                }
                self.write("while (");
                self.expr(&d.node.expression.node, PREC_COMMA);
                self.write(");");
            }
            Statement::For(f) => {
                self.write("for (");
                match &f.node.initializer.node {
                    ForInitializer::Empty => self.write(";"),
                    ForInitializer::Expression(e) => {
                        self.expr(&e.node, PREC_COMMA);
                        self.write(";");
                    }
                    ForInitializer::Declaration(d) => self.declaration(&d.node),
                    ForInitializer::StaticAssert(sa) => self.static_assert(&sa.node),
                }
                if let Some(c) = &f.node.condition {
                    self.write(" ");
                    self.expr(&c.node, PREC_COMMA);
                }
                self.write(";");
                if let Some(st) = &f.node.step {
                    self.write(" ");
                    self.expr(&st.node, PREC_COMMA);
                }
                self.write(")");
                self.body(&f.node.statement, false);
            }
            Statement::Goto(id) => {
                self.write("goto ");
                self.write(&id.node.name);
                self.write(";");
            }
            Statement::Continue => self.write("continue;"),
            Statement::Break => self.write("break;"),
            Statement::Return(e) => {
                self.write("return");
                if let Some(e) = e {
                    self.write(" ");
                    self.expr(&e.node, PREC_COMMA);
                }
                self.write(";");
            }
            Statement::Asm(a) => self.asm(&a.node),
        }
    }

    fn asm(&mut self, a: &AsmStatement) {
        match a {
            AsmStatement::GnuBasic(s) => {
                self.write("__asm__(");
                self.string_literal(&s.node);
                self.write(");");
            }
            AsmStatement::GnuExtended(x) => {
                self.write("__asm__ ");
                if let Some(q) = &x.qualifier {
                    self.write(type_qualifier(&q.node));
                    self.write(" ");
                }
                self.write("(");
                self.string_literal(&x.template.node);
                // Always at least one `:` so it stays an extended asm.
                self.write(" : ");
                self.asm_operands(&x.outputs);
                if !x.inputs.is_empty() || !x.clobbers.is_empty() {
                    self.write(" : ");
                    self.asm_operands(&x.inputs);
                }
                if !x.clobbers.is_empty() {
                    self.write(" : ");
                    for (i, c) in x.clobbers.iter().enumerate() {
                        if i > 0 {
                            self.write(", ");
                        }
                        self.string_literal(&c.node);
                    }
                }
                self.write(");");
            }
        }
    }

    fn asm_operands(&mut self, ops: &[Node<GnuAsmOperand>]) {
        for (i, op) in ops.iter().enumerate() {
            if i > 0 {
                self.write(", ");
            }
            if let Some(n) = &op.node.symbolic_name {
                self.write("[");
                self.write(&n.node.name);
                self.write("] ");
            }
            self.string_literal(&op.node.constraints.node);
            self.write(" (");
            self.expr(&op.node.variable_name.node, PREC_COMMA);
            self.write(")");
        }
    }
}

/// True when `s`, printed as the then-branch of an `if` with an `else`, would end in an `if`
/// without `else` and so capture that `else`.
fn ends_in_open_if(s: &Statement) -> bool {
    match s {
        Statement::If(i) => match &i.node.else_statement {
            None => true,
            Some(e) => ends_in_open_if(&e.node),
        },
        Statement::Labeled(l) => ends_in_open_if(&l.node.statement.node),
        Statement::While(w) => ends_in_open_if(&w.node.statement.node),
        Statement::For(f) => ends_in_open_if(&f.node.statement.node),
        Statement::Switch(sw) => ends_in_open_if(&sw.node.statement.node),
        _ => false,
    }
}
