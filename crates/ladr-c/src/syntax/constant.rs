//! The constant evaluator: what the passes know about constant expressions.
//!
//! ```text
//! eval(`(21 - 1) * 2`)        = Value(40)
//! eval(`sizeof(struct s) + 1`) = Constant      (constant, value not computed)
//! eval(`n + 1`, n ↦ 9)         = Value(10)     (a local known to hold 9)
//! eval(`n + 1`)               = Not
//! ```
//!
//! * [`eval`]: integer constant expressions (C11 6.6p6) — literals, enumeration constants
//!   and known locals ([`Env`]), `sizeof`/`_Alignof`, casts, unary and binary operators,
//!   `?:`. Values are computed for integer literals, unary `+`/`-`/`!`, binary
//!   `+ - * / % << >>` (as macros such as `#define N (21-1)` leave them), and comparisons
//!   and `&&`/`||` of two non-negative values (`#define IS_DEBUG (LEVEL >= 30)`), on `i128`; other
//!   operators, and operations that overflow or divide by zero, give a constant whose value
//!   is not computed. [`value`] and [`is_constant`] read its answer.
//! * [`is_initializer_constant`]: the wider constants an initialiser of static storage may
//!   hold (C11 6.6p7–9): also string literals, addresses of objects and functions.
//! * [`int_literal`], [`is_null_pointer_constant`]: the literal leaves.

use lang_c::ast::*;
use std::collections::{HashMap, HashSet};

/// What [`eval`] knows about an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Const {
    /// A constant with this value.
    Value(i128),
    /// A constant whose value the evaluator does not compute.
    Constant,
    /// Not a constant expression (or not known to be one).
    Not,
}

/// Names with a known meaning: locals known to hold a value, enumeration constants.
#[derive(Clone, Copy, Default)]
pub struct Env<'a> {
    pub values: Option<&'a HashMap<String, i128>>,
    pub enumerators: Option<&'a HashSet<String>>,
}

