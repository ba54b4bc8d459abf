//! Which functions a call through a pointer may reach, by type: a coarse C type of every
//! function, variable, struct member and typedef, enough to tell that a call through
//! `desc->tx_submit` (`dma_cookie_t (*)(struct dma_async_tx_descriptor *)`) cannot reach a
//! start routine `void *(void *)` or a `int probe(struct platform_device *)`.
//!
//! C calls a function only through a pointer of a compatible type (C11 6.5.2.2p9: any other
//! call is undefined), so only such functions are candidates. The comparison is coarser than
//! C's on purpose, so that common casts between almost-compatible function types keep their
//! targets: all integer, enumeration and floating types are one class, a `void *` (or
//! `char *`, any pointer to a non-struct) parameter matches every pointer, a result the
//! call's pointer type declares `void` matches every result, and whatever this module cannot
//! type (`__typeof__`, an anonymous struct, an unknown typedef, a callee expression other
//! than a name, a member, `*`, `[]` or a cast) matches everything. What it rejects: a
//! different parameter count, a pointer where a number is expected (or the reverse), a
//! pointer to `struct a` where one to `struct b` is expected, and a struct by value of
//! another tag.
//!
//! Names are looked up file-wide (by their original name: inlined copies rename locals),
//! and a name declared with several types has all of them, so a doubt never removes a
//! candidate.

use ladr_c::syntax::build::{declarator_name, function_name, type_specifiers};
use ladr_c::syntax::names::original_name;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;
use std::convert::Infallible;

/// A coarse C type.
#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Void,
    /// Integers, enumerations, floating types.
    Number,
    /// A struct or union (`struct s`, `union u`).
    Tagged(String),
    Pointer(Box<Ty>),
    Array(Box<Ty>),
    /// Parameters (None: `f()`, not a prototype), variadic, result.
    Function(Option<Vec<Ty>>, bool, Box<Ty>),
    Unknown,
}

/// The types of the program's functions, variables, members and typedefs.
#[derive(Default)]
pub struct CalleeTypes {
    functions: HashMap<String, Ty>,
    /// Every type each object name is declared with (file-wide).
    objects: HashMap<String, Vec<Ty>>,
    members: HashMap<String, Vec<Ty>>,
    typedefs: HashMap<String, Vec<(Vec<TypeSpecifier>, Declarator)>>,
}

impl CalleeTypes {
    pub fn collect(unit: &TranslationUnit) -> CalleeTypes {
        let mut c = Collect {
            raw_objects: HashMap::new(),
            raw_members: HashMap::new(),
            raw_functions: HashMap::new(),
            typedefs: HashMap::new(),
        };
        let Ok(()) = visit::unit(&mut c, unit);
        let mut t = CalleeTypes {
            typedefs: c.typedefs,
            ..Default::default()
        };
        let conv = |t: &CalleeTypes, raw: &[(Vec<TypeSpecifier>, Declarator)]| {
            raw.iter()
                .map(|(s, d)| t.declared(s, Some(d), 0))
                .collect::<Vec<_>>()
        };
        let objects = c
            .raw_objects
            .iter()
            .map(|(n, raw)| (n.clone(), conv(&t, raw)))
            .collect();
        let members = c
            .raw_members
            .iter()
            .map(|(n, raw)| (n.clone(), conv(&t, raw)))
            .collect();
        let functions = c
            .raw_functions
            .iter()
            .map(|(n, (s, d))| (n.clone(), t.declared(s, Some(d), 0)))
            .collect();
        t.objects = objects;
        t.members = members;
        t.functions = functions;
        add_definitions(&mut t, unit);
        t
    }

    /// May a call through `callee` (the expression before the arguments) reach function
    /// `f`? True whenever a type is unknown.
    pub fn may_reach(&self, callee: &Node<Expression>, f: &str) -> bool {
        let Some(target) = self.functions.get(f) else {
            return true;
        };
        match self.callee(&callee.node) {
            None => true,
            Some(tys) => tys.iter().any(|t| match function_of(t) {
                Some(ptr) => compatible_functions(ptr, target),
                None => true,
            }),
        }
    }

