//! Chunks claimed from a shared counter under a lock (issue 33, `docs/decisions/static.md`,
//! "Chunks claimed under a lock"): the way thread pools and SV-COMP's `sssc12` split an
//! array among threads without OpenMP.
//!
//! ```c
//! c = 0; end = 0;                          // an empty range
//! pthread_mutex_lock(&m);
//! if (next + 10 <= len) { c = next; next = end = next + 10; }
//! pthread_mutex_unlock(&m);
//! while (c < end) { … data[c] …; c = c + 1; }
//! ```
//!
//! A *claim* is a top-level statement of a function (not `main`) between
//! `pthread_mutex_lock(&m);` and `pthread_mutex_unlock(&m);` (the statements right before
//! and after it): a block, or an `if` without `else` whose test has no side effect, of
//! assignments `x = y`, `x = y + K` (integer constants) and declarations only, after which
//! a local `c` holds the counter's old value, a local `end` and the counter `next` both
//! hold that value plus `K > 0`, and `next` was written once. So each claim takes the
//! window `[next, next + K)` and moves `next` to its end, in one critical section.
//!
//! Every claim on `next` holds the same global mutex `m` (not `__thread`), and `next` (a
//! file-scope variable of a signed integer type, not an array nor `__thread`, its address
//! never taken) is written
//! nowhere else but in `main`'s top-level statements before the first that calls
//! `pthread_create` or a function of the program (`main` has no label; no function calls
//! `main`): while threads run, `next` only grows (its overflow is undefined), so windows of
//! two claims never overlap.
//!
//! The claiming function's `c` and `end` are automatic locals of it (declared once in it,
//! no parameter, their address taken only by `normalise`'s havoc), written only by one
//! top-level `c = C1;` and `end = C2;` before the lock (constants, `C1 >= C2`: an empty
//! range when the test fails), by the claim, and by the last statement `c = c + 1;`
//! (`c++`, `++c`, `c += 1`) of a later top-level loop `while (c < end) { … }` that
//! writes neither otherwise and has no jump; the function has no label. Inside that body
//! `c` lies in the function's own window, so an index `±c + β` of it is
//! [`super::Step::Iter`] of the counter: two threads making such an access at once hold
//! different `c`, as two threads of a worksharing loop hold different iterations.

use super::affine::Indices;
use super::decls::{Var, VarId};
use super::disjoint::has_labels;
use super::worksharing::{address_of_name, automatic, effects_of_items, havocs, name_of, Effects};
use super::Step;
use ladr_c::syntax::build::{callee_name, declarator_name, parameter_names};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::{has_side_effect, Walk};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// One claim: its counter, its mutex, and the indices `±c + β` of its loop (by their
/// expression's address, [`Step::Iter`] of a placeholder id).
struct Claim {
    counter: String,
    mutex: String,
    indices: HashMap<usize, Step>,
}

/// Adds the indices `±c + β` of every claim's loop (module doc) to `out`, by their
/// expression's address, as [`Step::Iter`] of the claim's counter; returns the ids given.
pub fn chunk_indices(
    unit: &TranslationUnit,
    (bodies, globals, vars): (
        &HashMap<String, &FunctionDefinition>,
        &HashMap<String, VarId>,
        &[Var],
    ),
    main_items: &[Node<BlockItem>],
    out: &mut HashMap<usize, Step>,
) -> HashSet<usize> {
    let mut ids = HashSet::new();
    let claims: Vec<Claim> = bodies
        .iter()
        .filter(|(name, _)| *name != "main")
        .filter_map(|(_, f)| claim_of(f))
        .collect();
    let main_labels = bodies.get("main").is_some_and(|m| has_labels(m));
    if claims.is_empty() || main_labels || calls(unit, &|n| n == "main") {
        return ids;
    }
    let mut all = Effects::default();
    let _ = visit::unit(&mut all, unit);
    let solo = solo_prefix(main_items, bodies);
    let in_main = effects_of_items(&main_items[..solo]);
    // One object shared by every thread: a file-scope variable, not `__thread`.
    let shared = |n: &str| globals.get(n).is_some_and(|&v| !vars[v].thread_local);
    for (counter, id) in counters(unit) {
        let mine: Vec<&Claim> = claims.iter().filter(|c| c.counter == counter).collect();
        let Some(first) = mine.first() else { continue };
        let same_mutex = shared(&first.mutex) && mine.iter().all(|c| c.mutex == first.mutex);
        if !shared(&counter) {
            continue;
        }
        let count = |e: &Effects| e.written.get(&counter).copied().unwrap_or(0);
        let writes_known = count(&all) == mine.len() + count(&in_main);
        if !same_mutex || all.addressed.contains(&counter) || !writes_known {
            continue;
        }
        for c in mine {
            for (&key, step) in &c.indices {
                if let Step::Iter(_, a, b, t) = step {
                    out.insert(key, Step::Iter(id, *a, *b, t.clone()));
                }
            }
        }
        ids.insert(id);
    }
    ids
}

