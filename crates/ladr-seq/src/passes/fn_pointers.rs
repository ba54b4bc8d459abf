//! The declared types of function pointers, for `inline`'s calls through a pointer: which
//! of the functions whose address is taken a call `p->fn(a)` or `cb(a)` can reach.
//!
//! C calls a function only through a pointer of a compatible type (C11 6.3.2.3p8: anything
//! else is undefined), so a function returning `void` is no target of a pointer to a
//! function returning a value, and the other way round. Thread pools take the address of
//! both kinds: job functions (`void (*)(void *)`) and start routines (`void *(*)(void *)`);
//! without the types, the job call of the worker could reach the worker itself.
//!
//! Known: objects and struct members declared as pointers to functions, directly
//! (`void (*fn)(void *)`) or through a typedef of a function pointer (`pool_fn fn;`) or of
//! a function type (`job_fn *fn;`), with a base type that is plainly `void` or plainly not
//! (a typedef or `__typeof__` return type is unknown). A name declared with different
//! signatures in different places has none. A function whose name is ever cast
//! (`(pool_fn)f`, `(void *)&f`) may be called through any pointer: it stays a candidate of
//! every call.

use ladr_c::syntax::build::{declarator_name, is_typedef};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// What a pointer's type says of the functions it may point to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sig {
    pub returns_void: bool,
}

#[derive(Debug, Default)]
pub struct Pointers {
    /// Objects (globals, locals, parameters) by name: `None` when two declarations differ.
    objects: HashMap<String, Option<Sig>>,
    /// Struct and union members by name, as `objects`.
    fields: HashMap<String, Option<Sig>>,
    /// Typedefs of pointers to functions, and of function types.
    typedef_ptr: HashMap<String, Option<Sig>>,
    typedef_fn: HashMap<String, Option<Sig>>,
    /// Functions whose name is the operand of a cast.
    cast: HashSet<String>,
}

impl Pointers {
    pub fn collect(unit: &TranslationUnit) -> Pointers {
        let mut p = Pointers::default();
        let Ok(()) = visit::unit(&mut p, unit);
        p
    }

    /// The signature the type of the callee `e` (a pointer or a dereferenced one) gives,
    /// when it is known.
    pub fn of_callee(&self, e: &Expression) -> Option<Sig> {
        match e {
            Expression::UnaryOperator(u)
                if matches!(u.node.operator.node, UnaryOperator::Indirection) =>
            {
                self.of_callee(&u.node.operand.node)
            }
            Expression::Identifier(i) => self.objects.get(&i.node.name).copied().flatten(),
            Expression::Member(m) => self
                .fields
                .get(&m.node.identifier.node.name)
                .copied()
                .flatten(),
            _ => None,
        }
    }

    /// True if `f` (returning void or not) may be called through a pointer of signature
    /// `sig`.
    pub fn may_reach(&self, sig: Sig, f: &str, returns_void: bool) -> bool {
        self.cast.contains(f) || returns_void == sig.returns_void
    }

    fn record(map: &mut HashMap<String, Option<Sig>>, name: &str, sig: Option<Sig>) {
        map.entry(name.to_string())
            .and_modify(|s| {
                if *s != sig {
                    *s = None
                }
            })
            .or_insert(sig);
    }

