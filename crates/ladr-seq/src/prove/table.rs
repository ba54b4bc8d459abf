//! Index tables (issue 31; `docs/decisions/static.md`, "Index tables and offset bases").
//! A worksharing loop that reads its element indices from a constant table, `idx =
//! T[i]; x[idx] += …;` (DataRaceBench's indirect-access kernels), touches elements two
//! threads tell apart when no two entries of `T` collide.
//!
//! A *table* is a file-scope array of one dimension with a braced initialiser of integer
//! constants (entries past the list are 0), never written, its address never taken, no
//! local or parameter of its name anywhere. In a claim loop's body (`super::worksharing`,
//! iteration variable `i`, range `[lb, hi)` of constants inside `[0, len)`) a block that
//! declares a local `v` whose one write in the function is `v = T[i]` (or its
//! initialiser), with no mention before it: an index `v + c` later in that block is
//! [`Step::Table`]`(loop, T, c)`. Two threads that make such accesses at once run
//! different iterations `i ≠ i'`, so the elements are `T[i] + c` and `T[i'] + c'`: apart
//! when no two entries at different positions satisfy `T[a] + c = T[b] + c'`
//! ([`tables_apart`]).

use super::decls::VarId;
use super::worksharing::{constant, name_of, Effects};
use super::Step;
use ladr_c::syntax::build::declarator_name;
use ladr_c::syntax::walk::visit;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// The unit's tables (module doc) by variable: their entries.
pub fn tables(
    unit: &TranslationUnit,
    globals: &HashMap<String, VarId>,
) -> HashMap<VarId, Vec<i64>> {
    let mut effects = Effects::default();
    let _ = visit::unit(&mut effects, unit);
    let shadowed = super::worksharing::local_names(unit.0.iter().filter_map(|e| match &e.node {
        ExternalDeclaration::FunctionDefinition(f) => Some(&f.node),
        _ => None,
    }));
    let mut candidates: HashMap<&str, Vec<Vec<i64>>> = HashMap::new();
    for e in &unit.0 {
        let ExternalDeclaration::Declaration(d) = &e.node else {
            continue;
        };
        for x in &d.node.declarators {
            let Some(name) = declarator_name(&x.node.declarator.node) else {
                continue;
            };
            let entries = entries(&x.node.declarator.node, x.node.initializer.as_ref());
            candidates.entry(name).or_default().extend(entries);
        }
    }
    let mut out = HashMap::new();
    for (name, mut found) in candidates {
        // One declaration with the entries (others, if any, are declarations without).
        let (Some(&v), Some(entries), true) = (globals.get(name), found.pop(), found.is_empty())
        else {
            continue;
        };
        let untouched = !effects.written.contains_key(name)
            && !effects.addressed.iter().any(|a| a == name)
            && !shadowed.contains(name);
        if untouched {
            out.insert(v, entries);
        }
    }
    out
}

/// `T x[N] = { c, … }` (or `x[]`): its entries, 0 past the list; none for any other
/// declarator (an array declared without initialiser has no entries, not a table).
fn entries(d: &Declarator, init: Option<&Node<Initializer>>) -> Option<Vec<i64>> {
    let [dim] = d.derived.as_slice() else {
        return None;
    };
    let DerivedDeclarator::Array(a) = &dim.node else {
        return None;
    };
    let Initializer::List(items) = &init?.node else {
        return None;
    };
    let mut out = vec![];
    for it in items {
        if !it.node.designation.is_empty() {
            return None;
        }
        let Initializer::Expression(e) = &it.node.initializer.node else {
            return None;
        };
        out.push(constant(e)?);
    }
    match &a.node.size {
        ArraySize::Unknown => {}
        ArraySize::VariableExpression(n) => {
            let n = usize::try_from(constant(n)?).ok()?;
            if n < out.len() {
                return None;
            }
            out.resize(n, 0);
        }
        _ => return None,
    }
    Some(out)
}

