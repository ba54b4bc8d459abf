//! What bounds loops in `unwind`: the value of a constant expression, the constant globals
//! (never written nor address-taken), the locals assigned a constant once, and which names
//! of a function are locals and which have their address taken.

use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::{Walk, WrittenNames};
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// The value of an integer constant expression, with `env`'s locals known
/// ([`ladr_c::syntax::constant`]); `None` when it is not one or its value is not computed.
pub(super) fn constant(e: &Node<Expression>, env: &HashMap<String, i128>) -> Option<i128> {
    constant::value(&e.node, &constant::Env::values(env))
}

/// The private locals (not parameters' callers' business: parameters are locals too, but
/// they have no write in the body) written exactly once in `f`, by `x = c` with `c` an
/// integer constant expression (`enumerators` known). `__CPROVER_havoc_object(&x)` counts
/// as a write.
pub(super) fn constant_locals(
    f: &FunctionDefinition,
    locals: &HashSet<String>,
    taken: &HashSet<String>,
    enumerators: &HashMap<String, i128>,
) -> HashMap<String, i128> {
    ladr_ir::analysis::assigned_once(&f.statement)
        .into_iter()
        .filter(|(n, _)| locals.contains(n) && !taken.contains(n))
        .filter_map(|(n, rhs)| Some((n, constant(&rhs, enumerators)?)))
        .collect()
}

/// The constant globals: file-scope scalar objects initialised with an integer constant
/// expression, not `volatile`, and never written (assigned, incremented, decremented) nor
/// address-taken anywhere in the program (a name written or taken in any function, even a
/// local that shadows it, disqualifies it). Their value is their initialiser's, so a loop
/// bounded by one (`for (i = 0; i < nthreads; i++)`) is unwound completely like one bounded
/// by a literal.
pub(super) fn constant_globals(
    unit: &TranslationUnit,
    enumerators: &HashMap<String, i128>,
) -> HashMap<String, i128> {
    let mut out: HashMap<String, i128> = HashMap::new();
    let mut seen: HashSet<String> = HashSet::new();
    for ext in &unit.0 {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let st = storage_of(&d.node.specifiers);
        let volatile = is_volatile(&d.node.specifiers);
        if st.contains(&StorageClassSpecifier::Typedef) {
            continue;
        }
        for id in &d.node.declarators {
            let dd = &id.node.declarator.node;
            let Some(n) = declarator_name(dd) else {
                continue;
            };
            let value = match &id.node.initializer {
                Some(i) if dd.derived.is_empty() && !volatile => match &i.node {
                    Initializer::Expression(e) => constant(e, enumerators),
                    _ => None,
                },
                _ => None,
            };
            match value {
                Some(v) if !seen.contains(n) => {
                    out.insert(n.to_string(), v);
                }
                // A second definition, or one that is not a constant scalar: not constant.
                _ if id.node.initializer.is_some() || !dd.derived.is_empty() => {
                    out.remove(n);
                }
                _ => {}
            }
            seen.insert(n.to_string());
        }
    }
    if !out.is_empty() {
        let mut w = WrittenNames::default();
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::FunctionDefinition(f) => {
                    let Ok(()) = visit::stmt(&mut w, &f.node.statement);
                }
                // File-scope initialisers (`int *p = &n;`) take addresses too.
                ExternalDeclaration::Declaration(d) => {
                    let Ok(()) = visit::declaration(&mut w, d);
                }
                _ => {}
            }
        }
        out.retain(|n, _| !w.0.contains(n));
    }
    out
}

/// The constant globals ([`constant_globals`]) whose reads a condition may be folded with:
/// those of an integer type written with integer keywords or an `enum` (not `_Bool`, a
/// floating type nor a typedef, whose conversions the value could miss) and a value in
/// 0..=127, which every such type holds unchanged. `int verbosity = 0;` never written makes
/// `if (verbosity >= VERB_ALGO) log(…)` dead.
pub(super) fn foldable_globals(
    unit: &TranslationUnit,
    globals: &HashMap<String, i128>,
) -> HashMap<String, i128> {
    let mut out = HashMap::new();
    for ext in &unit.0 {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        for n in integer_objects(&d.node) {
            if let Some(v) = globals.get(n).filter(|v| (0..=127).contains(*v)) {
                out.insert(n.to_string(), *v);
            }
        }
    }
    out
}

/// The constant globals ([`constant_globals`]) whose value is exactly their initialiser's
/// in their own type, for the proof's index bounds (`prove::bounds`): the foldable ones
/// ([`foldable_globals`], 0..=127), and those of 0..=32767 (which every `int`, `long` and
/// their `unsigned` holds) declared with integer keywords but no `char`, `short` or `_Bool`.
pub(crate) fn exact_globals(unit: &TranslationUnit) -> HashMap<String, i128> {
    let enumerators = enumerator_values(unit);
    let globals = constant_globals(unit, &enumerators);
    let mut out = foldable_globals(unit, &globals);
    for ext in &unit.0 {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let wide = d.node.specifiers.iter().all(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => matches!(
                t.node,
                TypeSpecifier::Int
                    | TypeSpecifier::Long
                    | TypeSpecifier::Signed
                    | TypeSpecifier::Unsigned
            ),
            _ => true,
        });
        if !wide {
            continue;
        }
        for n in integer_objects(&d.node) {
            if let Some(v) = globals.get(n).filter(|v| (0..=32767).contains(*v)) {
                out.insert(n.to_string(), *v);
            }
        }
    }
    out
}

