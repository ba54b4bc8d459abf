//! Array starts through copies with constant offsets (issue 31; `docs/decisions/static.md`,
//! "Index tables and offset bases"). `main` sets two pointers into one block, `xa1 =
//! base; xa2 = base + 12;`, and a region reads them through captures: `xa1[e]` and
//! `xa2[e']` are `base[e]` and `base[e' + 12]` ([`Step::Base`] of two file-scope
//! variables with one origin).
//!
//! The origin of a file-scope variable `g` is `(r, k)` when `g`'s one write in the
//! program is `g = x;` and, following `x = y;`, `x = y + c;`, `x = y - c;` (`c` a constant)
//! back, the chain ends at a local `r` of `main`: every variable of the chain (but `g`) a
//! local of `main` declared once there, its address never taken (but by `normalise`'s
//! havoc, before its write), written once; every write of the chain a *straight-line*
//! statement of `main` (at its top level or in nested plain blocks: run at most once, in
//! order; `main` has no label and is named nowhere), each after the write of what it
//! reads; every variable of the chain and `g` a pointer to one arithmetic type `T` (the
//! offsets count elements of `T`). Then `g` holds `r`'s value plus `k` elements of `T`:
//! two such variables of one origin, both written only while no other thread may run
//! (`stable`), point `k` and `k'` elements into one array.

use super::decls::{Decls, VarId};
use super::worksharing::{name_of, Effects};
use super::Step;
use ladr_c::syntax::build::declarator_name;
use ladr_c::syntax::query::Operands;
use ladr_c::syntax::walk::visit;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// A start's origin: `main`'s local, the offset in elements, their type (spelled).
pub type Origin = (String, i64, String);

/// How many copies a chain may pass through.
const CHAIN: usize = 8;

/// The origin of each file-scope variable that has one (module doc): `main`'s local and
/// the offset in elements.
pub fn base_origins(unit: &TranslationUnit, decls: &Decls) -> HashMap<VarId, Origin> {
    let mut out = HashMap::new();
    let Some(main) = decls.bodies.get("main") else {
        return out;
    };
    let mut effects = Effects::default();
    let _ = visit::unit(&mut effects, unit);
    let mut labels = super::bounds::Labels(false);
    let _ = visit::stmt(&mut labels, &main.statement);
    let main_named =
        ladr_c::syntax::query::any_expr(unit, Operands::All, |e| name_of(e) == Some("main"));
    if labels.0 || main_named {
        return out;
    }
    let mut mine = Effects::default();
    let _ = visit::stmt(&mut mine, &main.statement);
    let mut events: Vec<(&str, Event)> = vec![];
    if let Statement::Compound(items) = &main.statement.node {
        straight(items, &mut events);
    }
    let inner = super::worksharing::local_names(decls.bodies.values().copied());
    let shadowed = |g: &str| inner.contains(g);
    // The pointee type of `main`'s local `x` (declared once) or of global `g`.
    let pointee = |x: &str, local: bool| -> Option<&str> {
        let mut found = decls.vars.iter().filter(|v| {
            v.name == x
                && (v.function.as_deref() == Some("main")) == local
                && (local || v.function.is_none())
        });
        let v = found.next()?;
        found.next().is_none().then_some(v.pointee_key.as_deref()?)
    };
    // `main`'s local `x`: its one straight-line write's position and value.
    let written_once = |x: &str| -> Option<(usize, &Node<Expression>)> {
        let declared = mine.declared.iter().filter(|d| *d == x).count() == 1;
        let mine_of_x: Vec<(usize, &Event)> = events
            .iter()
            .enumerate()
            .filter(|(_, (n, _))| *n == x)
            .map(|(k, (_, e))| (k, e))
            .collect();
        let [(at, Event::Write(value, init))] = mine_of_x
            .iter()
            .filter(|(_, e)| matches!(e, Event::Write(..)))
            .copied()
            .collect::<Vec<_>>()[..]
        else {
            return None;
        };
        // Every address taken a straight-line havoc before the write; no other write.
        let havocs_before = mine_of_x
            .iter()
            .filter(|(k, e)| matches!(e, Event::Havoc) && *k < at)
            .count();
        let havocs = mine_of_x
            .iter()
            .filter(|(_, e)| matches!(e, Event::Havoc))
            .count();
        let addressed = mine.addressed.iter().filter(|a| *a == x).count();
        let assigned = mine.written.get(x).copied().unwrap_or(0);
        let clean =
            addressed == havocs && havocs == havocs_before && assigned == usize::from(!*init);
        (declared && clean).then_some((at, *value))
    };
    for (name, &g) in &decls.globals {
        let global_write = events
            .iter()
            .position(|(n, e)| n == name && matches!(e, Event::Write(_, false)));
        let once = effects.written.get(name.as_str()).copied() == Some(1)
            && !initialised(unit, name)
            && !effects.addressed.iter().any(|a| a == name)
            && !shadowed(name);
        let (Some(at), true, Some(t)) = (global_write, once, pointee(name, false)) else {
            continue;
        };
        let Some(x) = (match &events[at].1 {
            Event::Write(value, _) => name_of(strip(value)),
            Event::Havoc => None,
        }) else {
            continue;
        };
        let mut chain = (x, 0i64, at);
        let mut resolved = None;
        for _ in 0..CHAIN {
            let (x, k, before) = chain;
            let Some((w, value)) = written_once(x) else {
                break;
            };
            if w >= before || pointee(x, true) != Some(t) {
                break;
            }
            match super::invariant::name_offset(value) {
                Some((y, c)) => match k.checked_add(c) {
                    Some(k) => chain = (y, k, w),
                    None => break,
                },
                None => {
                    resolved = Some((x.to_string(), k, t.to_string()));
                    break;
                }
            }
        }
        if let Some(r) = resolved {
            out.insert(g, r);
        }
    }
    out
}

