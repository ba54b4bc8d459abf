//! Expressions: C's precedence and associativity decide the parentheses (lang-c has no
//! parenthesis node), plus the safety cases listed in the module header of [`super`].

use super::literals::constant_text;
use super::{
    Printer, PREC_ASSIGN, PREC_CAST, PREC_COMMA, PREC_COND, PREC_POSTFIX, PREC_PRIMARY, PREC_UNARY,
};
use lang_c::ast::*;
use lang_c::span::Node;

impl Printer {
    pub(super) fn expr_list(&mut self, es: &[Node<Expression>]) {
        for (i, e) in es.iter().enumerate() {
            if i > 0 {
                self.write(", ");
            }
            self.expr(&e.node, PREC_ASSIGN);
        }
    }

    /// Prints `e` in a context that needs precedence at least `min`, parenthesizing otherwise.
    pub(super) fn expr(&mut self, e: &Expression, min: u8) {
        if expr_prec(e) < min {
            self.write("(");
            self.expr_inner(e);
            self.write(")");
        } else {
            self.expr_inner(e);
        }
    }

    /// Prints `e` without outer parentheses; each kind of expression has its helper.
    fn expr_inner(&mut self, e: &Expression) {
        match e {
            Expression::Identifier(id) => self.write(&id.node.name),
            Expression::Constant(c) => self.write(&constant_text(&c.node)),
            Expression::StringLiteral(s) => self.string_literal(&s.node),
            Expression::GenericSelection(g) => self.generic_selection(&g.node),
            Expression::Member(m) => self.member(&m.node),
            Expression::Call(c) => self.call(&c.node),
            Expression::CompoundLiteral(c) => self.compound_literal(&c.node),
            Expression::SizeOfTy(s) => {
                self.write("sizeof(");
                self.type_name(&s.node.0.node);
                self.write(")");
            }
            Expression::SizeOfVal(s) => {
                self.write("sizeof(");
                self.expr(&s.node.0.node, PREC_COMMA);
                self.write(")");
            }
            Expression::AlignOf(a) => {
                self.write("_Alignof(");
                self.type_name(&a.node.0.node);
                self.write(")");
            }
            Expression::UnaryOperator(u) => self.unary(&u.node),
            Expression::Cast(c) => self.cast(&c.node),
            Expression::BinaryOperator(b) => self.binary(&b.node),
            Expression::Conditional(c) => self.conditional(&c.node),
            Expression::Comma(es) => self.comma(es),
            Expression::OffsetOf(o) => self.offset_of(&o.node),
            Expression::VaArg(v) => self.va_arg(&v.node),
            Expression::Statement(s) => self.statement_expression(s),
        }
    }

    fn generic_selection(&mut self, g: &GenericSelection) {
        self.write("_Generic(");
        self.expr(&g.expression.node, PREC_ASSIGN);
        for a in &g.associations {
            self.write(", ");
            match &a.node {
                GenericAssociation::Type(t) => {
                    self.type_name(&t.node.type_name.node);
                    self.write(": ");
                    self.expr(&t.node.expression.node, PREC_ASSIGN);
                }
                GenericAssociation::Default(d) => {
                    self.write("default: ");
                    self.expr(&d.node, PREC_ASSIGN);
                }
            }
        }
        self.write(")");
    }

    fn member(&mut self, m: &MemberExpression) {
        self.expr(&m.expression.node, PREC_POSTFIX);
        self.write(match m.operator.node {
            MemberOperator::Direct => ".",
            MemberOperator::Indirect => "->",
        });
        self.write(&m.identifier.node.name);
    }

    fn call(&mut self, c: &CallExpression) {
        self.expr(&c.callee.node, PREC_POSTFIX);
        self.write("(");
        self.expr_list(&c.arguments);
        self.write(")");
    }

    fn compound_literal(&mut self, c: &CompoundLiteral) {
        self.write("(");
        self.type_name(&c.type_name.node);
        self.write(")");
        self.initializer_list(&c.initializer_list);
    }