impl<'a> Env<'a> {
    /// No names are constants.
    pub fn none() -> Env<'static> {
        Env::default()
    }
    /// These locals hold these values.
    pub fn values(values: &'a HashMap<String, i128>) -> Env<'a> {
        Env {
            values: Some(values),
            enumerators: None,
        }
    }
    /// These names are enumeration constants.
    pub fn enumerators(enumerators: &'a HashSet<String>) -> Env<'a> {
        Env {
            values: None,
            enumerators: Some(enumerators),
        }
    }
}

/// Evaluates an integer constant expression; see the module header.
pub fn eval(e: &Expression, env: &Env) -> Const {
    use Const::*;
    match e {
        Expression::Constant(_) => match int_literal(e) {
            Some(v) => Value(i128::from(v)),
            None => Constant,
        },
        Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => Constant,
        Expression::Identifier(i) => {
            let n = i.node.name.as_str();
            if let Some(v) = env.values.and_then(|m| m.get(n)) {
                Value(*v)
            } else if env.enumerators.is_some_and(|s| s.contains(n)) {
                Constant
            } else {
                Not
            }
        }
        Expression::Cast(c) => eval(&c.node.expression.node, env),
        Expression::UnaryOperator(u) => {
            use UnaryOperator as U;
            let op = &u.node.operator.node;
            if matches!(
                op,
                U::PostIncrement
                    | U::PostDecrement
                    | U::PreIncrement
                    | U::PreDecrement
                    | U::Address
                    | U::Indirection
            ) {
                return Not;
            }
            match (op, eval(&u.node.operand.node, env)) {
                (_, Not) => Not,
                (U::Minus, Value(v)) => v.checked_neg().map_or(Constant, Value),
                (U::Plus, Value(v)) => Value(v),
                (U::Negate, Value(v)) => Value(i128::from(v == 0)),
                _ => Constant,
            }
        }
        Expression::BinaryOperator(b) => {
            use BinaryOperator as B;
            let op = &b.node.operator.node;
            if super::walk::is_assign_op(op) || *op == B::Index {
                return Not;
            }
            let (l, r) = match (eval(&b.node.lhs.node, env), eval(&b.node.rhs.node, env)) {
                (Not, _) | (_, Not) => return Not,
                (Value(l), Value(r)) => (l, r),
                _ => return Constant,
            };
            let v = match op {
                B::Plus => l.checked_add(r),
                B::Minus => l.checked_sub(r),
                B::Multiply => l.checked_mul(r),
                B::Divide => l.checked_div(r),
                B::Modulo => l.checked_rem(r),
                B::ShiftLeft if (0..64).contains(&r) => l.checked_shl(r as u32),
                B::ShiftRight if (0..64).contains(&r) => l.checked_shr(r as u32),
                // Comparisons of two non-negative values: the usual arithmetic conversions
                // (a negative int against an unsigned) cannot change their result.
                _ if l < 0 || r < 0 => None,
                B::Less => Some(i128::from(l < r)),
                B::Greater => Some(i128::from(l > r)),
                B::LessOrEqual => Some(i128::from(l <= r)),
                B::GreaterOrEqual => Some(i128::from(l >= r)),
                B::Equals => Some(i128::from(l == r)),
                B::NotEquals => Some(i128::from(l != r)),
                B::LogicalAnd => Some(i128::from(l != 0 && r != 0)),
                B::LogicalOr => Some(i128::from(l != 0 || r != 0)),
                _ => None,
            };
            v.map_or(Constant, Value)
        }
        Expression::Conditional(c) => {
            let parts = [
                &c.node.condition,
                &c.node.then_expression,
                &c.node.else_expression,
            ];
            let [c, t, e] = parts.map(|x| eval(&x.node, env));
            match (c, t, e) {
                (Not, _, _) | (_, Not, _) | (_, _, Not) => Not,
                // Two non-negative values: the usual arithmetic conversions of the branches
                // (an int against an unsigned) cannot change the one chosen.
                (Value(c), Value(t), Value(e)) if t >= 0 && e >= 0 => {
                    Value(if c != 0 { t } else { e })
                }
                _ => Constant,
            }
        }
        _ => Not,
    }
}

/// The value of an integer constant expression, if [`eval`] computes it.
pub fn value(e: &Expression, env: &Env) -> Option<i128> {
    match eval(e, env) {
        Const::Value(v) => Some(v),
        _ => None,
    }
}

/// True if `e` is an integer constant expression.
pub fn is_constant(e: &Expression, env: &Env) -> bool {
    eval(e, env) != Const::Not
}

/// A conservative test for a constant an initialiser may hold: no side effects and no value
/// of an object. An identifier is constant if it is no local (`is_local`) and either names
/// no object at file scope (`is_global_object`: functions and enumeration constants are
/// constants) or is under `&` (an address constant).
pub fn is_initializer_constant(
    e: &Expression,
    is_local: &dyn Fn(&str) -> bool,
    is_global_object: &dyn Fn(&str) -> bool,
) -> bool {
    fn go(
        e: &Expression,
        under_addr: bool,
        l: &dyn Fn(&str) -> bool,
        g: &dyn Fn(&str) -> bool,
    ) -> bool {
        use super::walk::{is_assign_op, is_inc_dec};
        match e {
            Expression::Constant(_) | Expression::StringLiteral(_) => true,
            Expression::SizeOfTy(_) | Expression::AlignOf(_) | Expression::SizeOfVal(_) => true,
            Expression::Identifier(i) => {
                let n = i.node.name.as_str();
                !l(n) && (under_addr || !g(n))
            }
            Expression::Cast(c) => go(&c.node.expression.node, under_addr, l, g),
            Expression::UnaryOperator(u) => {
                let op = &u.node.operator.node;
                let a = *op == UnaryOperator::Address;
                !is_inc_dec(op)
                    && *op != UnaryOperator::Indirection
                    && go(&u.node.operand.node, a || under_addr, l, g)
            }
            Expression::BinaryOperator(b) => {
                !is_assign_op(&b.node.operator.node)
                    && go(&b.node.lhs.node, under_addr, l, g)
                    && go(&b.node.rhs.node, under_addr, l, g)
            }
            Expression::Conditional(c) => {
                go(&c.node.condition.node, false, l, g)
                    && go(&c.node.then_expression.node, under_addr, l, g)
                    && go(&c.node.else_expression.node, under_addr, l, g)
            }
            Expression::Member(m) => under_addr && go(&m.node.expression.node, true, l, g),
            _ => false,
        }
    }
    go(e, false, is_local, is_global_object)
}

/// The value of an integer literal (decimal, octal, hexadecimal, binary; suffixes ignored).
pub fn int_literal(e: &Expression) -> Option<u64> {
    match e {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) => {
                let radix = match i.base {
                    IntegerBase::Decimal => 10,
                    IntegerBase::Octal => 8,
                    IntegerBase::Hexadecimal => 16,
                    IntegerBase::Binary => 2,
                };
                u64::from_str_radix(&i.number, radix).ok()
            }
            _ => None,
        },
        _ => None,
    }
}