    /// The signature of a declaration of a pointer to a function (`None` inside `Some`:
    /// a function pointer whose signature is unknown; outer `None`: not a function pointer).
    fn sig_of(&self, types: &[&TypeSpecifier], d: &Declarator) -> Option<Option<Sig>> {
        let typedef = types.iter().find_map(|t| match t {
            TypeSpecifier::TypedefName(n) => Some(n.node.name.as_str()),
            _ => None,
        });
        if let DeclaratorKind::Declarator(inner) = &d.kind.node {
            let inner = &inner.node;
            let pointer_only = inner.derived.len() == 1
                && matches!(inner.derived[0].node, DerivedDeclarator::Pointer(_))
                && matches!(inner.kind.node, DeclaratorKind::Identifier(_));
            let func = d.derived.iter().position(|x| {
                matches!(
                    x.node,
                    DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
                )
            });
            if let (true, Some(k)) = (pointer_only, func) {
                if k + 1 != d.derived.len() {
                    return Some(None);
                }
                let returns_void = if k > 0 {
                    Some(false)
                } else if types.iter().any(|t| matches!(t, TypeSpecifier::Void)) {
                    Some(true)
                } else if typedef.is_some()
                    || types.iter().any(|t| matches!(t, TypeSpecifier::TypeOf(_)))
                {
                    None
                } else {
                    Some(false)
                };
                return Some(returns_void.map(signature));
            }
            return None;
        }
        let t = typedef?;
        match d.derived.as_slice() {
            [] => self.typedef_ptr.get(t).copied(),
            [p] if matches!(p.node, DerivedDeclarator::Pointer(_)) => {
                self.typedef_fn.get(t).copied()
            }
            _ => None,
        }
    }

    /// The signature of a typedef of a function type (`typedef void job_fn(void *);`).
    fn fn_type_sig(types: &[&TypeSpecifier], d: &Declarator) -> Option<Option<Sig>> {
        if !matches!(d.kind.node, DeclaratorKind::Identifier(_)) {
            return None;
        }
        let k = d.derived.iter().position(|x| {
            matches!(
                x.node,
                DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
            )
        })?;
        if k + 1 != d.derived.len() {
            return Some(None);
        }
        let void = types.iter().any(|t| matches!(t, TypeSpecifier::Void));
        let unknown = types
            .iter()
            .any(|t| matches!(t, TypeSpecifier::TypedefName(_) | TypeSpecifier::TypeOf(_)));
        Some(if k == 0 && unknown {
            None
        } else {
            Some(signature(k == 0 && void))
        })
    }

    fn object(&mut self, types: &[&TypeSpecifier], d: &Declarator, field: bool) {
        let Some(name) = declarator_name(d) else {
            return;
        };
        if let Some(sig) = self.sig_of(types, d) {
            let map = if field {
                &mut self.fields
            } else {
                &mut self.objects
            };
            Self::record(map, name, sig);
        }
    }
}

fn signature(returns_void: bool) -> Sig {
    Sig { returns_void }
}

fn decl_types(specs: &[Node<DeclarationSpecifier>]) -> Vec<&TypeSpecifier> {
    specs
        .iter()
        .filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
            _ => None,
        })
        .collect()
}

impl Visitor for Pointers {
    type Error = Infallible;

    fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
        let types = decl_types(&d.node.specifiers);
        for id in &d.node.declarators {
            let dd = &id.node.declarator.node;
            if is_typedef(&d.node) {
                let Some(name) = declarator_name(dd) else {
                    continue;
                };
                if let Some(sig) = self.sig_of(&types, dd) {
                    Self::record(&mut self.typedef_ptr, name, sig);
                } else if let Some(sig) = Self::fn_type_sig(&types, dd) {
                    Self::record(&mut self.typedef_fn, name, sig);
                }
            } else {
                self.object(&types, dd, false);
            }
        }
        Ok(Walk::Descend)
    }

    fn declarator(&mut self, d: &Node<Declarator>) -> Result<Walk, Infallible> {
        // Parameters (of definitions and of prototypes) are objects too.
        for x in &d.node.derived {
            if let DerivedDeclarator::Function(f) = &x.node {
                for p in &f.node.parameters {
                    if let Some(pd) = &p.node.declarator {
                        let types = decl_types(&p.node.specifiers);
                        self.object(&types, &pd.node, false);
                    }
                }
            }
        }
        Ok(Walk::Descend)
    }

    fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> Result<Walk, Infallible> {
        if let TypeSpecifier::Struct(st) = &t.node {
            for f in st.node.declarations.iter().flatten() {
                let StructDeclaration::Field(f) = &f.node else {
                    continue;
                };
                let types: Vec<&TypeSpecifier> = f
                    .node
                    .specifiers
                    .iter()
                    .filter_map(|s| match &s.node {
                        SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                        _ => None,
                    })
                    .collect();
                for sd in &f.node.declarators {
                    if let Some(d) = &sd.node.declarator {
                        self.object(&types, &d.node, true);
                    }
                }
            }
        }
        Ok(Walk::Descend)
    }

    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        if let Expression::Cast(c) = &e.node {
            let mut x = &c.node.expression.node;
            while let Expression::UnaryOperator(u) = x {
                if matches!(u.node.operator.node, UnaryOperator::Address) {
                    x = &u.node.operand.node;
                } else {
                    break;
                }
            }
            if let Expression::Identifier(i) = x {
                self.cast.insert(i.node.name.clone());
            }
        }
        Ok(Walk::Descend)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pointers(src: &str) -> Pointers {
        let (_, unit, _) = ladr_c::frontend::parse_text(src, "t.c").expect("parses");
        Pointers::collect(&unit)
    }

    fn callee(src: &str) -> Expression {
        let (_, unit, _) =
            ladr_c::frontend::parse_text(&format!("void f(void) {{ {src}; }}"), "c.c")
                .expect("parses");
        let ExternalDeclaration::FunctionDefinition(f) = &unit.0[0].node else {
            panic!("a function")
        };
        let Statement::Compound(items) = &f.node.statement.node else {
            panic!("a body")
        };
        let BlockItem::Statement(s) = &items[0].node else {
            panic!("a statement")
        };
        let Statement::Expression(Some(e)) = &s.node else {
            panic!("an expression")
        };
        let Expression::Call(c) = &e.node else {
            panic!("a call")
        };
        c.node.callee.node.clone()
    }

    const VOID1: Sig = Sig { returns_void: true };
    const PTR1: Sig = Sig {
        returns_void: false,
    };

    #[test]
    fn direct_typedef_and_function_type_pointers() {
        let p = pointers(
            "typedef void (*job_t)(void *); typedef void handler_t(void *); \
             struct job { job_t fn; handler_t *h; void *(*start)(void *); int (*cmp)(int, int); }; \
             void *(*routine)(void *); void (*cb)(void *); \
             void run(void (*visit)(void *), struct job *j);",
        );
        assert_eq!(p.of_callee(&callee("j->fn(0)")), Some(VOID1));
        assert_eq!(p.of_callee(&callee("(*j->h)(0)")), Some(VOID1));
        assert_eq!(p.of_callee(&callee("j->start(0)")), Some(PTR1));
        assert_eq!(p.of_callee(&callee("j->cmp(1, 2)")), Some(PTR1));
        assert_eq!(p.of_callee(&callee("routine(0)")), Some(PTR1));
        assert_eq!(p.of_callee(&callee("cb(0)")), Some(VOID1));
        assert_eq!(p.of_callee(&callee("visit(0)")), Some(VOID1));
    }

    #[test]
    fn differing_declarations_and_unknown_return_types_give_no_signature() {
        let p = pointers(
            "typedef int T; struct a { void (*fn)(void *); }; struct b { int (*fn)(void *); }; \
             T (*t)(void); __typeof__(1) (*u)(void); void *data;",
        );
        assert_eq!(p.of_callee(&callee("x->fn(0)")), None);
        assert_eq!(p.of_callee(&callee("t()")), None);
        assert_eq!(p.of_callee(&callee("u()")), None);
        assert_eq!(p.of_callee(&callee("data()")), None);
    }

    #[test]
    fn a_function_that_is_cast_stays_a_candidate() {
        let p = pointers(
            "typedef void (*job_t)(void *); void *start(void *a) { return a; } \
             void *other(void *a) { return a; } job_t j = (job_t)start;",
        );
        assert!(p.may_reach(VOID1, "start", false));
        assert!(!p.may_reach(VOID1, "other", false));
        assert!(p.may_reach(PTR1, "other", false));
    }
}