    fn cast(&mut self, c: &CastExpression) {
        self.write("(");
        self.type_name(&c.type_name.node);
        self.write(")");
        let operand = &c.expression.node;
        if expr_prec(operand) == PREC_UNARY {
            // `(T)(-x)`: not needed by C, but clearer and never ambiguous.
            self.write("(");
            self.expr_inner(operand);
            self.write(")");
        } else {
            self.expr(operand, PREC_CAST);
        }
    }

    fn binary(&mut self, b: &BinaryOperatorExpression) {
        let (op, prec) = binary_info(&b.operator.node);
        if b.operator.node == BinaryOperator::Index {
            self.expr(&b.lhs.node, PREC_POSTFIX);
            self.write("[");
            self.expr(&b.rhs.node, PREC_COMMA);
            self.write("]");
        } else if prec == PREC_ASSIGN {
            self.expr(&b.lhs.node, PREC_UNARY);
            self.write(" ");
            self.write(op);
            self.write(" ");
            self.expr(&b.rhs.node, PREC_ASSIGN);
        } else {
            self.expr(&b.lhs.node, prec);
            self.write(" ");
            self.write(op);
            self.write(" ");
            self.expr(&b.rhs.node, prec + 1);
        }
    }

    fn conditional(&mut self, c: &ConditionalExpression) {
        self.expr(&c.condition.node, PREC_COND + 1);
        self.write(" ? ");
        self.expr(&c.then_expression.node, PREC_ASSIGN);
        self.write(" : ");
        self.expr(&c.else_expression.node, PREC_COND);
    }

    fn comma(&mut self, es: &[Node<Expression>]) {
        for (i, e) in es.iter().enumerate() {
            if i > 0 {
                self.write(", ");
            }
            self.expr(&e.node, PREC_ASSIGN);
        }
    }

    fn offset_of(&mut self, o: &OffsetOfExpression) {
        self.write("__builtin_offsetof(");
        self.type_name(&o.type_name.node);
        self.write(", ");
        self.write(&o.designator.node.base.node.name);
        for m in &o.designator.node.members {
            match &m.node {
                OffsetMember::Member(id) => {
                    self.write(".");
                    self.write(&id.node.name);
                }
                OffsetMember::IndirectMember(id) => {
                    self.write("->");
                    self.write(&id.node.name);
                }
                OffsetMember::Index(e) => {
                    self.write("[");
                    self.expr(&e.node, PREC_COMMA);
                    self.write("]");
                }
            }
        }
        self.write(")");
    }

    fn va_arg(&mut self, v: &VaArgExpression) {
        self.write("__builtin_va_arg(");
        self.expr(&v.va_list.node, PREC_ASSIGN);
        self.write(", ");
        self.type_name(&v.type_name.node);
        self.write(")");
    }

    /// GNU `({ ... })`; a non-compound body (only a generated AST can hold one) is braced.
    fn statement_expression(&mut self, s: &Node<Statement>) {
        self.write("(");
        self.push(s.span);
        match &s.node {
            Statement::Compound(items) => self.compound_body(items),
            other => {
                self.write("{");
                self.indent += 1;
                self.statement(other, s.span);
                self.indent -= 1;
                self.newline();
                self.write("}");
            }
        }
        self.pop();
        self.write(")");
    }

    fn unary(&mut self, u: &UnaryOperatorExpression) {
        use UnaryOperator::*;
        let operand = &u.operand.node;
        let (op, postfix) = match u.operator.node {
            PostIncrement => ("++", true),
            PostDecrement => ("--", true),
            PreIncrement => ("++", false),
            PreDecrement => ("--", false),
            Address => ("&", false),
            Indirection => ("*", false),
            Plus => ("+", false),
            Minus => ("-", false),
            Complement => ("~", false),
            Negate => ("!", false),
        };
        if postfix {
            self.expr(operand, PREC_POSTFIX);
            self.write(op);
            return;
        }
        self.write(op);
        let min = match u.operator.node {
            PreIncrement | PreDecrement => PREC_UNARY,
            _ => PREC_CAST,
        };
        // Would the operand's first character fuse with the operator (`--x`, `&&x`, `++x`)?
        let fuses = expr_prec(operand) >= min && matches!(op, "+" | "-" | "&" | "++" | "--") && {
            let first = first_char(operand);
            first == op.chars().next()
        };
        if fuses {
            self.write("(");
            self.expr_inner(operand);
            self.write(")");
        } else {
            self.expr(operand, min);
        }
    }
}

