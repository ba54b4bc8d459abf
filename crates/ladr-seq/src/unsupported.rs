//! Constructs ladr cannot check yet, refused with their location before any pass runs, so
//! that a program using them gets a located "unsupported" error (exit 2) and never a silent
//! "no race":
//! * a signal handler installed with `signal` or `sigaction`: the handler runs
//!   asynchronously, in no thread the model knows, and its accesses would be missed;
//! * a zero-width bit-field (`int : 0;`) whose following run's place is not computed
//!   (`ladr_ir::bit_fields`): its race flags would be on the whole object, where CBMC 6.6
//!   aborts (`arith_tools.cpp:414`);
//! * `connect`/`accept`: a socket connection (pipes and socket pairs are modelled, as byte
//!   channels in `model/libc.c`);
//! * a lock function of one kind on a lock object of another (`pthread_rwlock_rdlock` on
//!   a `pthread_mutex_t`, `pthread_mutex_lock` on a `pthread_rwlock_t`): undefined
//!   behaviour, and the model would keep two unrelated states in one object. Objects are
//!   known by their declared type (`pthread_mutex_t m;`, a struct member
//!   `pthread_rwlock_t lock;`) when every declaration of that name agrees.
//!
//! (`setjmp`/`longjmp` are jumps within a body once calls are inlined: `inline`'s
//! `nonlocal` refuses the others.)
//!
//! (OpenMP's `#pragma omp` is lowered to threads by the front end, `ladr_c::frontend::openmp`,
//! which refuses the constructs it does not model: pragmas are seen only there.)
//!
//! It also refuses a program that uses an identifier declared nowhere (a macro of a header
//! the program did not enable, such as `PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP` without
//! `_GNU_SOURCE`): not C, and CBMC would only fail on it later. Calls of undeclared
//! functions are allowed (C89's implicit declaration, which CBMC accepts).

use ladr_c::diag::{Error, ErrorKind, Result};
use ladr_c::syntax::build::{callee_name, declarator_name, field_type_specifiers, type_specifiers};
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
        "connect" | "accept" | "accept4" => Some(
            "a socket connection: ladr models pipes and socket pairs as byte channels \
             between threads, not connections to other processes or threads",
        ),
        _ => None,
    }
}

