//! OpenMP worksharing loops (issues 30 and 31; `docs/decisions/static.md`, "OpenMP
//! worksharing loops"). The OpenMP lowering (`ladr_c::frontend::openmp`) makes a
//! `parallel` region a *team block* of `main` and a worksharing `for` a *claim loop*;
//! both are recognised here by their shape, never by their names.
//!
//! **Team blocks.** A top-level compound statement of `main` whose only thread creations
//! are top-level `pthread_create(&h, 0, f, arg);` statements, each with a handle `h`
//! declared in the block and used nowhere but in that create, one later top-level
//! `pthread_join(h, …);` and `normalise`'s havoc of it; no label, `goto` or `return` in
//! it; no routine it starts creates threads. Every thread it starts is joined before it
//! ends, so what `main` runs before the first create and after the last join runs alone
//! when no thread was running before the block (`threads::main_facts`).
//!
//! **Claim loops** ([`claim_loops`]): in a function `f`, a statement `while (1) { S; B }`
//! at no loop depth of `f` (and `f` has no backward `goto`) whose first statement `S` is
//! an atomic section `__VERIFIER_atomic_begin(); … __VERIFIER_atomic_end();` that
//!  * writes the automatic local `k` (its address never taken) first with
//!    `k = __VERIFIER_nondet_…()`, then only with `if (!(c <= k && …)) k = c;`, and ends
//!    the counter's writes with `c = k + 1;`, `c` a file-scope variable whose address is
//!    never taken and whose every write in the program is in an atomic section
//!    (`c = k + 1` in such a claim, or `c = 0`);
//!
//! and whose next statement is `i = lb + k * s;` (`lb`, `s` integer constants, `s != 0`),
//! `i` an automatic local of `f` whose address is never taken and which no other
//! statement of the loop writes. In such a section each thread takes a `k` at least the
//! counter and leaves the counter above it: two threads hold the same `k` only if the
//! counter was re-armed (`c = 0`) in between, which the lowering does only when every
//! thread of the team has left the loop (its last failing claim; `docs/openmp.md`).
//! `f` must be a start routine that only team blocks create, whose creators and callers
//! are `main` alone, and which no function calls but `main` in such a block: each thread
//! of a team runs the loop at most once, and teams do not overlap. So two threads that
//! run the loop's body at once run different iterations `k`, hence hold different `i`.
//!
//! An index `α·i + β` (`α != 0`, `β` constants) inside `B`, after the assignment, is
//! then [`super::Step::Iter`]: two accesses with the same step made at once by two
//! threads touch different elements.

use super::threads::routine_of;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// A team block's shape: the index of its first create, of its last join, its length and
/// the routines it starts.
pub struct TeamBlock {
    pub first: usize,
    pub last: usize,
    pub len: usize,
    pub routines: Vec<String>,
}

/// What a statement holds: calls, identifiers, jumps.
#[derive(Default)]
struct Contents {
    calls: Vec<(usize, CallExpression)>,
    idents: HashMap<String, usize>,
    jumps: bool,
}

impl Visitor for Contents {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        match &e.node {
            Expression::Call(c) => self.calls.push((e.span.start, c.node.clone())),
            Expression::Identifier(i) => *self.idents.entry(i.node.name.clone()).or_default() += 1,
            _ => {}
        }
        Ok(Walk::Descend)
    }
    fn label(&mut self, _l: &Identifier) -> Result<(), Infallible> {
        self.jumps = true;
        Ok(())
    }
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        if matches!(
            s.node,
            Statement::Labeled(_)
                | Statement::Goto(_)
                | Statement::Return(_)
                | Statement::Break
                | Statement::Continue
                | Statement::Switch(_)
        ) {
            self.jumps = true;
        }
        Ok(Walk::Descend)
    }
}

fn name_of(e: &Node<Expression>) -> Option<&str> {
    match &e.node {
        Expression::Identifier(i) => Some(&i.node.name),
        _ => None,
    }
}

fn address_of_name(e: &Node<Expression>) -> Option<&str> {
    match &e.node {
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            name_of(&u.node.operand)
        }
        _ => None,
    }
}

fn callee(c: &CallExpression) -> Option<&str> {
    name_of(&c.callee)
}

/// The statement `f(…);` itself (no assignment of its result).
fn plain_call(i: &Node<BlockItem>) -> Option<&CallExpression> {
    let BlockItem::Statement(s) = &i.node else {
        return None;
    };
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    match &e.node {
        Expression::Call(c) => Some(&c.node),
        _ => None,
    }
}

/// Is `s` a team block (module doc)? `creators`: the functions that may create threads.
pub fn team_block(s: &Node<Statement>, creators: &HashSet<String>) -> Option<TeamBlock> {
    let Statement::Compound(items) = &s.node else {
        return None;
    };
    let mut all = Contents::default();
    for i in items {
        let _ = visit::block_item(&mut all, i);
    }
    if all.jumps {
        return None;
    }
    let declared: HashSet<&str> = items
        .iter()
        .flat_map(|i| match &i.node {
            BlockItem::Declaration(d) => d
                .node
                .declarators
                .iter()
                .filter_map(|x| ladr_c::syntax::build::declarator_name(&x.node.declarator.node))
                .collect(),
            _ => vec![],
        })
        .collect();
    // Handle → (create item, join item).
    let mut handles: HashMap<String, (usize, Option<usize>)> = HashMap::new();
    let mut havocs: HashMap<String, usize> = HashMap::new();
    let mut routines = vec![];
    let mut creates = 0;
    for (k, i) in items.iter().enumerate() {
        let Some(c) = plain_call(i) else { continue };
        match callee(c) {
            Some("pthread_create") => {
                let h = c.arguments.first().and_then(address_of_name)?;
                let r = routine_of(c)?;
                if !declared.contains(h) || creators.contains(r) || handles.contains_key(h) {
                    return None;
                }
                handles.insert(h.to_string(), (k, None));
                routines.push(r.to_string());
                creates += 1;
            }
            Some("pthread_join") => {
                let h = c.arguments.first().and_then(name_of)?;
                match handles.get_mut(h) {
                    Some((_, j @ None)) => *j = Some(k),
                    _ => return None,
                }
            }
            Some(ladr_ir::abi::HAVOC) => {
                if let Some(h) = c.arguments.first().and_then(address_of_name) {
                    *havocs.entry(h.to_string()).or_default() += 1;
                }
            }
            _ => {}
        }
    }
    // Every create is one of those statements, and no call may create otherwise.
    let creating = all.calls.iter().filter(|(_, c)| {
        callee(c).is_some_and(|n| n == "pthread_create" || creators.contains(n))
    });
    if creates == 0 || creating.count() != creates {
        return None;
    }
    let mut first = usize::MAX;
    let mut last = 0;
    for (h, (c, j)) in &handles {
        let j = (*j)?;
        let uses = 2 + havocs.get(h).copied().unwrap_or(0);
        if all.idents.get(h).copied() != Some(uses) {
            return None;
        }
        first = first.min(*c);
        last = last.max(j);
    }
    Some(TeamBlock {
        first,
        last,
        len: items.len(),
        routines,
    })
}