/// The claim of `f` (module doc), if it has one.
fn claim_of(f: &FunctionDefinition) -> Option<Claim> {
    let Statement::Compound(items) = &f.statement.node else {
        return None;
    };
    if has_labels(f) {
        return None;
    }
    let at = (1..items.len().saturating_sub(1)).find(|&j| {
        let (l, u) = (mutex_call(&items[j - 1]), mutex_call(&items[j + 1]));
        matches!((l, u), (Some(("pthread_mutex_lock", m)), Some(("pthread_mutex_unlock", n))) if m == n)
    })?;
    let (_, mutex) = mutex_call(&items[at - 1])?;
    let (c, end, counter) = window(&items[at])?;
    let params = parameter_names(&f.declarator.node);
    let mine = effects_of_items(items);
    let local = |n: &str| {
        !params.iter().any(|p| p == n)
            && mine.declared.iter().filter(|d| *d == n).count() == 1
            && automatic(&f.statement, n)
            && mine.addressed.iter().filter(|a| *a == n).count() == havocs(&f.statement, n)
    };
    let outer = |n: &str| !mine.declared.iter().any(|d| d == n) && !params.iter().any(|p| p == n);
    if !local(&c) || !local(&end) || !outer(&counter) || !outer(mutex) {
        return None;
    }
    // `c = C1; end = C2;` before the lock, `C1 >= C2`.
    let init = |n: &str| {
        let mut found =
            items[..at - 1]
                .iter()
                .filter_map(|i| match super::worksharing::assignment(i) {
                    Some((x, e)) if x == n => Some(super::worksharing::constant(e)),
                    _ => None,
                });
        match (found.next(), found.next()) {
            (Some(v), None) => v,
            _ => None,
        }
    };
    let (c0, e0) = (init(&c)?, init(&end)?);
    if c0 < e0 {
        return None;
    }
    let body = items[at + 2..]
        .iter()
        .find_map(|i| chunk_loop(i, &c, &end))?;
    let (last, rest) = body.split_last()?;
    let inside = effects_of_items(rest);
    let written = |n: &str| inside.written.get(n).copied().unwrap_or(0);
    if !increments(last, &c) || written(&c) + written(&end) > 0 || inside.jumps {
        return None;
    }
    // Every write of `c` and `end` in `f`: the start, the claim and the increment.
    let count = |n: &str| mine.written.get(n).copied().unwrap_or(0);
    if count(&c) != 3 || count(&end) != 2 {
        return None;
    }
    let mut indices = HashMap::new();
    let mut found = Indices {
        i: &c,
        id: 0,
        out: &mut indices,
        inv: HashMap::new(),
        shared: vec![],
        signed: false,
    };
    for i in rest {
        let _ = visit::block_item(&mut found, i);
    }
    Some(Claim {
        counter,
        mutex: mutex.to_string(),
        indices,
    })
}

/// `name(&m);` as (`name`, `m`), `m` an identifier.
fn mutex_call(i: &Node<BlockItem>) -> Option<(&str, &str)> {
    let BlockItem::Statement(s) = &i.node else {
        return None;
    };
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    let Expression::Call(c) = &e.node else {
        return None;
    };
    let [arg] = c.node.arguments.as_slice() else {
        return None;
    };
    Some((callee_name(&c.node)?, address_of_name(arg)?))
}

/// The claim statement `i`: (`c`, `end`, the counter).
fn window(i: &Node<BlockItem>) -> Option<(String, String, String)> {
    let BlockItem::Statement(s) = &i.node else {
        return None;
    };
    let items = match &s.node {
        Statement::If(x) if x.node.else_statement.is_none() => {
            if has_side_effect(&x.node.condition.node) {
                return None;
            }
            match &x.node.then_statement.node {
                Statement::Compound(items) => items,
                _ => return None,
            }
        }
        Statement::Compound(items) => items,
        _ => return None,
    };
    // Values as the counter's value before the claim plus a constant.
    let mut value: HashMap<&str, i64> = HashMap::new();
    let mut declared: Vec<&str> = vec![];
    let mut counter: Option<&str> = None;
    let mut counter_writes = 0;
    for item in items {
        match &item.node {
            BlockItem::Declaration(d) => {
                for x in &d.node.declarators {
                    if x.node.initializer.is_some() {
                        return None;
                    }
                    declared.push(declarator_name(&x.node.declarator.node)?);
                }
            }
            BlockItem::Statement(_) => {
                let (x, e) = super::worksharing::assignment(item)?;
                let (y, k) = super::invariant::name_offset(e)?;
                let v = match value.get(y) {
                    Some(v) => *v,
                    // The first name read that holds no value yet is the counter.
                    None if counter.is_none_or(|g| g == y) => {
                        counter = Some(y);
                        0
                    }
                    None => return None,
                };
                if Some(x) == counter {
                    counter_writes += 1;
                }
                value.insert(x, v.checked_add(k)?);
            }
            BlockItem::StaticAssert(_) => {}
        }
    }
    let g = counter?;
    let k = *value.get(g)?;
    if counter_writes != 1 || k <= 0 || declared.contains(&g) {
        return None;
    }
    let named = |want: i64| {
        let mut it = value
            .iter()
            .filter(|(n, v)| **v == want && **n != g && !declared.contains(n))
            .map(|(n, _)| n.to_string());
        match (it.next(), it.next()) {
            (Some(n), None) => Some(n),
            _ => None,
        }
    };
    Some((named(0)?, named(k)?, g.to_string()))
}

