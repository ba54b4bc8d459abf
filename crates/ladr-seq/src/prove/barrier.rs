//! Barriers (issue 30, `docs/decisions/static.md`, "Barriers"): a `pthread_barrier_t` `b`
//! whose every use the proof understands orders the accesses its waits separate. When
//!
//! * `b` is one object the proof names as it names a mutex (a global or static part, or
//!   one reached through a pointer to one object: [`super::lockptr`]), and every barrier
//!   call of the program names one (a call the proof cannot name may be any barrier's);
//! * `b` is initialised once: one `pthread_barrier_init(&b, attr, N)` in the whole
//!   program, `N` an integer constant expression without casts, a top-level statement of
//!   `main` (which runs once) before any item that creates a thread; destroyed only at
//!   top level of `main` after the last item where threads may run; never written (by
//!   name, or through a pointer that may point to it);
//! * every `pthread_barrier_wait(&b)` is a top-level statement (`w(&b);`, `r = w(&b);`)
//!   of a *participant*: `main` or a start routine no function calls (by name, through a
//!   pointer or `pthread_once`), with no goto whose jump spans one of its waits (a goto
//!   from top-level item `j` to a label in item `l` with a wait between them, both
//!   included, could skip or repeat it);
//! * the participants' instances, each counted at most (a routine created once: 1; by the
//!   one create of a counted loop of `main` with a constant bound `C`: `C`; `main`: 1),
//!   add up to exactly `N`;
//!
//! then every top-level item `k` of a participant that is no wait lies in phase `p` (the
//! number of its waits before `k`), and two accesses of participants in different phases
//! of `b` never run in parallel. Why (POSIX: a barrier returns from its waits when `N`
//! threads have called it and resets itself): a thread blocked in a wait cannot call it
//! again, so each completed round of `b` has `N` waits of `N` different threads, of
//! participants only, which are at most `N` instances: every participant's `r`-th wait.
//! An access in phase `i < j` comes before its thread's wait `i + 1`, which comes before
//! round `i + 1` completes, which comes before every participant leaves its wait `i + 1`,
//! so before the access in phase `j` of any other. A thread that never makes its wait
//! (it returns, exits, blocks or loops) keeps the round from completing: no access after
//! it happens at all. The items run in order, each once per instance: nothing jumps over
//! or back across a wait, and no one calls the routine.

use super::decls::VarId;
use super::scan::Scan;
use super::threads::MainFacts;
use super::{Lock, Path};
use ladr_c::syntax::build::callee_name;
use ladr_c::syntax::constant::{value, Env};
use ladr_c::syntax::query::{any_expr, for_each_stmt, InExpressions, Operands};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// What a barrier call does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// `pthread_barrier_init` with its count, when it is a constant.
    Init(Option<u64>),
    Wait,
    Destroy,
}

/// One barrier call, as a recording walk saw it.
#[derive(Clone, Debug)]
pub struct Event {
    pub op: Op,
    /// The barrier, when the proof names one object.
    pub barrier: Option<(VarId, Path)>,
    /// The top-level item of the walked function's body the call is in.
    pub item: Option<usize>,
    /// Made while `main` runs alone.
    pub solo: bool,
}

impl<'a> Scan<'_, 'a> {
    /// A call of a function whose pointer arguments are synchronisation objects: those
    /// are no data; `pthread_barrier_init`, `_wait` and `_destroy` are recorded.
    pub fn sync_call(&mut self, name: &str, args: &'a [Node<Expression>]) {
        let op = match name {
            "pthread_barrier_init" => Some(Op::Init(args.get(2).and_then(count))),
            "pthread_barrier_wait" => Some(Op::Wait),
            "pthread_barrier_destroy" => Some(Op::Destroy),
            _ => None,
        };
        let barrier = match (&op, args.first()) {
            (Some(_), Some(a)) => match self.lock_named(a) {
                Some(Lock::Mutex(v, path)) => Some((v, path)),
                _ => None,
            },
            _ => None,
        };
        for a in args {
            self.sync_argument(a);
        }
        if let Some(op) = op.filter(|_| self.record && self.state.is_some()) {
            self.run.barriers.push(Event {
                op,
                barrier,
                item: self.item,
                solo: self.solo,
            });
        }
    }
}

/// A barrier's count: an integer constant expression with no cast (the evaluator reads a
/// cast as its operand, `(unsigned char)300` as 300).
fn count(e: &Node<Expression>) -> Option<u64> {
    if any_expr(e, Operands::All, |x| matches!(x.node, Expression::Cast(_))) {
        return None;
    }
    u64::try_from(value(&e.node, &Env::none())?).ok()
}

/// The barrier phases of the participants' top-level items.
#[derive(Debug, Default)]
pub struct Phases {
    /// (function, top-level item) → (barrier, phase) for every barrier it takes part in.
    by_item: HashMap<(String, usize), Vec<(VarId, usize)>>,
}

impl Phases {
    /// The phases of an access made in `function`'s top-level item `item`.
    pub fn of(&self, function: &str, item: Option<usize>) -> Vec<(VarId, usize)> {
        item.and_then(|k| self.by_item.get(&(function.to_string(), k)))
            .cloned()
            .unwrap_or_default()
    }
}

/// Do two accesses with these phases lie in different phases of one barrier?
pub fn ordered(a: &[(VarId, usize)], b: &[(VarId, usize)]) -> bool {
    a.iter()
        .any(|(v, i)| b.iter().any(|(w, j)| v == w && i != j))
}