/// The integer literal 0 (any base, any suffix), possibly cast: a null pointer constant.
pub fn is_null_pointer_constant(e: &Expression) -> bool {
    match e {
        Expression::Constant(c) => {
            matches!(&c.node, Constant::Integer(i) if i.number.chars().all(|d| d == '0'))
        }
        Expression::Cast(c) => is_null_pointer_constant(&c.node.expression.node),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(src: &str) -> Expression {
        let (_, unit, _) =
            crate::frontend::parse_text(&format!("enum {{ E }}; int x = {src};"), "t.c")
                .expect("parses");
        let ExternalDeclaration::Declaration(d) = &unit.0[1].node else {
            panic!("a declaration")
        };
        match &d.node.declarators[0]
            .node
            .initializer
            .as_ref()
            .expect("init")
            .node
        {
            Initializer::Expression(e) => e.node.clone(),
            _ => panic!("an expression"),
        }
    }

    #[test]
    fn values_constants_and_not() {
        let none = Env::none();
        assert_eq!(eval(&expr("(21 - 1) * 2"), &none), Const::Value(40));
        assert_eq!(eval(&expr("-0x10 + (long)1"), &none), Const::Value(-15));
        assert_eq!(eval(&expr("sizeof(int) + 1"), &none), Const::Constant);
        assert_eq!(eval(&expr("1 / 0"), &none), Const::Constant);
        assert_eq!(eval(&expr("1 ? 2 : 3"), &none), Const::Value(2));
        assert_eq!(eval(&expr("2 < 1 ? 2 : 3"), &none), Const::Value(3));
        // `c ? -1 : 0u` is an unsigned: a negative branch is not computed.
        assert_eq!(eval(&expr("1 ? -1 : 0u"), &none), Const::Constant);
        assert_eq!(eval(&expr("!(0 >= 30)"), &none), Const::Value(1));
        assert_eq!(eval(&expr("2 == 2 && 1 < 0"), &none), Const::Value(0));
        // -1 < 0u is false in C: comparisons with a negative side are not computed.
        assert_eq!(eval(&expr("-1 < 0u"), &none), Const::Constant);
        assert_eq!(eval(&expr("n + 1"), &none), Const::Not);
        let known = HashMap::from([("n".to_string(), 9)]);
        assert_eq!(value(&expr("n + 1"), &Env::values(&known)), Some(10));
        let en = HashSet::from(["E".to_string()]);
        assert!(is_constant(&expr("E * 2"), &Env::enumerators(&en)));
        assert!(!is_constant(&expr("E * 2"), &none));
    }

    #[test]
    fn null_pointer_constants() {
        assert!(is_null_pointer_constant(&expr("(void *)0")));
        assert!(is_null_pointer_constant(&expr("0x0")));
        assert!(!is_null_pointer_constant(&expr("1")));
    }
}