/// `while (c < end) { … }` (alone in a block, or not): its body's items.
fn chunk_loop<'a>(i: &'a Node<BlockItem>, c: &str, end: &str) -> Option<&'a [Node<BlockItem>]> {
    let BlockItem::Statement(s) = &i.node else {
        return None;
    };
    let w = match &s.node {
        Statement::While(w) => w,
        Statement::Compound(items) if items.len() == 1 => return chunk_loop(&items[0], c, end),
        _ => return None,
    };
    let Expression::BinaryOperator(t) = &w.node.expression.node else {
        return None;
    };
    let test = t.node.operator.node == BinaryOperator::Less
        && name_of(&t.node.lhs) == Some(c)
        && name_of(&t.node.rhs) == Some(end);
    let mut body: &Node<Statement> = &w.node.statement;
    // `while (…) { { … } }`: the block the front end wraps around the body.
    while let Statement::Compound(items) = &body.node {
        match items.as_slice() {
            [Node {
                node: BlockItem::Statement(inner),
                ..
            }] if matches!(inner.node, Statement::Compound(_)) => body = inner,
            _ => break,
        }
    }
    match &body.node {
        Statement::Compound(items) if test => Some(items),
        _ => None,
    }
}

/// `c = c + 1;`, `c += 1;`, `c++;`, `++c;`.
fn increments(i: &Node<BlockItem>, c: &str) -> bool {
    let BlockItem::Statement(s) = &i.node else {
        return false;
    };
    let Statement::Expression(Some(e)) = &s.node else {
        return false;
    };
    match &e.node {
        Expression::UnaryOperator(u) => {
            matches!(
                u.node.operator.node,
                UnaryOperator::PostIncrement | UnaryOperator::PreIncrement
            ) && name_of(&u.node.operand) == Some(c)
        }
        Expression::BinaryOperator(b) if name_of(&b.node.lhs) == Some(c) => {
            let one = |x: &Node<Expression>| super::worksharing::constant(x) == Some(1);
            match b.node.operator.node {
                BinaryOperator::AssignPlus => one(&b.node.rhs),
                BinaryOperator::Assign => {
                    matches!(super::invariant::name_offset(&b.node.rhs), Some((y, 1)) if y == c)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// The file-scope scalars of a signed integer type (no typedef), with an id (their
/// declarator's address): the counters a claim may use.
fn counters(unit: &TranslationUnit) -> Vec<(String, usize)> {
    let mut out = vec![];
    for e in &unit.0 {
        let ExternalDeclaration::Declaration(d) = &e.node else {
            continue;
        };
        let mut integer = false;
        let mut other = false;
        for s in &d.node.specifiers {
            match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => match t.node {
                    TypeSpecifier::Int | TypeSpecifier::Long | TypeSpecifier::Short => {
                        integer = true
                    }
                    TypeSpecifier::Signed => {}
                    _ => other = true,
                },
                DeclarationSpecifier::StorageClass(c) => {
                    other |= c.node == StorageClassSpecifier::Typedef
                }
                _ => {}
            }
        }
        if !integer || other {
            continue;
        }
        for x in &d.node.declarators {
            let scalar = x.node.declarator.node.derived.is_empty();
            if let Some(n) = declarator_name(&x.node.declarator.node).filter(|_| scalar) {
                out.push((n.to_string(), &x.node as *const InitDeclarator as usize));
            }
        }
    }
    out
}

/// How many of `main`'s top-level statements come before the first that calls
/// `pthread_create` or a function of the program: `main` runs them alone.
fn solo_prefix(items: &[Node<BlockItem>], bodies: &HashMap<String, &FunctionDefinition>) -> usize {
    let creates = |n: &str| n == "pthread_create" || bodies.contains_key(n);
    items
        .iter()
        .position(|i| {
            let mut f = CallFinder(&creates, false);
            let _ = visit::block_item(&mut f, i);
            f.1
        })
        .unwrap_or(items.len())
}

/// Whether a call's callee (an indirect call: `""`) satisfies `.0`.
struct CallFinder<'f>(&'f dyn Fn(&str) -> bool, bool);

impl Visitor for CallFinder<'_> {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        if let Expression::Call(c) = &e.node {
            self.1 |= (self.0)(callee_name(&c.node).unwrap_or(""));
        }
        Ok(Walk::Descend)
    }
}

fn calls(unit: &TranslationUnit, which: &dyn Fn(&str) -> bool) -> bool {
    let mut f = CallFinder(which, false);
    let _ = visit::unit(&mut f, unit);
    f.1
}
