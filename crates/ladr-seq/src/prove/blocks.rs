//! Blocks `main` allocates once, as arrays of `main` (issue 31; `docs/decisions/static.md`,
//! "Heap blocks allocated once"). A program that allocates its arrays with `malloc` in
//! `main` (or in a function spliced into it, [`super::splice`]) and hands them to a region
//! reaches them through pointers only, so every access is one of the whole block. A block
//! allocated once is one object as an array of `main` is one object, and read as one, the
//! array aliases ([`super::alias`]) tell its elements apart. A top-level statement
//! `t = malloc(e);` (or `calloc`, neither defined in the unit; or `f(…)` of a function
//! without a body whose result the bounded check assumes is a fresh object, as
//! PolyBench's `polybench_alloc_data`: the proof then makes that assumption too, and says
//! so) of `main` becomes `T m@malloc[1]; t = m@malloc;` (or `T m@malloc[N1]…[Nk];
//! t = &m@malloc;` for one pointer `T (*m)[N1]…[Nk]`) when:
//!  * it runs at most once: `main` is named nowhere (one call of it), and no label precedes
//!    the statement in `main`'s body (no jump goes back to it);
//!  * `t` is a local of `main` declared once, and the program reads `t`'s value into
//!    pointers `T *m` (`m = t;`, `m = (T *)t;`, `m` a local of `main` declared `T *m`),
//!    all of one printed type `T`: the type the block's elements are used as (the array is
//!    named after the first of them by name); or into one pointer to arrays
//!    `T (*m)[N1]…[Nk]`, whose `*m` is then the array (`alias`' chain reads `p = *m;`
//!    with `m = &A` as `p = A`).
//!
//! The array's size is immaterial (the proof never reads sizes); the block's start is the
//! array's. What the rewrite drops is the null pointer `malloc` may return, through which
//! no access survives, and the block's end of life at `free`, after which no access is
//! defined. Only the proof sees the rewritten unit.

use super::alias::{Source, Uses};
use crate::model::library;
use crate::passes::threads::returns::Returns;
use ladr_c::syntax::build;
use ladr_c::syntax::walk::visit;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{HashMap, HashSet};

/// `t = malloc(e);` / `t = calloc(…);` as a statement: `t`; or `t = f(…);` of a function
/// `f` without a body whose result the bounded check assumes is a fresh object
/// (`passes::threads`' `invented_result`): `t` and `f`, an assumption of the proof.
fn allocation<'i>(
    i: &'i Node<BlockItem>,
    defined: &HashSet<&str>,
    returns: &HashMap<String, Returns>,
) -> Option<(&'i str, Option<&'i str>)> {
    let (t, value) = super::worksharing::assignment(i)?;
    let Expression::Call(c) = &value.node else {
        return None;
    };
    let f = build::callee_name(&c.node)?;
    if defined.contains(f) {
        return None;
    }
    if matches!(f, "malloc" | "calloc") {
        return Some((t, None));
    }
    let fresh = returns.get(f)?.fresh(f);
    (fresh && library::invents_result(f)).then_some((t, Some(f)))
}

/// The pointers `t`'s value is copied into, as [`copies`] finds them: the first by name,
/// its `T`, and for one pointer to arrays `T (*m)[N1]…[Nk]`, those dimensions.
struct Copies<'u> {
    name: &'u str,
    specs: Vec<Node<DeclarationSpecifier>>,
    rows: Option<Vec<Node<DerivedDeclarator>>>,
}

/// The pointers `T *m` of `main` (`uses`) that `t`'s value is copied into (`m = t;`,
/// casts aside), the first by name, and their `T`: its specifiers (storage classes left
/// out), when they all print alike; or the one pointer `T (*m)[N1]…[Nk]` it is copied
/// into.
fn copies<'u>(uses: &'u Uses, t: &str) -> Option<Copies<'u>> {
    let source = Source::Name(t.to_string());
    let mut ms: Vec<&str> = uses
        .writes
        .iter()
        .filter(|(_, w)| w.contains(&source))
        .map(|(m, _)| m.as_str())
        .collect();
    ms.sort_unstable();
    let mut found: Option<(String, Vec<Node<DeclarationSpecifier>>)> = None;
    let mut rows_of = None;
    for m in &ms {
        let [(decl, x, _)] = uses.declared.get(*m)?.as_slice() else {
            return None;
        };
        let d = &x.declarator.node;
        let pointer = matches!(d.kind.node, DeclaratorKind::Identifier(_))
            && matches!(d.derived.as_slice(), [x] if matches!(x.node, DerivedDeclarator::Pointer(_)));
        if !pointer {
            // Or the one pointer to arrays `T (*m)[N1]…[Nk]` `t` is copied into.
            let rows = super::alias::rows(d).filter(|r| {
                !r.is_empty()
                    && matches!(d.kind.node, DeclaratorKind::Declarator(_))
                    && ms.len() == 1
            })?;
            rows_of = Some(rows.to_vec());
        }
        let specs: Vec<_> = decl
            .specifiers
            .iter()
            .filter(|s| !matches!(s.node, DeclarationSpecifier::StorageClass(_)))
            .cloned()
            .collect();
        let printed = ladr_c::print::declaration_to_string(&Declaration {
            specifiers: specs.clone(),
            declarators: vec![],
        });
        match &found {
            Some((p, _)) if *p != printed => return None,
            Some(_) => {}
            None => found = Some((printed, specs)),
        }
    }
    Some(Copies {
        name: ms.first()?,
        specs: found?.1,
        rows: rows_of,
    })
}

