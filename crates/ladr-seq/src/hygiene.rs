//! One name, one declaration. The analyses after `threads` (`ladr_ir::analysis::Vars`:
//! array depths, scalars, atomic shapes, private thread locals, race-free objects) key their
//! facts by a variable's name, so each name of the program must denote exactly one
//! declaration: then a name *is* the declaration's key. [`rename_apart`] makes it so at the
//! end of `threads`, when the model (`model/*.c`), the kept functions and the slots are all
//! in one unit: every parameter and block-scope object of every function definition whose
//! name is declared anywhere else in the program (at file scope, in another function, or
//! twice in its own function) gets a fresh name ([`Names::local`], so reports still show the
//! user's name), and the parameters of prototypes get fresh names (a prototype's
//! `void f(void *s)` beside `int s[2]` made `s` of uncertain depth).
//!
//! Without it the model's `void *s` parameter made the user's `int s[2]` a variable of
//! uncertain depth, so `s[0] = 1` and `s[1] = 1` in two threads were one object and raced.
//! [`duplicates`] is the check that it holds (the `UniqueNames` invariant).

use ladr_c::syntax::build::*;
use ladr_c::syntax::copy::{Copier, Rename};
use ladr_c::syntax::names::Names;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// Renames apart, in place, every parameter and block-scope object that shares its name
/// with another declaration of the unit (see the module header). File-scope names keep
/// theirs: several file-scope declarations of a name are one object (or one function).
pub fn rename_apart(unit: &mut TranslationUnit, names: &mut Names) {
    let mut taken = file_scope_names(unit);
    for ext in &mut unit.0 {
        match &mut ext.node {
            ExternalDeclaration::FunctionDefinition(f) => {
                let declared = local_declarations(&f.node);
                let set = colliding(&declared, &taken);
                let mut c = Copier::new(names, Rename::Only(set.clone()));
                let inner = innermost_mut(&mut f.node.declarator.node);
                if let Some(fd) = inner.derived.iter_mut().find_map(|d| match &mut d.node {
                    DerivedDeclarator::Function(fd) => Some(fd),
                    _ => None,
                }) {
                    for pd in &mut fd.node.parameters {
                        if let Some(decl) = &mut pd.node.declarator {
                            if let Some(n) = declarator_name_mut(&mut decl.node) {
                                if set.contains(&n.name) {
                                    n.name = c.param(&n.name.clone());
                                }
                            }
                        }
                    }
                }
                c.stmt(&mut f.node.statement);
                taken.extend(declared.into_keys());
            }
            ExternalDeclaration::Declaration(d) => {
                for id in &mut d.node.declarators {
                    rename_prototype_parameters(&mut id.node.declarator.node, names);
                }
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
}

/// Gives the named parameters of a prototype (`int f(int s);`, also inside a declarator of
/// a pointer to function) fresh names.
fn rename_prototype_parameters(d: &mut Declarator, names: &mut Names) {
    if let DeclaratorKind::Declarator(inner) = &mut d.kind.node {
        rename_prototype_parameters(&mut inner.node, names);
    }
    for dd in &mut d.derived {
        if let DerivedDeclarator::Function(fd) = &mut dd.node {
            // A later parameter's array size may name an earlier parameter (glibc's
            // `regexec(…, size_t __nmatch, regmatch_t __pmatch[__nmatch], …)`): renamed too.
            let mut renamed = HashMap::new();
            for pd in &mut fd.node.parameters {
                if let Some(decl) = &mut pd.node.declarator {
                    rename_uses(decl, &renamed);
                    rename_prototype_parameters(&mut decl.node, names);
                    if let Some(n) = declarator_name_mut(&mut decl.node) {
                        let fresh = names.local(&n.name.clone());
                        renamed.insert(n.name.clone(), fresh.clone());
                        n.name = fresh;
                    }
                }
            }
        }
    }
}

/// Renames the identifiers of `d`'s expressions (array sizes, `__typeof__`) by `renamed`.
fn rename_uses(d: &mut Node<Declarator>, renamed: &HashMap<String, String>) {
    use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
    struct R<'a>(&'a HashMap<String, String>);
    impl VisitorMut for R<'_> {
        type Error = Infallible;
        fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk, Infallible> {
            if let Expression::Identifier(id) = &mut e.node {
                if let Some(new) = self.0.get(&id.node.name) {
                    id.node.name = new.clone();
                }
            }
            Ok(Walk::Descend)
        }
    }
    if !renamed.is_empty() {
        let Ok(()) = visit_mut::declarator(&mut R(renamed), d);
    }
}

/// Names declared at file scope (objects, functions, typedefs, enumeration constants).
pub fn file_scope_names(unit: &TranslationUnit) -> HashSet<String> {
    let mut out = HashSet::new();
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => {
                for id in &d.node.declarators {
                    if let Some(n) = declarator_name(&id.node.declarator.node) {
                        out.insert(n.to_string());
                    }
                }
                for s in &d.node.specifiers {
                    if let DeclarationSpecifier::TypeSpecifier(t) = &s.node {
                        if let TypeSpecifier::Enum(e) = &t.node {
                            for en in &e.node.enumerators {
                                out.insert(en.node.identifier.node.name.clone());
                            }
                        }
                    }
                }
            }
            ExternalDeclaration::FunctionDefinition(f) => {
                if let Some(n) = function_name(&f.node) {
                    out.insert(n.to_string());
                }
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
    out
}

/// How many times each name is declared by a function's parameters and block-scope object
/// declarations (`extern` declarations name a file-scope object, typedefs are types: both
/// left out).
fn local_declarations(f: &FunctionDefinition) -> HashMap<String, usize> {
    let mut d = LocalDeclarations(HashMap::new());
    for n in parameter_names(&f.declarator.node) {
        *d.0.entry(n).or_default() += 1;
    }
    let Ok(()) = visit::stmt(&mut d, &f.statement);
    d.0
}

/// Counts the object declarations it visits, by name.
struct LocalDeclarations(HashMap<String, usize>);

impl Visitor for LocalDeclarations {
    type Error = Infallible;
    fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
        let storage = storage_of(&d.node.specifiers);
        if !storage.contains(&StorageClassSpecifier::Typedef)
            && !storage.contains(&StorageClassSpecifier::Extern)
        {
            for id in &d.node.declarators {
                let dd = &id.node.declarator.node;
                if let (false, Some(n)) = (is_function_declarator(dd), declarator_name(dd)) {
                    *self.0.entry(n.to_string()).or_default() += 1;
                }
            }
        }
        Ok(Walk::Descend)
    }
}

/// The names of a function's objects declared more than once in it (locals, or a local and
/// a parameter), wherever their scopes are, or declared in `taken` too: only the function's
/// own names, so renaming is linear in the function's size (a copy of `taken` per function
/// made translation quadratic in the number of functions).
pub fn colliding_locals(f: &FunctionDefinition, taken: &HashSet<String>) -> HashSet<String> {
    colliding(&local_declarations(f), taken)
}

fn colliding(declared: &HashMap<String, usize>, taken: &HashSet<String>) -> HashSet<String> {
    declared
        .iter()
        .filter(|(n, k)| **k > 1 || taken.contains(*n))
        .map(|(n, _)| n.clone())
        .collect()
}

/// The names declared more than once in the unit, where a file-scope name counts once
/// however often it is declared and each parameter or block-scope declaration counts on its
/// own: empty when [`rename_apart`] has run and nothing since declared a name twice.
/// `slot_declarations`: the declarations of the slots' code when it is kept outside the unit
/// (`Program::code`, after `visible`).
pub fn duplicates<'a>(
    unit: &TranslationUnit,
    slot_declarations: impl IntoIterator<Item = &'a Node<Declaration>>,
) -> Vec<String> {
    let mut count: HashMap<String, usize> =
        file_scope_names(unit).into_iter().map(|n| (n, 1)).collect();
    let mut d = LocalDeclarations(HashMap::new());
    for ext in &unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
            for n in parameter_names(&f.node.declarator.node) {
                *d.0.entry(n).or_default() += 1;
            }
            let Ok(()) = visit::stmt(&mut d, &f.node.statement);
        }
    }
    for decl in slot_declarations {
        let Ok(_) = d.declaration(decl);
    }
    for (n, k) in d.0 {
        *count.entry(n).or_default() += k;
    }
    let mut out: Vec<String> = count
        .into_iter()
        .filter(|(_, k)| *k > 1)
        .map(|(n, _)| n)
        .collect();
    out.sort();
    out
}
