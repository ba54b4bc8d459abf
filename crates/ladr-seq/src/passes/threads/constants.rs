//! Constant expressions of a slot's body: the enumeration constants of the program, and
//! the locals assigned a constant once ([`once_constants`]), whose reads the `malloc` size
//! test puts in ([`constant_read`]).

use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// `e` if it reads a local of `constants`: its value there, as [`folded`] puts it.
pub(super) fn constant_read(
    e: &Node<Expression>,
    constants: &HashMap<String, Node<Expression>>,
) -> Option<Node<Expression>> {
    let x = ident_name(e)?;
    Some(folded(x, constants.get(x)?.clone(), e.span))
}

/// The ladr-named locals of a slot body assigned exactly once (`once`) whose value is a
/// constant expression once the values of other such locals are put in for their reads,
/// with that expression: after `n = 600; size = n + 2200;` (an inlined allocator's
/// parameters) `size` holds `(__typeof__(n))(600) + 2200`. A read replaced keeps its
/// variable's type ([`folded`]).
pub(super) fn once_constants(
    once: &HashMap<String, Node<Expression>>,
    enumerators: &HashSet<String>,
) -> HashMap<String, Node<Expression>> {
    struct ConstantSubstituter<'a>(&'a HashMap<String, Node<Expression>>);
    impl VisitorMut for ConstantSubstituter<'_> {
        type Error = Infallible;
        fn expr(&mut self, e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
            if let Some(v) = constant_read(e, self.0) {
                *e = v;
                return Ok(Walk::Skip);
            }
            Ok(Walk::Descend)
        }
    }
    let mut names: Vec<&String> = once
        .keys()
        .filter(|n| n.starts_with(ladr_c::syntax::names::PREFIX))
        .collect();
    names.sort();
    let mut known: HashMap<String, Node<Expression>> = HashMap::new();
    loop {
        let mut grew = false;
        for n in &names {
            if known.contains_key(*n) {
                continue;
            }
            let mut v = once[*n].clone();
            let Ok(()) = visit_mut::expr(&mut ConstantSubstituter(&known), &mut v);
            if is_constant(&v.node, enumerators) {
                known.insert((*n).clone(), v);
                grew = true;
            }
        }
        if !grew {
            return known;
        }
    }
}

/// An integer constant expression ([`ladr_c::syntax::constant`]) whose names are
/// `enumerators`.
pub(super) fn is_constant(e: &Expression, enumerators: &HashSet<String>) -> bool {
    constant::is_constant(e, &constant::Env::enumerators(enumerators))
}

/// Every enumeration constant declared in the program (at file scope or in a function).
pub(super) fn enumerators(
    others: &[Node<ExternalDeclaration>],
    defs: &HashMap<String, FunctionDefinition>,
) -> HashSet<String> {
    #[derive(Default)]
    struct EnumeratorCollector(HashSet<String>);
    impl Visitor for EnumeratorCollector {
        type Error = Infallible;
        fn type_specifier(
            &mut self,
            t: &Node<TypeSpecifier>,
        ) -> std::result::Result<Walk, Infallible> {
            if let TypeSpecifier::Enum(en) = &t.node {
                for e in &en.node.enumerators {
                    self.0.insert(e.node.identifier.node.name.clone());
                }
            }
            Ok(Walk::Descend)
        }
    }
    // A function's specifiers too: an enum may be defined in its return type.
    fn function(
        v: &mut EnumeratorCollector,
        f: &FunctionDefinition,
    ) -> std::result::Result<(), Infallible> {
        for s in &f.specifiers {
            visit::decl_specifier(v, s)?;
        }
        visit::declarator(v, &f.declarator)?;
        for d in &f.declarations {
            visit::declaration(v, d)?;
        }
        visit::stmt(v, &f.statement)
    }
    let mut v = EnumeratorCollector::default();
    for ext in others {
        let Ok(()) = match &ext.node {
            ExternalDeclaration::Declaration(d) => visit::declaration(&mut v, d),
            ExternalDeclaration::StaticAssert(_) => Ok(()),
            ExternalDeclaration::FunctionDefinition(f) => function(&mut v, &f.node),
        };
    }
    for f in defs.values() {
        let Ok(()) = function(&mut v, f);
    }
    v.0
}