    /// The possible types of a callee expression (a function or a pointer to one); None:
    /// unknown.
    fn callee(&self, e: &Expression) -> Option<Vec<Ty>> {
        match e {
            Expression::Identifier(i) => {
                let n = original_name(&i.node.name);
                if let Some(f) = self.functions.get(n) {
                    return Some(vec![f.clone()]);
                }
                self.objects.get(n).cloned()
            }
            Expression::Member(m) => self.members.get(&m.node.identifier.node.name).cloned(),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let inner = self.callee(&u.node.operand.node)?;
                Some(
                    inner
                        .into_iter()
                        .map(|t| match t {
                            Ty::Pointer(p) | Ty::Array(p) => *p,
                            f @ Ty::Function(..) => f,
                            _ => Ty::Unknown,
                        })
                        .collect(),
                )
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let inner = self.callee(&b.node.lhs.node)?;
                Some(
                    inner
                        .into_iter()
                        .map(|t| match t {
                            Ty::Pointer(p) | Ty::Array(p) => *p,
                            _ => Ty::Unknown,
                        })
                        .collect(),
                )
            }
            Expression::Cast(c) => {
                let tn = &c.node.type_name.node;
                let specs: Vec<TypeSpecifier> = tn
                    .specifiers
                    .iter()
                    .filter_map(|s| match &s.node {
                        SpecifierQualifier::TypeSpecifier(t) => Some(t.node.clone()),
                        _ => None,
                    })
                    .collect();
                Some(vec![self.declared(
                    &specs,
                    tn.declarator.as_ref().map(|d| &d.node),
                    0,
                )])
            }
            _ => None,
        }
    }

    /// The type declared by specifiers and a declarator.
    fn declared(&self, specs: &[TypeSpecifier], d: Option<&Declarator>, depth: usize) -> Ty {
        let base = self.base(specs, depth);
        match d {
            Some(d) => self.apply(base, d, depth),
            None => base,
        }
    }

    fn base(&self, specs: &[TypeSpecifier], depth: usize) -> Ty {
        let mut out = Ty::Number; // `signed`, `unsigned` alone, implicit int
        for s in specs {
            match s {
                TypeSpecifier::Void => out = Ty::Void,
                TypeSpecifier::Struct(st) => {
                    out = match &st.node.identifier {
                        Some(i) => {
                            let kind = ladr_c::syntax::build::struct_keyword(&st.node.kind.node);
                            Ty::Tagged(format!("{kind} {}", i.node.name))
                        }
                        None => Ty::Unknown,
                    }
                }
                TypeSpecifier::TypedefName(n) => out = self.typedef(&n.node.name, depth),
                TypeSpecifier::TypeOf(_) | TypeSpecifier::Atomic(_) => out = Ty::Unknown,
                _ => {}
            }
        }
        out
    }

    fn typedef(&self, name: &str, depth: usize) -> Ty {
        if depth > 32 {
            return Ty::Unknown;
        }
        match self.typedefs.get(name).map(|v| v.as_slice()) {
            Some([(specs, d)]) => self.declared(specs, Some(d), depth + 1),
            Some(several) => {
                let tys: Vec<Ty> = several
                    .iter()
                    .map(|(s, d)| self.declared(s, Some(d), depth + 1))
                    .collect();
                if tys.windows(2).all(|w| w[0] == w[1]) {
                    tys.into_iter().next().unwrap_or(Ty::Unknown)
                } else {
                    Ty::Unknown
                }
            }
            None => Ty::Unknown,
        }
    }

    /// Applies a declarator to the type of its specifiers: its pointers first, then its
    /// array and function parts from the last (innermost) to the first, then its inner
    /// declarator (`(*f)(int)`).
    fn apply(&self, base: Ty, d: &Declarator, depth: usize) -> Ty {
        let mut t = base;
        for _ in d
            .derived
            .iter()
            .filter(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
        {
            t = Ty::Pointer(Box::new(t));
        }
        for x in d.derived.iter().rev() {
            t = match &x.node {
                DerivedDeclarator::Pointer(_) => continue,
                DerivedDeclarator::Array(_) => Ty::Array(Box::new(t)),
                DerivedDeclarator::Function(f) => {
                    let ps = &f.node.parameters;
                    let is_void = ps.len() == 1
                        && ps[0].node.declarator.is_none()
                        && self.param(&ps[0].node, depth) == Ty::Void;
                    let params = if is_void {
                        vec![]
                    } else {
                        ps.iter().map(|p| self.param(&p.node, depth)).collect()
                    };
                    let variadic = matches!(f.node.ellipsis, Ellipsis::Some);
                    Ty::Function(Some(params), variadic, Box::new(t))
                }
                DerivedDeclarator::KRFunction(_) => Ty::Function(None, false, Box::new(t)),
                DerivedDeclarator::Block(_) => Ty::Unknown,
            };
        }
        match &d.kind.node {
            DeclaratorKind::Declarator(inner) => self.apply(t, &inner.node, depth),
            _ => t,
        }
    }

    /// A parameter's type, adjusted: arrays and functions are pointers.
    fn param(&self, p: &ParameterDeclaration, depth: usize) -> Ty {
        let specs = owned_specifiers(&p.specifiers);
        match self.declared(&specs, p.declarator.as_ref().map(|d| &d.node), depth) {
            Ty::Array(t) => Ty::Pointer(t),
            f @ Ty::Function(..) => Ty::Pointer(Box::new(f)),
            t => t,
        }
    }
}

/// The type specifiers of a declaration, owned (kept with typedefs and functions).
fn owned_specifiers(specs: &[Node<DeclarationSpecifier>]) -> Vec<TypeSpecifier> {
    type_specifiers(specs).into_iter().cloned().collect()
}

/// The function type a callee type calls (a function, a pointer to one); None: unknown.
fn function_of(t: &Ty) -> Option<&Ty> {
    match t {
        f @ Ty::Function(..) => Some(f),
        Ty::Pointer(p) => match p.as_ref() {
            f @ Ty::Function(..) => Some(f),
            _ => None,
        },
        _ => None,
    }
}

