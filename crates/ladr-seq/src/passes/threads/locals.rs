//! A slot's locals made `static` (their values must survive between contexts): every
//! declaration of the body moved to file scope ([`make_locals_static`]), typedefs renamed
//! apart, variable-length arrays given [`VLA_CAPACITY`] elements.

use super::constants::is_constant;
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// Moves every declaration of a slot body to `statics`, made `static` (values must survive
/// between contexts). Returns the names of the formerly automatic locals. A typedef of the
/// body moves with them (the locals declared with it need it at file scope), renamed to a
/// fresh name so that the copies of one routine in several slots, and other functions'
/// typedefs of the same name, do not clash.
pub(super) fn make_locals_static(
    body: &mut Node<Statement>,
    statics: &mut Vec<Node<Declaration>>,
    enumerators: &HashSet<String>,
    names: &mut Names,
    vla_rows: &mut HashMap<String, String>,
) -> Result<Vec<String>> {
    rename_local_typedefs(body, names)?;
    struct LocalHoister<'a> {
        out: &'a mut Vec<Node<Declaration>>,
        enumerators: &'a HashSet<String>,
        names: &'a mut Names,
        /// Locals whose rows have a variable length, kept as lengths and memory.
        vla: HashMap<String, super::vla::Use>,
        autos: Vec<String>,
        /// Locals made static where they are: a declaration naming one stays too.
        stay: HashSet<String>,
    }
    impl LocalHoister<'_> {
        fn autos_of(&mut self, d: &Node<Declaration>) {
            self.autos.extend(declared_names(d));
        }
    }
    impl VisitorMut for LocalHoister<'_> {
        type Error = Error;
        fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk> {
            let Statement::Compound(items) = &mut s.node else {
                return Ok(Walk::Descend);
            };
            let mut kept = vec![];
            for mut it in std::mem::take(items) {
                let BlockItem::Declaration(d) = &mut it.node else {
                    visit_mut::block_item(self, &mut it)?;
                    kept.push(it);
                    continue;
                };
                if is_typedef(&d.node) {
                    // Renamed apart by `rename_local_typedefs`.
                    self.out.push(d.clone());
                    continue;
                }
                if is_typedef_or_extern(&d.node) {
                    // Extern declarations stay where they are.
                    kept.push(it);
                    continue;
                }
                let before = self.out.len();
                if let Some((name, u, stmts)) =
                    super::vla::rewrite(d, self.enumerators, self.names, self.out)?
                {
                    self.vla.insert(name, u);
                    let added: Vec<String> =
                        self.out[before..].iter().flat_map(declared_names).collect();
                    self.autos.extend(added);
                    kept.extend(stmts.into_iter().map(item));
                    continue;
                }
                let was_static = make_static(d, self.enumerators)?;
                if type_has_statement_expression(&d.node) || mentions(d, &self.stay) {
                    // `__typeof__(({ ... }))` (a temporary of a statement expression) is
                    // only valid inside a function: made static where it is, and so is a
                    // declaration whose type names such a local (`__typeof__(t + 1)`), which
                    // at file scope would come before it.
                    self.stay.extend(d.node.declarators.iter().filter_map(|id| {
                        declarator_name(&id.node.declarator.node).map(str::to_string)
                    }));
                    self.autos_of(d);
                    kept.push(it);
                    continue;
                }
                if was_static {
                    // One object for all slots: `inline` hoists every static local to
                    // file scope before any body is copied.
                    return Err(Error::unsupported(
                        d.span,
                        "a static local left in a thread body (ladr bug: `inline` hoists them)",
                    ));
                }
                self.autos_of(d);
                self.out.push(d.clone());
            }
            *items = kept;
            Ok(Walk::Skip)
        }
        fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk> {
            // Statement expressions keep their own declarations.
            Ok(match e.node {
                Expression::Statement(_) => Walk::Skip,
                _ => Walk::Descend,
            })
        }
    }
    let mut h = LocalHoister {
        out: statics,
        enumerators,
        names,
        vla: HashMap::new(),
        autos: vec![],
        stay: HashSet::new(),
    };
    visit_mut::stmt(&mut h, body)?;
    super::vla::rewrite_uses(body, &h.vla)?;
    vla_rows.extend(h.vla.values().map(super::vla::Use::view));
    Ok(h.autos)
}

/// The names `d` declares.
fn declared_names(d: &Node<Declaration>) -> impl Iterator<Item = String> + '_ {
    d.node
        .declarators
        .iter()
        .filter_map(|id| declarator_name(&id.node.declarator.node).map(str::to_string))
}

pub(super) fn is_typedef(d: &Declaration) -> bool {
    d.specifiers.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::StorageClass(sc)
            if sc.node == StorageClassSpecifier::Typedef)
    })
}