/// What the barrier rule reads.
pub struct Program<'x, 'a> {
    /// The functions with a body.
    pub bodies: &'x HashMap<String, &'a FunctionDefinition>,
    pub facts: &'x MainFacts,
    /// What each function calls, transitively.
    pub reach: &'x HashMap<String, BTreeSet<String>>,
    /// `main` may run again (a call of it) or a join may not wait.
    pub main_called: bool,
    /// Every barrier call of the reached functions, with the function.
    pub events: &'x [(Event, String)],
    /// The variables written by name.
    pub written: &'x HashSet<VarId>,
}

/// The phases of every barrier the rule understands (module header).
pub fn phases(p: &Program) -> Phases {
    let mut out = Phases::default();
    if p.main_called || p.events.iter().any(|(e, _)| e.barrier.is_none()) {
        return out;
    }
    let mut by_barrier: BTreeMap<VarId, Vec<&(Event, String)>> = BTreeMap::new();
    for e in p.events {
        if let Some((v, _)) = &e.0.barrier {
            by_barrier.entry(*v).or_default().push(e);
        }
    }
    for (v, events) in by_barrier {
        if let Some(waits) = participants(p, v, &events) {
            for (f, items) in waits {
                let Some(Statement::Compound(body)) = p.bodies.get(&f).map(|d| &d.statement.node)
                else {
                    continue;
                };
                for k in (0..body.len()).filter(|k| !items.contains(k)) {
                    let phase = items.iter().filter(|w| **w < k).count();
                    out.by_item
                        .entry((f.clone(), k))
                        .or_default()
                        .push((v, phase));
                }
            }
        }
    }
    out
}

/// The participants of barrier `v` and the top-level items of their waits, when the rule
/// holds for it (module header).
fn participants(
    p: &Program,
    v: VarId,
    events: &[&(Event, String)],
) -> Option<BTreeMap<String, BTreeSet<usize>>> {
    let path = &events.first()?.0.barrier.as_ref()?.1;
    if p.written.contains(&v)
        || events
            .iter()
            .any(|e| e.0.barrier.as_ref().map(|b| &b.1) != Some(path))
    {
        return None;
    }
    let main = top_items(p.bodies.get("main")?)?;
    let solo = &p.facts.solo;
    // The last item of `main` where threads may run.
    let last_parallel = (0..main.len())
        .filter(|&k| !solo.get(k).copied().unwrap_or(false))
        .max();
    let mut count = None;
    let mut waits: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for (e, f) in events {
        let k = e.item?;
        match &e.op {
            Op::Init(n) => {
                // One init, with a constant count, before any item that may create.
                let before_all = (0..=k).all(|j| solo.get(j).copied().unwrap_or(false));
                if count.is_some() || f != "main" || !e.solo || !before_all {
                    return None;
                }
                if !is_call_of(main.get(k)?, "pthread_barrier_init") {
                    return None;
                }
                count = Some((*n)?);
            }
            Op::Destroy => {
                if f != "main" || !e.solo || last_parallel.is_some_and(|l| k < l) {
                    return None;
                }
            }
            Op::Wait => {
                let items = top_items(p.bodies.get(f.as_str())?)?;
                if !is_call_of(items.get(k)?, "pthread_barrier_wait") {
                    return None;
                }
                waits.entry(f.clone()).or_default().insert(k);
            }
        }
    }
    let mut instances = 0u64;
    for (f, items) in &waits {
        instances += instances_of(p, f)?;
        if jumps_across(p.bodies.get(f.as_str())?, items) {
            return None;
        }
    }
    (count? == instances).then_some(waits)
}

/// How many instances of participant `f` may exist at most (none: unknown, or `f` is
/// called as a function).
fn instances_of(p: &Program, f: &str) -> Option<u64> {
    if p.reach.values().any(|r| r.contains(f)) {
        return None;
    }
    if f == "main" {
        return Some(1);
    }
    let r = p.facts.routines.get(f)?;
    if !r.many {
        return Some(1);
    }
    p.facts.instances.get(f).copied()
}

/// The top-level items of a function's body.
fn top_items(f: &FunctionDefinition) -> Option<&[Node<BlockItem>]> {
    match &f.statement.node {
        Statement::Compound(items) => Some(items),
        _ => None,
    }
}

/// Is the item the statement `callee(…);` or `v = callee(…);`?
fn is_call_of(item: &Node<BlockItem>, callee: &str) -> bool {
    let BlockItem::Statement(s) = &item.node else {
        return false;
    };
    super::threads::call_statement(s).is_some_and(|c| callee_name(c) == Some(callee))
}

/// Does a goto of `f` jump from a top-level item to a label in another such that a wait
/// item lies between them (both included)?
fn jumps_across(f: &FunctionDefinition, waits: &BTreeSet<usize>) -> bool {
    let Some(items) = top_items(f) else {
        return true;
    };
    let mut labels: HashMap<String, usize> = HashMap::new();
    let mut gotos: Vec<(String, usize)> = vec![];
    for (k, item) in items.iter().enumerate() {
        for_each_stmt(item, InExpressions::Enter, |s| match &s.node {
            Statement::Labeled(l) => {
                if let Label::Identifier(i) = &l.node.label.node {
                    labels.insert(i.node.name.clone(), k);
                }
            }
            Statement::Goto(l) => gotos.push((l.node.name.clone(), k)),
            _ => {}
        });
    }
    gotos.iter().any(|(label, from)| {
        // A label the function does not define: any jump.
        let Some(&to) = labels.get(label) else {
            return true;
        };
        let (lo, hi) = (*from.min(&to), *from.max(&to));
        waits.range(lo..=hi).next().is_some()
    })
}