/// The table steps of a claim loop's `body` (module doc): `i` its variable over `[lo,
/// hi)`, `id` its id, `whole` what its function's body does with its names.
pub(super) fn table_steps(
    whole: &Effects,
    body: &[Node<BlockItem>],
    (i, id, lo, hi): (&str, usize, i64, i64),
    (tables, globals): (&HashMap<VarId, Vec<i64>>, &HashMap<String, VarId>),
    out: &mut HashMap<usize, Step>,
) {
    let mut found = vec![body];
    for item in body {
        if let BlockItem::Statement(st) = &item.node {
            blocks(st, &mut found);
        }
    }
    for items in found {
        for item in items {
            let Some((v, value)) = table_read(item, i) else {
                continue;
            };
            let Some(&t) = name_of(value).and_then(|t| globals.get(t)) else {
                continue;
            };
            let Some(entries) = tables.get(&t) else {
                continue;
            };
            let in_table = lo >= 0 && usize::try_from(hi).is_ok_and(|h| h <= entries.len());
            let declared_here = items.iter().any(|d| declares(d, v));
            let once = whole.declared.iter().filter(|d| *d == v).count() == 1
                && whole.written.get(v).copied().unwrap_or(0) <= 1
                && !whole.addressed.iter().any(|a| a == v);
            let Some(k) = super::values::single_write(items, v) else {
                continue;
            };
            if !(in_table && declared_here && once && std::ptr::eq(&items[k], item)) {
                continue;
            }
            super::invariant::each_index(&items[k + 1..], |_, rhs| {
                if let Some(c) = super::invariant::offset(rhs, v) {
                    out.insert(
                        rhs as *const Node<Expression> as usize,
                        Step::Table(id, t, c),
                    );
                }
            });
        }
    }
}

/// `v = T[i];` or `int v = T[i];`: `v` and `T`'s expression.
fn table_read<'a>(item: &'a Node<BlockItem>, i: &str) -> Option<(&'a str, &'a Node<Expression>)> {
    let (v, value) = match &item.node {
        BlockItem::Declaration(d) => {
            let [x] = d.node.declarators.as_slice() else {
                return None;
            };
            let Initializer::Expression(e) = &x.node.initializer.as_ref()?.node else {
                return None;
            };
            (declarator_name(&x.node.declarator.node)?, &**e)
        }
        _ => super::worksharing::assignment(item)?,
    };
    let Expression::BinaryOperator(b) = &value.node else {
        return None;
    };
    let indexed = b.node.operator.node == BinaryOperator::Index && name_of(&b.node.rhs) == Some(i);
    indexed.then_some((v, &*b.node.lhs))
}

fn declares(item: &Node<BlockItem>, v: &str) -> bool {
    matches!(&item.node, BlockItem::Declaration(d) if d.node.declarators.iter()
        .any(|x| declarator_name(&x.node.declarator.node) == Some(v)))
}

/// The items of every block in `s`, nested ones too.
fn blocks<'a>(s: &'a Node<Statement>, out: &mut Vec<&'a [Node<BlockItem>]>) {
    match &s.node {
        Statement::Compound(items) => {
            out.push(items);
            for i in items {
                if let BlockItem::Statement(st) = &i.node {
                    blocks(st, out);
                }
            }
        }
        Statement::If(x) => {
            blocks(&x.node.then_statement, out);
            if let Some(e) = &x.node.else_statement {
                blocks(e, out);
            }
        }
        Statement::While(w) => blocks(&w.node.statement, out),
        Statement::DoWhile(w) => blocks(&w.node.statement, out),
        Statement::For(f) => blocks(&f.node.statement, out),
        Statement::Labeled(l) => blocks(&l.node.statement, out),
        Statement::Switch(w) => blocks(&w.node.statement, out),
        _ => {}
    }
}

/// Do two table steps of one loop and table tell two threads' elements apart: no entries
/// at two positions with `T[a] + c = T[b] + d`?
pub(super) fn tables_apart(x: &Step, y: &Step, tables: &HashMap<VarId, Vec<i64>>) -> bool {
    let (Step::Table(l, t, c), Step::Table(m, u, d)) = (x, y) else {
        return false;
    };
    let Some(entries) = tables.get(t).filter(|_| l == m && t == u) else {
        return false;
    };
    let mut at: HashMap<i64, Vec<usize>> = HashMap::new();
    for (k, e) in entries.iter().enumerate() {
        at.entry(*e).or_default().push(k);
    }
    entries.iter().enumerate().all(|(a, e)| {
        let Some(v) = e.checked_add(*c).and_then(|v| v.checked_sub(*d)) else {
            return false;
        };
        at.get(&v).is_none_or(|bs| bs.iter().all(|b| *b == a))
    })
}