/// Gives every typedef declared in `body` (outside statement expressions) a fresh name, and
/// its uses in `body` that name. Two typedefs of one name in one body are unsupported.
fn rename_local_typedefs(body: &mut Node<Statement>, names: &mut Names) -> Result<()> {
    struct TypedefRenamer<'a> {
        names: &'a mut Names,
        map: HashMap<String, String>,
    }
    impl VisitorMut for TypedefRenamer<'_> {
        type Error = Error;
        fn declaration(&mut self, d: &mut Node<Declaration>) -> Result<Walk> {
            if !is_typedef(&d.node) {
                return Ok(Walk::Descend);
            }
            for id in &mut d.node.declarators {
                let Some(old) = declarator_name(&id.node.declarator.node).map(str::to_string)
                else {
                    continue;
                };
                if self.map.contains_key(&old) {
                    return Err(Error::unsupported(
                        d.span,
                        format!("two local typedefs named `{old}` in one thread"),
                    ));
                }
                let new = self.names.local(&old);
                rename_declarator(&mut id.node.declarator.node, &new);
                self.map.insert(old, new);
            }
            Ok(Walk::Descend)
        }
        fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk> {
            Ok(match e.node {
                Expression::Statement(_) => Walk::Skip,
                _ => Walk::Descend,
            })
        }
    }
    struct TypedefUseRenamer<'a>(&'a HashMap<String, String>);
    impl VisitorMut for TypedefUseRenamer<'_> {
        type Error = Infallible;
        fn type_specifier(
            &mut self,
            t: &mut Node<TypeSpecifier>,
        ) -> std::result::Result<Walk, Infallible> {
            if let TypeSpecifier::TypedefName(n) = &mut t.node {
                if let Some(new) = self.0.get(&n.node.name) {
                    n.node.name = new.clone();
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut f = TypedefRenamer {
        names,
        map: HashMap::new(),
    };
    visit_mut::stmt(&mut f, body)?;
    if !f.map.is_empty() {
        let Ok(()) = visit_mut::stmt(&mut TypedefUseRenamer(&f.map), body);
    }
    Ok(())
}

/// Renames the identifier a declarator declares.
fn rename_declarator(d: &mut Declarator, new: &str) {
    match &mut d.kind.node {
        DeclaratorKind::Identifier(i) => i.node.name = new.to_string(),
        DeclaratorKind::Declarator(inner) => rename_declarator(&mut inner.node, new),
        DeclaratorKind::Abstract => {}
    }
}

/// True if a declaration's specifiers contain a GNU statement expression (in `__typeof__`).
fn type_has_statement_expression(d: &Declaration) -> bool {
    struct StatementExpressionFinder;
    impl Visitor for StatementExpressionFinder {
        /// Found one.
        type Error = ();
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            match e.node {
                Expression::Statement(_) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
    }
    d.specifiers
        .iter()
        .any(|s| visit::decl_specifier(&mut StatementExpressionFinder, s).is_err())
}

/// True if `d` (its type, declarators or initialisers) names one of `names`.
fn mentions(d: &Node<Declaration>, names: &HashSet<String>) -> bool {
    struct NameFinder<'a>(&'a HashSet<String>);
    impl Visitor for NameFinder<'_> {
        /// Found one.
        type Error = ();
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            match &e.node {
                Expression::Identifier(i) if self.0.contains(&i.node.name) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
    }
    !names.is_empty() && visit::declaration(&mut NameFinder(names), d).is_err()
}

fn is_typedef_or_extern(d: &Declaration) -> bool {
    d.specifiers.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::StorageClass(sc)
            if matches!(sc.node, StorageClassSpecifier::Typedef | StorageClassSpecifier::Extern))
    }) || d
        .declarators
        .iter()
        .all(|id| is_function_declarator(&id.node.declarator.node))
        && !d.declarators.is_empty()
}

/// Makes `d` static; returns whether it already was.
fn make_static(d: &mut Node<Declaration>, enumerators: &HashSet<String>) -> Result<bool> {
    let was_static = d.node.specifiers.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::StorageClass(sc) if sc.node == StorageClassSpecifier::Static)
    });
    d.node.specifiers.retain(|s| {
        !matches!(&s.node, DeclarationSpecifier::StorageClass(sc)
            if matches!(sc.node, StorageClassSpecifier::Auto | StorageClassSpecifier::Register | StorageClassSpecifier::Static))
    });
    // A top-level `const` on an automatic local would make its assignments invalid.
    if !was_static {
        d.node.specifiers.retain(|s| {
            !matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Const)
        });
    }
    for id in &mut d.node.declarators {
        if !was_static {
            bound_vla(&mut id.node.declarator, enumerators);
        }
        // An initialiser kept here is constant (normal form N4: `char s[] = "..";`), which
        // means the same for a static in a bounded, once-run body.
    }
    let span = d.span;
    d.node
        .specifiers
        .insert(0, storage(StorageClassSpecifier::Static, span));
    Ok(was_static)
}

/// Elements given to a variable-length array local of a thread when it becomes static.
/// A bounded program runs loops at most `--max-unwind` (default 100) times, so indices
/// beyond this are out of the array's bounds in the executions ladr explores anyway, unless
/// computed from large values; `sizeof` such an array is this capacity, not its length.
pub const VLA_CAPACITY: u64 = 256;

/// Gives every variable-length array dimension of `d` the constant [`VLA_CAPACITY`] (a
/// static cannot have a variable length). The length expression had no side effects
/// (`normalise` hoists them), so dropping it changes nothing else.
fn bound_vla(d: &mut Node<Declarator>, enumerators: &HashSet<String>) {
    if let DeclaratorKind::Declarator(inner) = &mut d.node.kind.node {
        bound_vla(inner, enumerators);
    }
    for dd in &mut d.node.derived {
        if let DerivedDeclarator::Array(a) = &mut dd.node {
            if let ArraySize::VariableExpression(e) = &mut a.node.size {
                if !is_constant(&e.node, enumerators) {
                    let span = e.span;
                    **e = int(VLA_CAPACITY, span);
                }
            }
        }
    }
}