/// Has the file-scope variable `g` an initialiser (a value before `main`'s write)?
fn initialised(unit: &TranslationUnit, g: &str) -> bool {
    unit.0.iter().any(|e| {
        matches!(&e.node, ExternalDeclaration::Declaration(d) if d.node.declarators.iter().any(|x| {
            declarator_name(&x.node.declarator.node) == Some(g) && x.node.initializer.is_some()
        }))
    })
}

fn strip(e: &Node<Expression>) -> &Node<Expression> {
    super::access::strip_casts(e)
}

/// A straight-line statement of `main` on a name.
#[derive(Clone, Copy)]
enum Event<'a> {
    /// `x = e;` (false) or the initialiser `T x = e;` (true).
    Write(&'a Node<Expression>, bool),
    /// `__CPROVER_havoc_object(&x);`
    Havoc,
}

/// The straight-line writes and havocs of `items`, through nested blocks, in order.
fn straight<'a>(items: &'a [Node<BlockItem>], out: &mut Vec<(&'a str, Event<'a>)>) {
    for item in items {
        match &item.node {
            BlockItem::Declaration(d) => {
                for x in &d.node.declarators {
                    let name = declarator_name(&x.node.declarator.node);
                    if let (Some(n), Some(i)) = (name, x.node.initializer.as_ref()) {
                        if let Initializer::Expression(e) = &i.node {
                            out.push((n, Event::Write(e, true)));
                        }
                    }
                }
            }
            BlockItem::Statement(s) => match &s.node {
                Statement::Compound(inner) => straight(inner, out),
                Statement::Expression(Some(e)) => match &e.node {
                    Expression::BinaryOperator(b)
                        if b.node.operator.node == BinaryOperator::Assign =>
                    {
                        if let Some(n) = name_of(&b.node.lhs) {
                            out.push((n, Event::Write(&b.node.rhs, false)));
                        }
                    }
                    Expression::Call(c)
                        if ladr_c::syntax::build::callee_name(&c.node)
                            == Some(ladr_ir::abi::HAVOC) =>
                    {
                        if let [a] = c.node.arguments.as_slice() {
                            if let Expression::UnaryOperator(u) = &a.node {
                                if let Some(n) = name_of(&u.node.operand) {
                                    out.push((n, Event::Havoc));
                                }
                            }
                        }
                    }
                    _ => {}
                },
                _ => {}
            },
            _ => {}
        }
    }
}

/// The index step after a [`Step::Base`] of origin offset `k`: the same element counted
/// from the origin (a step that cannot move: an unknown index).
pub(super) fn shifted(s: &Step, k: i64) -> Step {
    match s {
        Step::Index(Some(c)) => {
            let moved = i64::try_from(*c).ok().and_then(|c| c.checked_add(k));
            Step::Index(moved.and_then(|m| u64::try_from(m).ok()))
        }
        Step::Iter(l, a, b, t) => match b.checked_add(k) {
            Some(b) => Step::Iter(*l, *a, b, t.clone()),
            None => Step::Index(None),
        },
        Step::Inv(g, c) => match c.checked_add(k) {
            Some(c) => Step::Inv(*g, c),
            None => Step::Index(None),
        },
        Step::Window(l, a, lo, hi) => match (lo.checked_add(k), hi.checked_add(k)) {
            (Some(lo), Some(hi)) => Step::Window(*l, *a, lo, hi),
            _ => Step::Index(None),
        },
        Step::Table(l, t, c) => match c.checked_add(k) {
            Some(c) => Step::Table(*l, *t, c),
            None => Step::Index(None),
        },
        _ => Step::Index(None),
    }
}