/// The objects `d` declares with an integer type written with integer keywords or an
/// `enum` (no `_Bool`, floating type, typedef name, pointer or array).
fn integer_objects(d: &Declaration) -> Vec<&str> {
    let integer = d.specifiers.iter().all(|s| match &s.node {
        DeclarationSpecifier::TypeSpecifier(t) => {
            is_integer_keyword(&t.node) || matches!(t.node, TypeSpecifier::Enum(_))
        }
        _ => true,
    });
    if !integer {
        return vec![];
    }
    d.declarators
        .iter()
        .filter(|id| id.node.declarator.node.derived.is_empty())
        .filter_map(|id| declarator_name(&id.node.declarator.node))
        .collect()
}

/// The locals of `consts` ([`constant_locals`]: written once, with a constant) that a
/// condition may be folded with, as [`foldable_globals`]: of an integer type written with
/// integer keywords or an `enum`, with a value in 0..=127 (an inlined call's
/// `level = VERB_QUERY;` makes `if (verbosity >= level)` constant).
pub(super) fn foldable_locals(
    f: &FunctionDefinition,
    consts: &HashMap<String, i128>,
) -> HashMap<String, i128> {
    struct Integers(HashSet<String>);
    impl Visitor for Integers {
        type Error = Infallible;
        fn declaration(&mut self, d: &Node<Declaration>) -> std::result::Result<Walk, Infallible> {
            self.0
                .extend(integer_objects(&d.node).into_iter().map(str::to_string));
            Ok(Walk::Descend)
        }
    }
    let mut integers = Integers(HashSet::new());
    let Ok(()) = visit::stmt(&mut integers, &f.statement);
    consts
        .iter()
        .filter(|(n, v)| integers.0.contains(*n) && (0..=127).contains(*v))
        .map(|(n, v)| (n.clone(), *v))
        .collect()
}

/// The values of the program's enumeration constants (anywhere: at file scope, in a
/// function, in a type name): counted on from the previous one or given by a constant
/// expression of those before. A name declared twice (an enumerator of a block shadowing
/// one of the file) and the rest of an enumeration after a value not computed are left out.
pub(super) fn enumerator_values(unit: &TranslationUnit) -> HashMap<String, i128> {
    struct Values {
        values: HashMap<String, i128>,
        twice: HashSet<String>,
    }
    impl Visitor for Values {
        type Error = Infallible;
        fn type_specifier(
            &mut self,
            t: &Node<TypeSpecifier>,
        ) -> std::result::Result<Walk, Infallible> {
            let TypeSpecifier::Enum(en) = &t.node else {
                return Ok(Walk::Descend);
            };
            let mut next = Some(0);
            for e in &en.node.enumerators {
                let name = &e.node.identifier.node.name;
                let value = match &e.node.expression {
                    Some(x) => next.and_then(|_| constant(x, &self.values)),
                    None => next,
                };
                if self.values.contains_key(name) {
                    self.twice.insert(name.clone());
                }
                if let Some(v) = value {
                    self.values.insert(name.clone(), v);
                }
                next = value.map(|v| v + 1);
            }
            Ok(Walk::Descend)
        }
    }
    let mut v = Values {
        values: HashMap::new(),
        twice: HashSet::new(),
    };
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => {
                let Ok(()) = visit::declaration(&mut v, d);
            }
            ExternalDeclaration::FunctionDefinition(f) => {
                for s in &f.node.specifiers {
                    let Ok(()) = visit::decl_specifier(&mut v, s);
                }
                let Ok(()) = visit::stmt(&mut v, &f.node.statement);
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
    let Values { mut values, twice } = v;
    values.retain(|n, _| !twice.contains(n));
    values
}

/// Locals/parameters of a function, and the names whose address is taken in it.
pub(super) fn locals_and_taken(f: &FunctionDefinition) -> (HashSet<String>, HashSet<String>) {
    struct LocalsAndTaken(HashSet<String>, HashSet<String>);
    impl Visitor for LocalsAndTaken {
        type Error = Infallible;
        fn declaration(&mut self, d: &Node<Declaration>) -> std::result::Result<Walk, Infallible> {
            let st = storage_of(&d.node.specifiers);
            if !st.contains(&StorageClassSpecifier::Static)
                && !st.contains(&StorageClassSpecifier::Extern)
            {
                for id in &d.node.declarators {
                    if let Some(n) = declarator_name(&id.node.declarator.node) {
                        self.0.insert(n.to_string());
                    }
                }
            }
            Ok(Walk::Descend)
        }
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            // N4's havoc of an uninitialised local is not an escape of its address.
            if let Expression::Call(c) = &e.node {
                if callee_name(&c.node) == Some(abi::HAVOC) {
                    return Ok(Walk::Skip);
                }
            }
            if let Expression::UnaryOperator(u) = &e.node {
                if matches!(u.node.operator.node, UnaryOperator::Address) {
                    if let Some(n) = ident_name(&u.node.operand) {
                        self.1.insert(n.to_string());
                    }
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut l = LocalsAndTaken(
        parameter_names(&f.declarator.node).into_iter().collect(),
        HashSet::new(),
    );
    let Ok(()) = visit::stmt(&mut l, &f.statement);
    (l.0, l.1)
}