/// The first call of a function ladr cannot check, or the first use of an undeclared
/// identifier, as a located error.
pub fn check(unit: &TranslationUnit) -> Result<()> {
    undeclared(unit)?;
    lock_kinds(unit)?;
    struct Calls;
    impl Visitor for Calls {
        type Error = Error;
        const UNEVALUATED: bool = false;
        fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> std::result::Result<Walk, Error> {
            if let TypeSpecifier::Struct(st) = &t.node {
                if ladr_ir::bit_fields::unplaced_zero_width(&st.node) {
                    return Err(Error::unsupported(
                        t.span,
                        "a zero-width bit-field after other members: the memory location of \
                         the bit-fields after it is not known to ladr",
                    )
                    .note(
                        "it ends a memory location (C11 3.14); ladr places one only where \
                         every member before it is a bit-field of a plain integer type",
                    ));
                }
            }
            Ok(Walk::Descend)
        }
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

/// The lock type a pthread function takes, by its name.
fn lock_kind_of_function(name: &str) -> Option<&'static str> {
    if name.starts_with("pthread_mutex_") && !name.starts_with("pthread_mutexattr_") {
        Some("pthread_mutex_t")
    } else if name.starts_with("pthread_rwlock_") && !name.starts_with("pthread_rwlockattr_") {
        Some("pthread_rwlock_t")
    } else if name.starts_with("pthread_spin_") {
        Some("pthread_spinlock_t")
    } else {
        None
    }
}

/// A mutex function on an object declared as another kind of lock (or the other way
/// round) is a located error.
fn lock_kinds(unit: &TranslationUnit) -> Result<()> {
    const LOCKS: [&str; 3] = ["pthread_mutex_t", "pthread_rwlock_t", "pthread_spinlock_t"];
    /// Name (variable or struct member) → its declared lock type; `None`: declarations
    /// disagree, or one is not a lock.
    #[derive(Default)]
    struct Types {
        of: std::collections::HashMap<String, Option<&'static str>>,
        calls: Vec<(&'static str, String, String, Span)>,
    }
    fn lock_type<'a>(mut specs: impl Iterator<Item = &'a TypeSpecifier>) -> Option<&'static str> {
        specs.find_map(|t| match t {
            TypeSpecifier::TypedefName(n) => LOCKS.iter().copied().find(|l| *l == n.node.name),
            _ => None,
        })
    }
    impl Types {
        fn note(&mut self, name: &str, ty: Option<&'static str>, plain: bool) {
            // A pointer or array of locks is still that kind of lock for `&x[i]`, `x->…`
            // is not a member name; only plain and array declarators count.
            let ty = if plain { ty } else { None };
            self.of
                .entry(name.to_string())
                .and_modify(|t| {
                    if *t != ty {
                        *t = None
                    }
                })
                .or_insert(ty);
        }
    }
    fn plain(d: &Declarator) -> bool {
        d.derived
            .iter()
            .all(|x| matches!(x.node, DerivedDeclarator::Array(_)))
    }
    /// The variable or member a lock argument names: `&x`, `&x[i]`, `&s.f`, `&p->f`, also
    /// behind casts.
    fn named(e: &Expression) -> Option<&str> {
        match e {
            Expression::Cast(c) => named(&c.node.expression.node),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                let mut e = &u.node.operand.node;
                while let Expression::BinaryOperator(b) = e {
                    if b.node.operator.node != BinaryOperator::Index {
                        return None;
                    }
                    e = &b.node.lhs.node;
                }
                match e {
                    Expression::Identifier(i) => Some(&i.node.name),
                    Expression::Member(m) => Some(&m.node.identifier.node.name),
                    _ => None,
                }
            }
            _ => None,
        }
    }
    impl Visitor for Types {
        type Error = std::convert::Infallible;
        fn declaration(&mut self, d: &Node<Declaration>) -> std::result::Result<Walk, Self::Error> {
            let ty = lock_type(type_specifiers(&d.node.specifiers).into_iter());
            for id in &d.node.declarators {
                if let Some(n) = declarator_name(&id.node.declarator.node) {
                    let p = plain(&id.node.declarator.node);
                    self.note(n, ty, p);
                }
            }
            Ok(Walk::Descend)
        }
        fn type_specifier(
            &mut self,
            t: &Node<TypeSpecifier>,
        ) -> std::result::Result<Walk, Self::Error> {
            if let TypeSpecifier::Struct(s) = &t.node {
                for f in s.node.declarations.iter().flatten() {
                    if let StructDeclaration::Field(f) = &f.node {
                        let ty = lock_type(field_type_specifiers(&f.node.specifiers).into_iter());
                        for d in &f.node.declarators {
                            if let Some(d) = &d.node.declarator {
                                if let Some(n) = declarator_name(&d.node) {
                                    let p = plain(&d.node);
                                    self.note(n, ty, p);
                                }
                            }
                        }
                    }
                }
            }
            Ok(Walk::Descend)
        }
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Self::Error> {
            if let Expression::Call(c) = &e.node {
                if let Some((f, want)) =
                    callee_name(&c.node).and_then(|f| lock_kind_of_function(f).map(|k| (f, k)))
                {
                    if let Some(n) = c.node.arguments.first().and_then(|a| named(&a.node)) {
                        self.calls
                            .push((want, f.to_string(), n.to_string(), e.span));
                    }
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut t = Types::default();
    let Ok(()) = visit::unit(&mut t, unit);
    for (want, f, n, span) in &t.calls {
        if let Some(Some(have)) = t.of.get(n) {
            if have != want {
                return Err(
                    Error::unsupported(*span, format!("`{f}` on `{n}`, a `{have}`")).note(format!(
                        "`{f}` takes a `{want}`: using one kind of lock as another is undefined, \
                     and ladr would keep two unrelated lock states in one object"
                    )),
                );
            }
        }
    }
    Ok(())
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
    fn lock_functions_of_another_kind_are_refused() {
        let decls = "typedef struct { int a; } pthread_mutex_t; typedef struct { int b; } pthread_rwlock_t; int pthread_rwlock_rdlock(pthread_rwlock_t *); int pthread_mutex_lock(pthread_mutex_t *);";
        let e = check_text(&format!(
            "{decls} pthread_mutex_t m; void f(void) {{ pthread_rwlock_rdlock(&m); }}"
        ))
        .unwrap_err();
        assert!(
            e.message
                .contains("`pthread_rwlock_rdlock` on `m`, a `pthread_mutex_t`"),
            "{}",
            e.message
        );
        let e = check_text(&format!("{decls} struct s {{ pthread_rwlock_t l; }}; void f(struct s *p) {{ pthread_mutex_lock(&p->l); }}")).unwrap_err();
        assert!(e.message.contains("a `pthread_rwlock_t`"), "{}", e.message);
        assert!(check_text(&format!(
            "{decls} pthread_rwlock_t l[2]; void f(int i) {{ pthread_rwlock_rdlock(&l[i]); }}"
        ))
        .is_ok());
    }

    #[test]
    fn signal_handlers_are_refused_declarations_are_not() {
        assert!(check_text("int signal(int, void (*)(int)); void f(void) {}").is_ok());
        let e = check_text("void h(int s) {} int signal(int, void (*)(int));\nint main(void) { signal(14, h); return 0; }").unwrap_err();
        assert!(e.message.contains("signal handler"), "{}", e.message);
        // `setjmp` is resolved after inlining (`inline`'s `nonlocal`), not refused here.
        assert!(check_text("int _setjmp(void *); char b[200]; int main(void) { if (_setjmp(b)) return 1; return 0; }").is_ok());
    }
}
