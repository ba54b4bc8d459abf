//! Unused file-scope definitions left out of the sequential program (used by `lazy`, last):
//! a function, object or typedef that nothing kept names is not printed, so CBMC's front
//! end neither parses, type-checks nor converts it, and its symbolic execution gives no
//! unused global its initial value and shadow memory (issue 33: a real harness's
//! sequential program carries every prototype and typedef of the system headers it
//! includes, and every function of the libraries it links, most never called).
//!
//! Kept always: `main`; every declaration that defines a `struct`, `union` or `enum` body
//! (another declaration may name its tag, an enumerator may be used) or declares nothing;
//! an item with an attribute that makes it matter unnamed (`constructor`, `used`, `alias`,
//! …), and the definition of a function whose prototype has one. Kept then: what a
//! kept item names (an identifier, under `sizeof` and `__typeof__` too, or a typedef
//! name), to a fixed point. Leaving out what no kept item names changes no behaviour: a
//! file-scope object that nothing names is never read or written, and a function that
//! nothing names is never called (its address is never taken).

use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashSet;
use std::convert::Infallible;

/// The names an item mentions: identifiers and typedef names.
#[derive(Default)]
struct Mentions(HashSet<String>);

impl Visitor for Mentions {
    type Error = Infallible;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        if let Some(n) = ident_name(e) {
            self.0.insert(n.to_string());
        }
        Ok(Walk::Descend)
    }
    fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> Result<Walk, Infallible> {
        if let TypeSpecifier::TypedefName(n) = &t.node {
            self.0.insert(n.node.name.clone());
        }
        Ok(Walk::Descend)
    }
}

/// True if the specifiers define a `struct`/`union`/`enum` body, at any depth.
fn defines_tag_body(d: &Node<Declaration>) -> bool {
    struct Finder;
    impl Visitor for Finder {
        /// Found one.
        type Error = ();
        fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> Result<Walk, ()> {
            match &t.node {
                TypeSpecifier::Struct(s) if s.node.declarations.is_some() => Err(()),
                TypeSpecifier::Enum(_) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
    }
    visit::declaration(&mut Finder, d).is_err()
}

/// An attribute that makes an unnamed function run or an unnamed object matter:
/// `constructor`, `destructor`, `used`, `alias`, `weakref`, `cleanup`.
fn is_lifecycle(exts: &[Node<Extension>]) -> bool {
    exts.iter().any(|e| match &e.node {
        Extension::Attribute(a) => matches!(
            a.name.node.trim_matches('_'),
            "constructor" | "destructor" | "used" | "alias" | "weakref" | "cleanup"
        ),
        _ => false,
    })
}

fn specifiers_lifecycle(specs: &[Node<DeclarationSpecifier>]) -> bool {
    specs.iter().any(|s| match &s.node {
        DeclarationSpecifier::Extension(e) => is_lifecycle(e),
        _ => false,
    })
}

/// True if the item carries a lifecycle attribute ([`is_lifecycle`]).
fn has_lifecycle_attribute(ext: &ExternalDeclaration) -> bool {
    match ext {
        ExternalDeclaration::FunctionDefinition(f) => {
            specifiers_lifecycle(&f.node.specifiers)
                || is_lifecycle(&f.node.declarator.node.extensions)
        }
        ExternalDeclaration::Declaration(d) => {
            specifiers_lifecycle(&d.node.specifiers)
                || d.node
                    .declarators
                    .iter()
                    .any(|id| is_lifecycle(&id.node.declarator.node.extensions))
        }
        ExternalDeclaration::StaticAssert(_) => false,
    }
}

/// The names an item defines, if nothing else keeps it.
fn removable_names(ext: &ExternalDeclaration) -> Option<Vec<String>> {
    if has_lifecycle_attribute(ext) {
        return None;
    }
    match ext {
        ExternalDeclaration::FunctionDefinition(f) => {
            let name = declarator_name(&f.node.declarator.node)?;
            (name != "main").then(|| vec![name.to_string()])
        }
        ExternalDeclaration::Declaration(d) => {
            if d.node.declarators.is_empty() || defines_tag_body(d) {
                return None;
            }
            d.node
                .declarators
                .iter()
                .map(|id| declarator_name(&id.node.declarator.node).map(str::to_string))
                .collect()
        }
        ExternalDeclaration::StaticAssert(_) => None,
    }
}

fn mentions_of(ext: &Node<ExternalDeclaration>) -> HashSet<String> {
    let mut m = Mentions::default();
    let Ok(()) = match &ext.node {
        ExternalDeclaration::FunctionDefinition(f) => visit::function(&mut m, f),
        ExternalDeclaration::Declaration(d) => visit::declaration(&mut m, d),
        ExternalDeclaration::StaticAssert(_) => Ok(()),
    };
    m.0
}

/// Leaves out of `unit` the functions, objects and typedefs that nothing kept names.
pub fn drop_unused(unit: &mut TranslationUnit) {
    let items: Vec<(Option<Vec<String>>, HashSet<String>)> = unit
        .0
        .iter()
        .map(|ext| (removable_names(&ext.node), mentions_of(ext)))
        .collect();
    let mut kept: Vec<bool> = items.iter().map(|(r, _)| r.is_none()).collect();
    // A lifecycle attribute on a prototype keeps the definition too.
    let mut named: HashSet<&str> = HashSet::new();
    for ext in &unit.0 {
        if has_lifecycle_attribute(&ext.node) {
            if let ExternalDeclaration::Declaration(d) = &ext.node {
                named.extend(
                    d.node
                        .declarators
                        .iter()
                        .filter_map(|id| declarator_name(&id.node.declarator.node)),
                );
            }
        }
    }
    let mut todo: Vec<usize> = (0..items.len()).filter(|&i| kept[i]).collect();
    loop {
        for i in todo.drain(..) {
            named.extend(items[i].1.iter().map(String::as_str));
        }
        for (i, (names, _)) in items.iter().enumerate() {
            if !kept[i]
                && names
                    .as_ref()
                    .is_some_and(|ns| ns.iter().any(|n| named.contains(n.as_str())))
            {
                kept[i] = true;
                todo.push(i);
            }
        }
        if todo.is_empty() {
            break;
        }
    }
    let mut k = kept.into_iter();
    unit.0.retain(|_| k.next().unwrap_or(true));
}
