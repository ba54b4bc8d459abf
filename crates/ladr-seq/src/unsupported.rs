//! Constructs ladr cannot check yet, refused with their location before any pass runs, so
//! that a program using them gets a located "unsupported" error (exit 2) and never a silent
//! "no race":
//! * a signal handler installed with `signal` or `sigaction`: the handler runs
//!   asynchronously, in no thread the model knows, and its accesses would be missed;
//! * `setjmp`/`longjmp` (and their `sig`/`_`/`__` variants): non-local jumps that the
//!   bounded program cannot follow.
//!
//! (OpenMP's `#pragma omp` is refused by the front end, which is where pragmas are seen.)
//!
//! It also refuses a program that uses an identifier declared nowhere (a macro of a header
//! the program did not enable, such as `PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP` without
//! `_GNU_SOURCE`): not C, and CBMC would only fail on it later. Calls of undeclared
//! functions are allowed (C89's implicit declaration, which CBMC accepts).

use ladr_c::diag::{Error, ErrorKind, Result};
use ladr_c::syntax::build::{callee_name, declarator_name};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashSet;

/// Why a call of `name` cannot be checked, if it cannot.
fn refused(name: &str) -> Option<&'static str> {
    match name {
        "signal" | "sigaction" | "sigset" | "bsd_signal" | "sysv_signal" => Some(
            "a signal handler: it runs asynchronously, outside the threads ladr models, so \
             its accesses would be missed",
        ),
        "setjmp" | "_setjmp" | "__sigsetjmp" | "sigsetjmp" | "longjmp" | "_longjmp"
        | "siglongjmp" | "__longjmp_chk" => {
            Some("`setjmp`/`longjmp`: a non-local jump the bounded program cannot follow")
        }
        _ => None,
    }
}

/// The first call of a function ladr cannot check, or the first use of an undeclared
/// identifier, as a located error.
pub fn check(unit: &TranslationUnit) -> Result<()> {
    undeclared(unit)?;
    struct Calls;
    impl Visitor for Calls {
        type Error = Error;
        const UNEVALUATED: bool = false;
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Error> {
            if let Expression::Call(c) = &e.node {
                if let Some(why) = callee_name(&c.node).and_then(refused) {
                    return Err(Error::unsupported(e.span, why));
                }
            }
            Ok(Walk::Descend)
        }
    }
    visit::unit(&mut Calls, unit)
}

/// Every name the unit declares (declarators, parameters, enumerators) against every
/// identifier its expressions use outside a callee position: an identifier declared nowhere
/// is an error. Names starting with `__` (the compiler's and CBMC's builtins, `__func__`)
/// are not checked.
fn undeclared(unit: &TranslationUnit) -> Result<()> {
    #[derive(Default)]
    struct Names {
        declared: HashSet<String>,
        used: Vec<(String, Span)>,
    }
    impl Visitor for Names {
        type Error = std::convert::Infallible;
        fn declarator(&mut self, d: &Node<Declarator>) -> std::result::Result<Walk, Self::Error> {
            if let Some(n) = declarator_name(&d.node) {
                self.declared.insert(n.to_string());
            }
            Ok(Walk::Descend)
        }
        fn type_specifier(
            &mut self,
            t: &Node<TypeSpecifier>,
        ) -> std::result::Result<Walk, Self::Error> {
            if let TypeSpecifier::Enum(e) = &t.node {
                for en in &e.node.enumerators {
                    self.declared.insert(en.node.identifier.node.name.clone());
                }
            }
            Ok(Walk::Descend)
        }
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Self::Error> {
            match &e.node {
                Expression::Identifier(i) if !i.node.name.starts_with("__") => {
                    self.used.push((i.node.name.clone(), e.span))
                }
                Expression::Call(c) if matches!(c.node.callee.node, Expression::Identifier(_)) => {
                    for a in &c.node.arguments {
                        let Ok(()) = visit::expr(self, a);
                    }
                    return Ok(Walk::Skip);
                }
                _ => {}
            }
            Ok(Walk::Descend)
        }
    }
    let mut names = Names::default();
    let Ok(()) = visit::unit(&mut names, unit);
    match names.used.iter().find(|(n, _)| !names.declared.contains(n)) {
        Some((n, span)) => Err(
            Error::new(ErrorKind::Syntax, format!("`{n}` is not declared"))
                .at(*span, "declared nowhere in the program")
                .note(
                    "a macro of a header the program did not enable? (`PTHREAD_RECURSIVE_MUTEX_\
                 INITIALIZER_NP` needs `#define _GNU_SOURCE` before the includes)",
                ),
        ),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_text(src: &str) -> Result<()> {
        let (_, unit, _) = ladr_c::frontend::parse_text(src, "t.c").unwrap();
        check(&unit)
    }

    #[test]
    fn undeclared_identifiers_are_errors_implicit_calls_are_not() {
        assert!(
            check_text("enum { A }; int g; int f(int p) { int l = p + g + A; return h(l); }")
                .is_ok()
        );
        let e = check_text("int f(void) { return MISSING_MACRO; }").unwrap_err();
        assert!(
            e.message.contains("`MISSING_MACRO` is not declared"),
            "{}",
            e.message
        );
    }

    #[test]
    fn signal_handlers_and_setjmp_are_refused_declarations_are_not() {
        assert!(check_text("int setjmp(void *); void f(void) {}").is_ok());
        let e = check_text("void h(int s) {} int signal(int, void (*)(int));\nint main(void) { signal(14, h); return 0; }").unwrap_err();
        assert!(e.message.contains("signal handler"), "{}", e.message);
        let e = check_text("int _setjmp(void *); char b[200]; int main(void) { if (_setjmp(b)) return 1; return 0; }").unwrap_err();
        assert!(e.message.contains("setjmp"), "{}", e.message);
    }
}
