//! Block locals of a slot function (used by `lazy`): a slot's automatic local that `threads`
//! made `static` (its value must survive between contexts) but whose every mention lies in
//! one run of the slot's items that no context switch splits is declared in a block around
//! that run instead, without initialiser. CBMC ends a block local's life at the block's end
//! (a `DEAD`), so it no longer merges it at every later join point of the slot nor carries
//! it to the slot's end (issue 33: the locals of inlined callees, merged at every label of a
//! long slot).
//!
//! A local qualifies when it is a formerly automatic local of one slot (not a
//! `_Thread_local` instance, whose first value is 0), declared at file scope alone and
//! without initialiser, of a scalar type (arithmetic, `enum`, pointer, or a typedef of one),
//! its address never taken (but by N4's `__CPROVER_havoc_object(&x)`), and every mention of
//! it (under `sizeof` and `__typeof__` too) is in the items `first..=last` of its slot, where
//! none of `first+1..=last` is a visible statement (a context switch point) or a declaration,
//! and no `goto` from outside these items lands on a label among them. Then an execution
//! enters the run only at its start (after `first`'s guard, which stays outside the block),
//! runs it within one context and at most once (the program is bounded and `pc` only
//! grows): the static's value when the run starts is its first one, which for an automatic
//! local is indeterminate in C, and any value is what a block local without initialiser has.
//! Runs that overlap become one block declaring all their locals (no item of the union is a
//! visible statement and no jump enters it from outside, since each run's checks cover it).

use ladr_c::syntax::build::*;
use ladr_c::syntax::query::{find_expr, for_each_expr, Look, Operands, Walkable};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use ladr_ir::program::{Item, Program, SlotCode};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// One block of a slot: its items `start..=end` go in a block that first declares `decls`.
#[derive(Debug)]
pub struct LocalBlock {
    pub start: usize,
    pub end: usize,
    pub decls: Vec<Node<Declaration>>,
}

/// The blocks of each slot (in item order, disjoint), and the names whose file-scope
/// declarations they replace.
pub struct Plan {
    pub blocks: Vec<Vec<LocalBlock>>,
    pub moved: HashSet<String>,
}

/// What the items of a slot mention, define and jump to.
#[derive(Default)]
struct ItemFacts {
    names: HashSet<String>,
    labels: HashSet<String>,
    gotos: HashSet<String>,
}

struct Collector<'a>(&'a mut ItemFacts);

impl Visitor for Collector<'_> {
    type Error = Infallible;
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        match &s.node {
            Statement::Labeled(l) => {
                if let Label::Identifier(i) = &l.node.label.node {
                    self.0.labels.insert(i.node.name.clone());
                }
            }
            Statement::Goto(l) => {
                self.0.gotos.insert(l.node.name.clone());
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
}

fn facts_of(it: &Item) -> ItemFacts {
    let mut f = ItemFacts::default();
    let stmt = match it {
        Item::Visible { stmt, .. } | Item::Plain(stmt) => stmt,
        Item::Label(l, _) => {
            f.labels.insert(l.clone());
            return f;
        }
        Item::Decl(d) => {
            for_each_expr(d, Operands::All, |e| {
                if let Some(n) = ident_name(e) {
                    f.names.insert(n.to_string());
                }
            });
            return f;
        }
    };
    for_each_expr(stmt, Operands::All, |e| {
        if let Some(n) = ident_name(e) {
            f.names.insert(n.to_string());
        }
    });
    let Ok(()) = visit::stmt(&mut Collector(&mut f), stmt);
    f
}

/// The variable whose storage `&e` is the address of (or a part of): `&x`, `&x.f`,
/// `&x.a[i]`; `None` where `e` goes through a pointer (`&p->f`, `&*p`).
fn addressed_root(e: &Expression) -> Option<&str> {
    match e {
        Expression::Identifier(i) => Some(&i.node.name),
        Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
            addressed_root(&m.node.expression.node)
        }
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            addressed_root(&b.node.lhs.node)
        }
        _ => None,
    }
}

/// Adds to `out` the names whose address an expression under `node` takes, but by N4's
/// havoc.
fn address_taken(node: &(impl Walkable + ?Sized), out: &mut HashSet<String>) {
    find_expr::<()>(node, Operands::All, |e| {
        if crate::normal_form::havoced_var(&e.node).is_some() {
            return Look::Skip;
        }
        if let Expression::UnaryOperator(u) = &e.node {
            if u.node.operator.node == UnaryOperator::Address {
                if let Some(n) = addressed_root(&u.node.operand.node) {
                    out.insert(n.to_string());
                }
            }
        }
        Look::Descend
    });
}

/// The names whose address the program takes (but by N4's havoc).
fn addresses(unit: &TranslationUnit, code: &[SlotCode]) -> HashSet<String> {
    let mut out = HashSet::new();
    address_taken(unit, &mut out);
    for it in code.iter().flat_map(|c| &c.items) {
        match it {
            Item::Visible { stmt, .. } | Item::Plain(stmt) => address_taken(stmt, &mut out),
            Item::Decl(d) => address_taken(d, &mut out),
            Item::Label(..) => {}
        }
    }
    out
}

/// The typedefs of the unit, by name.
fn typedefs(unit: &TranslationUnit) -> HashMap<&str, &Declaration> {
    let mut map = HashMap::new();
    for ext in &unit.0 {
        if let ExternalDeclaration::Declaration(d) = &ext.node {
            if is_typedef(&d.node) {
                for id in &d.node.declarators {
                    if let Some(n) = declarator_name(&id.node.declarator.node) {
                        map.insert(n, &d.node);
                    }
                }
            }
        }
    }
    map
}

