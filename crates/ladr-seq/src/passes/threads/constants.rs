//! Constant expressions of a slot's body: the enumeration constants of the program, and
//! the locals assigned a constant once ([`once_constants`]), whose reads the `malloc` size
//! test puts in ([`constant_read`]).

use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::query::Enumerators;
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
            let v = with_constants(&once[*n], &known);
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

/// `e` with the reads of `constants`' variables replaced by their values ([`constant_read`]):
/// `n * sizeof(*a)` after `n = 512;` is `(__typeof__(n))(512) * sizeof(*a)`.
pub(super) fn with_constants(
    e: &Node<Expression>,
    constants: &HashMap<String, Node<Expression>>,
) -> Node<Expression> {
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
    let mut v = e.clone();
    let Ok(()) = visit_mut::expr(&mut ConstantSubstituter(constants), &mut v);
    v
}

/// An integer constant expression ([`ladr_c::syntax::constant`]) whose names are
/// `enumerators`.
pub(super) fn is_constant(e: &Expression, enumerators: &HashSet<String>) -> bool {
    constant::is_constant(e, &constant::Env::enumerators(enumerators))
}

/// Every enumeration constant declared in the program (at file scope, in a function, in a
/// function's return type: [`Enumerators`]).
pub(super) fn enumerators(
    others: &[Node<ExternalDeclaration>],
    defs: &HashMap<String, FunctionDefinition>,
) -> HashSet<String> {
    let mut found = Enumerators::default();
    for ext in others {
        found.external(&ext.node);
    }
    for f in defs.values() {
        found.function(f);
    }
    found.into_set()
}