/// May a function of type `target` be called through a pointer to `ptr`?
fn compatible_functions(ptr: &Ty, target: &Ty) -> bool {
    let (Ty::Function(pp, pv, pr), Ty::Function(tp, tv, tr)) = (ptr, target) else {
        return true;
    };
    let results = **pr == Ty::Void || compatible(pr, tr);
    let params = match (pp, tp) {
        (Some(a), Some(b)) => {
            (a.len() == b.len() || *pv || *tv) && a.iter().zip(b).all(|(x, y)| compatible(x, y))
        }
        _ => true,
    };
    results && params
}

/// May a value of type `a` be passed where `b` is declared (coarsely)?
fn compatible(a: &Ty, b: &Ty) -> bool {
    use Ty::*;
    match (a, b) {
        (Unknown, _) | (_, Unknown) => true,
        (Void, Void) | (Number, Number) => true,
        (Tagged(x), Tagged(y)) => x == y,
        (Pointer(x) | Array(x), Pointer(y) | Array(y)) => compatible_pointees(x, y),
        (Function(..), Function(..)) => true,
        (Function(..), Pointer(_)) | (Pointer(_), Function(..)) => true,
        _ => false,
    }
}

/// Pointers to struct `a` and to struct `b` differ; every other pair of pointers may be
/// passed for each other (`void *`, `char *`, casts between number types).
fn compatible_pointees(a: &Ty, b: &Ty) -> bool {
    use Ty::*;
    match (a, b) {
        (Tagged(x), Tagged(y)) => x == y,
        (Pointer(x), Pointer(y)) => compatible_pointees(x, y),
        _ => true,
    }
}

struct Collect {
    raw_objects: HashMap<String, Vec<(Vec<TypeSpecifier>, Declarator)>>,
    raw_members: HashMap<String, Vec<(Vec<TypeSpecifier>, Declarator)>>,
    raw_functions: HashMap<String, (Vec<TypeSpecifier>, Declarator)>,
    typedefs: HashMap<String, Vec<(Vec<TypeSpecifier>, Declarator)>>,
}

impl Collect {
    fn declaration(&mut self, d: &Declaration) {
        let specs = owned_specifiers(&d.specifiers);
        let typedef = ladr_c::syntax::build::is_typedef(d);
        for id in &d.declarators {
            let decl = &id.node.declarator.node;
            let Some(n) = declarator_name(decl) else {
                continue;
            };
            let entry = (specs.clone(), decl.clone());
            if typedef {
                self.typedefs.entry(n.to_string()).or_default().push(entry);
            } else if ladr_c::syntax::build::is_function_declarator(decl) {
                self.raw_functions.entry(n.to_string()).or_insert(entry);
            } else {
                self.raw_objects
                    .entry(n.to_string())
                    .or_default()
                    .push(entry);
            }
        }
    }
}

impl Visitor for Collect {
    type Error = Infallible;
    fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
        Collect::declaration(self, &d.node);
        Ok(Walk::Descend)
    }
    fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> Result<Walk, Infallible> {
        if let TypeSpecifier::Struct(s) = &t.node {
            for sd in s.node.declarations.iter().flatten() {
                let StructDeclaration::Field(f) = &sd.node else {
                    continue;
                };
                let specs: Vec<TypeSpecifier> = f
                    .node
                    .specifiers
                    .iter()
                    .filter_map(|s| match &s.node {
                        SpecifierQualifier::TypeSpecifier(t) => Some(t.node.clone()),
                        _ => None,
                    })
                    .collect();
                for sdecl in &f.node.declarators {
                    if let Some(d) = &sdecl.node.declarator {
                        if let Some(n) = declarator_name(&d.node) {
                            self.raw_members
                                .entry(n.to_string())
                                .or_default()
                                .push((specs.clone(), d.node.clone()));
                        }
                    }
                }
            }
        }
        Ok(Walk::Descend)
    }
}

/// The parameters of the function definitions are objects too; a definition without an
/// earlier declaration has its own type.
fn add_definitions(t: &mut CalleeTypes, unit: &TranslationUnit) {
    for ext in &unit.0 {
        let ExternalDeclaration::FunctionDefinition(f) = &ext.node else {
            continue;
        };
        let inner = ladr_c::syntax::build::innermost(&f.node.declarator.node);
        for x in &inner.derived {
            if let DerivedDeclarator::Function(fd) = &x.node {
                for p in &fd.node.parameters {
                    let Some(pd) = &p.node.declarator else {
                        continue;
                    };
                    if let Some(n) = declarator_name(&pd.node) {
                        let ty = t.param(&p.node, 0);
                        t.objects.entry(n.to_string()).or_default().push(ty);
                    }
                }
                break;
            }
        }
        // A definition's own type.
        if let Some(n) = function_name(&f.node) {
            if !t.functions.contains_key(n) {
                let specs = owned_specifiers(&f.node.specifiers);
                let ty = t.declared(&specs, Some(&f.node.declarator.node), 0);
                t.functions.insert(n.to_string(), ty);
            }
        }
    }
}