/// A scalar type: a pointer declarator, or specifiers of an arithmetic type, an `enum`, or
/// a typedef of a scalar type (followed at most 16 deep).
fn is_scalar(
    specifiers: &[Node<DeclarationSpecifier>],
    declarator: &Declarator,
    types: &HashMap<&str, &Declaration>,
    depth: u32,
) -> bool {
    if !matches!(declarator.kind.node, DeclaratorKind::Identifier(_)) || depth > 16 {
        return false;
    }
    if !declarator.derived.is_empty() {
        return declarator
            .derived
            .iter()
            .all(|d| matches!(d.node, DerivedDeclarator::Pointer(_)));
    }
    let mut any = false;
    for s in specifiers {
        let DeclarationSpecifier::TypeSpecifier(t) = &s.node else {
            continue;
        };
        any = true;
        let ok = match &t.node {
            t if is_arithmetic_keyword(t) => true,
            TypeSpecifier::Enum(_) => true,
            TypeSpecifier::TypedefName(n) => types.get(n.node.name.as_str()).is_some_and(|d| {
                d.declarators.len() == 1
                    && is_scalar(
                        &d.specifiers,
                        &d.declarators[0].node.declarator.node,
                        types,
                        depth + 1,
                    )
            }),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    any
}

/// The file-scope declarations of `p.automatic_locals` that a block may take: alone in their
/// declaration, without initialiser, of a scalar type. By name.
fn candidates(p: &Program) -> HashMap<String, Node<Declaration>> {
    let types = typedefs(&p.unit);
    let mut out = HashMap::new();
    for ext in &p.unit.0 {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let [id] = d.node.declarators.as_slice() else {
            continue;
        };
        let Some(name) = declarator_name(&id.node.declarator.node) else {
            continue;
        };
        if !p.automatic_locals.contains(name)
            || id.node.initializer.is_some()
            || !is_scalar(&d.node.specifiers, &id.node.declarator.node, &types, 0)
        {
            continue;
        }
        let mut local = d.clone();
        local.node.specifiers.retain(|s| {
            !matches!(&s.node, DeclarationSpecifier::StorageClass(sc)
                if sc.node == StorageClassSpecifier::Static)
        });
        out.insert(name.to_string(), local);
    }
    out
}

/// Names mentioned in the unit outside the slots' code, except in their own declaration.
fn mentioned_in_unit(unit: &TranslationUnit) -> HashSet<String> {
    let mut out = HashSet::new();
    for_each_expr(unit, Operands::All, |e| {
        if let Some(n) = ident_name(e) {
            out.insert(n.to_string());
        }
    });
    out
}

/// Which locals of which slot become block locals, and the blocks.
pub fn plan(p: &Program) -> Plan {
    let mut cands = candidates(p);
    let outside = mentioned_in_unit(&p.unit);
    let taken = addresses(&p.unit, &p.code);
    cands.retain(|n, _| !outside.contains(n) && !taken.contains(n));
    // Slot and item range of each candidate; mentioned in two slots: none.
    let mut facts: Vec<Vec<ItemFacts>> = vec![];
    let mut range: HashMap<&str, Option<(usize, usize, usize)>> = HashMap::new();
    for (slot, c) in p.code.iter().enumerate() {
        let fs: Vec<ItemFacts> = c.items.iter().map(facts_of).collect();
        for (i, f) in fs.iter().enumerate() {
            for n in &f.names {
                let Some((name, _)) = cands.get_key_value(n.as_str()) else {
                    continue;
                };
                let r = range.entry(name.as_str()).or_insert(Some((slot, i, i)));
                *r = match *r {
                    Some((s, a, _)) if s == slot => Some((s, a, i)),
                    _ => None,
                };
            }
        }
        facts.push(fs);
    }
    let mut runs: Vec<Vec<(usize, usize, String)>> = vec![vec![]; p.code.len()];
    for (name, r) in range {
        let Some((slot, first, last)) = r else {
            continue;
        };
        if run_is_closed(&p.code[slot], &facts[slot], first, last) {
            runs[slot].push((first, last, name.to_string()));
        }
    }
    let mut blocks = vec![];
    let mut moved = HashSet::new();
    for mut rs in runs {
        rs.sort();
        let mut out: Vec<LocalBlock> = vec![];
        for (first, last, name) in rs {
            let decl = cands[&name].clone();
            moved.insert(name);
            match out.last_mut() {
                Some(b) if first <= b.end => {
                    b.end = b.end.max(last);
                    b.decls.push(decl);
                }
                _ => out.push(LocalBlock {
                    start: first,
                    end: last,
                    decls: vec![decl],
                }),
            }
        }
        blocks.push(out);
    }
    Plan { blocks, moved }
}

/// No context switch point or declaration in `first+1..=last`, and no goto from outside
/// `first..=last` to a label inside (the guard label of a visible `first` stays outside).
fn run_is_closed(c: &SlotCode, facts: &[ItemFacts], first: usize, last: usize) -> bool {
    let inner = &c.items[first + 1..=last];
    if inner
        .iter()
        .any(|it| matches!(it, Item::Visible { .. } | Item::Decl(_)))
        || matches!(c.items[first], Item::Decl(_))
    {
        return false;
    }
    let labels: HashSet<&str> = facts[first..=last]
        .iter()
        .flat_map(|f| f.labels.iter().map(String::as_str))
        .collect();
    if labels.is_empty() {
        return true;
    }
    facts
        .iter()
        .enumerate()
        .filter(|(i, _)| *i < first || *i > last)
        .all(|(_, f)| f.gotos.iter().all(|g| !labels.contains(g.as_str())))
}
