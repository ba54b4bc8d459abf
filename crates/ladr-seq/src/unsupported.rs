//! Constructs ladr cannot check yet, refused with their location before any pass runs, so
//! that a program using them gets a located "unsupported" error (exit 2) and never a silent
//! "no race":
//! * a signal handler installed with `signal` or `sigaction`: the handler runs
//!   asynchronously, in no thread the model knows, and its accesses would be missed;
//! * `setjmp`/`longjmp` (and their `sig`/`_`/`__` variants): non-local jumps that the
//!   bounded program cannot follow.
//!
//! (OpenMP's `#pragma omp` is refused by the front end, which is where pragmas are seen.)

use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::callee_name;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;

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

/// The first call of a function ladr cannot check, as a located error.
pub fn check(unit: &TranslationUnit) -> Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn check_text(src: &str) -> Result<()> {
        let (_, unit, _) = ladr_c::frontend::parse_text(src, "t.c").unwrap();
        check(&unit)
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