/// `T name[1];`, or `T name[N1]…[Nk];` of a pointer to such arrays.
fn array_declaration(copies: &Copies, name: &str, span: Span) -> Node<BlockItem> {
    let size = ArraySize::VariableExpression(Box::new(build::int(1, span)));
    let array = ArrayDeclarator {
        qualifiers: vec![],
        size,
    };
    let one = || {
        vec![build::node(
            DerivedDeclarator::Array(build::node(array, span)),
            span,
        )]
    };
    let d = Declarator {
        kind: build::node(DeclaratorKind::Identifier(build::id(name, span)), span),
        derived: copies.rows.clone().unwrap_or_else(one),
        extensions: vec![],
    };
    let specs = copies.specs.clone();
    build::decl_item(build::declare(specs, build::node(d, span), None, span))
}

/// The unit with `main`'s blocks allocated once as arrays (module doc), and the functions
/// without a body whose results it assumes fresh; `None` when there is none.
pub fn blocks_as_arrays(unit: &TranslationUnit) -> Option<(TranslationUnit, Vec<String>)> {
    let mut defined: HashSet<&str> = HashSet::new();
    let mut main_at = None;
    for (k, e) in unit.0.iter().enumerate() {
        if let ExternalDeclaration::FunctionDefinition(f) = &e.node {
            let Some(name) = build::function_name(&f.node) else {
                continue;
            };
            defined.insert(name);
            if name == "main" {
                main_at = Some(k);
            }
        }
    }
    let main_at = main_at?;
    let ExternalDeclaration::FunctionDefinition(def) = &unit.0[main_at].node else {
        return None;
    };
    let Statement::Compound(items) = &def.node.statement.node else {
        return None;
    };
    let mut whole = super::splice::Names::default();
    let _ = visit::unit(&mut whole, unit);
    if whole.used.contains_key("main") {
        return None;
    }
    let main = super::alias::uses_of(&def.node)?;
    let returns = crate::passes::threads::returns::returns_value(&unit.0);
    let mut assumed: Vec<String> = vec![];
    let mut labels = false;
    let mut out: Vec<Node<BlockItem>> = vec![];
    let mut names: HashSet<String> = HashSet::new();
    for i in items {
        let mut l = super::bounds::Labels(labels);
        let _ = visit::block_item(&mut l, i);
        labels = l.0;
        let rewrite = allocation(i, &defined, &returns)
            .filter(|_| !labels)
            .filter(|(t, _)| main.declared.get(*t).is_some_and(|d| d.len() == 1))
            .and_then(|(t, f)| Some((t, f, copies(&main, t)?)));
        let Some((t, f, copies)) = rewrite else {
            out.push(i.clone());
            continue;
        };
        if let Some(f) = f.filter(|f| !assumed.iter().any(|a| a == f)) {
            assumed.push(f.to_string());
        }
        let m = copies.name;
        let mut name = format!("{m}@malloc");
        let mut k = 1;
        while names.contains(&name) || whole.used.contains_key(&name) {
            k += 1;
            name = format!("{m}@malloc{k}");
        }
        names.insert(name.clone());
        out.push(array_declaration(&copies, &name, i.span));
        // A pointer to arrays holds the address of the whole array.
        let mut start = build::ident(&name, i.span);
        if copies.rows.is_some() {
            start = build::addr(start, i.span);
        }
        out.push(build::item(build::expr_stmt(build::assign(
            build::ident(t, i.span),
            start,
            i.span,
        ))));
    }
    if names.is_empty() {
        return None;
    }
    let mut unit = unit.clone();
    if let ExternalDeclaration::FunctionDefinition(f) = &mut unit.0[main_at].node {
        f.node.statement.node = Statement::Compound(out);
    }
    Some((unit, assumed))
}
