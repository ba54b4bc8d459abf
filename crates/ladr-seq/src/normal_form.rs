//! The normal form's vocabulary, shared by the passes that make it (`normalise`, `inline`),
//! rely on it (`unwind`, `visible`) and check it (`invariants`): which calls end an
//! execution, what an atomic section (N5) and an N4 havoc look like, which calls stay calls.
//! A leaf module: it imports no pass, so the passes and the checker do not import each other.

use ladr_c::syntax::build::callee_name;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;

/// Functions that end the execution: `__CPROVER_assume(0)` in race mode.
pub const ERROR_FUNCTIONS: &[&str] = &[
    "reach_error",
    abi::VERIFIER_ERROR,
    "abort",
    "exit",
    "_exit",
    "_Exit",
    "__assert_fail",
    "__assert_perror_fail",
    "__assert",
    "__builtin_trap",
    "__builtin_unreachable",
];

/// `{ __VERIFIER_atomic_begin(); ... __VERIFIER_atomic_end(); }`: an atomic section (N5).
pub fn is_atomic_section(items: &[Node<BlockItem>]) -> bool {
    items.len() >= 2
        && called(&items[0]) == Some(abi::ATOMIC_BEGIN)
        && called(&items[items.len() - 1]) == Some(abi::ATOMIC_END)
}

/// `x` for N4's `__CPROVER_havoc_object(&x)`.
pub fn havoced_var(e: &Expression) -> Option<&str> {
    let Expression::Call(c) = e else {
        return None;
    };
    match c.node.arguments.as_slice() {
        [a] if callee_name(&c.node) == Some(abi::HAVOC) => match &a.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                match &u.node.operand.node {
                    Expression::Identifier(i) => Some(&i.node.name),
                    _ => None,
                }
            }
            _ => None,
        },
        _ => None,
    }
}

/// The name of the function an expression statement calls with no arguments, if any.
pub fn called(it: &Node<BlockItem>) -> Option<&str> {
    if let BlockItem::Statement(s) = &it.node {
        if let Statement::Expression(Some(e)) = &s.node {
            if let Expression::Call(c) = &e.node {
                return callee_name(&c.node);
            }
        }
    }
    None
}

/// Functions whose calls stay even when the program defines them: `main` (a root), the
/// pthread API and the builtins the later passes or CBMC model (`__CPROVER_*`,
/// `__VERIFIER_nondet_*`, `__VERIFIER_assume`, `__VERIFIER_error`, atomic begin/end).
/// Other `__VERIFIER_*` functions with a body (`__VERIFIER_assert`, `__VERIFIER_atomic_*`)
/// are user code and are inlined.
pub fn kept_call(name: &str) -> bool {
    name == "main"
        || name.starts_with("pthread_")
        || name.starts_with(abi::CPROVER_PREFIX)
        || name.starts_with(abi::NONDET_PREFIX)
        || matches!(
            name,
            abi::VERIFIER_ASSUME | abi::VERIFIER_ERROR | abi::ATOMIC_BEGIN | abi::ATOMIC_END
        )
}