fn binary_info(op: &BinaryOperator) -> (&'static str, u8) {
    use BinaryOperator::*;
    match op {
        Index => ("[]", PREC_POSTFIX),
        Multiply => ("*", 12),
        Divide => ("/", 12),
        Modulo => ("%", 12),
        Plus => ("+", 11),
        Minus => ("-", 11),
        ShiftLeft => ("<<", 10),
        ShiftRight => (">>", 10),
        Less => ("<", 9),
        Greater => (">", 9),
        LessOrEqual => ("<=", 9),
        GreaterOrEqual => (">=", 9),
        Equals => ("==", 8),
        NotEquals => ("!=", 8),
        BitwiseAnd => ("&", 7),
        BitwiseXor => ("^", 6),
        BitwiseOr => ("|", 5),
        LogicalAnd => ("&&", 4),
        LogicalOr => ("||", 3),
        Assign => ("=", PREC_ASSIGN),
        AssignMultiply => ("*=", PREC_ASSIGN),
        AssignDivide => ("/=", PREC_ASSIGN),
        AssignModulo => ("%=", PREC_ASSIGN),
        AssignPlus => ("+=", PREC_ASSIGN),
        AssignMinus => ("-=", PREC_ASSIGN),
        AssignShiftLeft => ("<<=", PREC_ASSIGN),
        AssignShiftRight => (">>=", PREC_ASSIGN),
        AssignBitwiseAnd => ("&=", PREC_ASSIGN),
        AssignBitwiseXor => ("^=", PREC_ASSIGN),
        AssignBitwiseOr => ("|=", PREC_ASSIGN),
    }
}

fn expr_prec(e: &Expression) -> u8 {
    match e {
        Expression::Identifier(_)
        | Expression::Constant(_)
        | Expression::StringLiteral(_)
        | Expression::GenericSelection(_)
        | Expression::OffsetOf(_)
        | Expression::VaArg(_)
        | Expression::Statement(_) => PREC_PRIMARY,
        Expression::Member(_) | Expression::Call(_) | Expression::CompoundLiteral(_) => {
            PREC_POSTFIX
        }
        Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => PREC_UNARY,
        Expression::UnaryOperator(u) => match u.node.operator.node {
            UnaryOperator::PostIncrement | UnaryOperator::PostDecrement => PREC_POSTFIX,
            _ => PREC_UNARY,
        },
        Expression::Cast(_) => PREC_CAST,
        Expression::BinaryOperator(b) => binary_info(&b.node.operator.node).1,
        Expression::Conditional(_) => PREC_COND,
        Expression::Comma(c) => match c.len() {
            0 => PREC_PRIMARY,
            1 => expr_prec(&c[0].node),
            _ => PREC_COMMA,
        },
    }
}

/// First character `e` prints as (when printed without outer parentheses).
fn first_char(e: &Expression) -> Option<char> {
    match e {
        Expression::UnaryOperator(u) => match u.node.operator.node {
            UnaryOperator::PostIncrement | UnaryOperator::PostDecrement => {
                if expr_prec(&u.node.operand.node) >= PREC_POSTFIX {
                    first_char(&u.node.operand.node)
                } else {
                    Some('(')
                }
            }
            UnaryOperator::PreIncrement | UnaryOperator::Plus => Some('+'),
            UnaryOperator::PreDecrement | UnaryOperator::Minus => Some('-'),
            UnaryOperator::Address => Some('&'),
            UnaryOperator::Indirection => Some('*'),
            UnaryOperator::Complement => Some('~'),
            UnaryOperator::Negate => Some('!'),
        },
        Expression::Constant(c) => constant_text(&c.node).chars().next(),
        _ => None,
    }
}
