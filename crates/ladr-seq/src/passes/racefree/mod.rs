//! `racefree` — what cannot race is not instrumented, `main` alone not visible (issue 17): a static
//! pre-analysis between `visible` and `race` that makes the formula CBMC gets smaller and
//! never removes a race. Every doubt keeps the statement visible and the access
//! instrumented.
//!
//! The analysis reads each slot's items in order. After `unwind` every jump goes forward,
//! so the order of the items is an order of execution: one pass over them, with the states
//! of the forward `goto`s met at their labels and the two branches of an `if` met after it,
//! computes what holds before every statement (`State`):
//! * which slots `main` may have created (a union over paths) and which it has joined on
//!   every path (an intersection), the joined thread known from the `pthread_t` object the
//!   create stored it in (`tids`: only objects that nothing but a create of `main`, or
//!   `normalise`'s havoc of an uninitialised local, writes and whose address goes nowhere
//!   else);
//! * the values of private integer locals (loop counters: `i = 0`, `i++`; values are kept
//!   only in 0..=127, where every integer type and every conversion between them agree), so
//!   that the unwound copies of `for (i = 0; i < N; i++) pthread_join(t[i], 0);` join known
//!   threads and an `if` whose condition is known takes one branch;
//! * the mutexes the slot holds on every path (a must-lockset).
//!
//! Rules (each proved by a pair of programs in `tests/e2e`, see `tests/end_to_end`):
//! 1. **Solo statements of `main`**: where every thread `main` may have created has been
//!    joined (before the first `pthread_create`, after the joins of all threads) no other
//!    thread can run, so `main`'s statements there race with nothing: they are not visible
//!    (unless they call the pthread model, assume after a `pthread_create` or are an atomic
//!    section, which keep their visibility and flags) and their accesses are not
//!    instrumented. A slot that creates threads of its own never counts as joined (its
//!    children may outlive it).
//! 2. **Race-free objects** (`Vars::set_race_free`): a variable whose every access is by
//!    name (its address never taken, an array never used as a pointer, no `asm` in the
//!    program, no access outside the slots' code) and whose accesses outside solo statements
//!    are all reads (a read-only object, or one written only while `main` runs alone), or
//!    all by one slot (an object confined to one thread), or all made while the slot holds
//!    one and the same mutex (must-locksets). Such an object is not shared: its accesses
//!    are not instrumented. Statements touching only it and private locals stay visible
//!    (fewer labels outside `main`'s solo stretches made CBMC's symbolic execution slower,
//!    see `run`).
//!
//!    What counts as an access by name, and what is no escape of the address
//!    (`tests/e2e/lock_member_*`, `lock_through_pointer_*`):
//!    * `((T)(&x[k]))->f`, the read of a pointer `constprop` folded to `&x[k]`, is the
//!      access `x[k].f` (`race` agrees: [`address_target`](ladr_ir::analysis::address_target));
//!    * `&x.m`, `&x[i].m`, `&x[i]` as the lock argument of a lock function: the model
//!      touches only that mutex, no data of `x`;
//!    * `p = &x…;` into a private pointer `p` that is read nowhere but as `&p->m` for a lock
//!      function (or not at all): `x` goes nowhere through it.
//!
//! Locks: a mutex counts only when it is a named variable whose every occurrence is `&m` as
//! the lock argument of `pthread_mutex_lock`/`unlock`/`trylock`/`init` or of the spin
//! lock functions (condition waits are an unlock and a lock after `threads`); a lock adds
//! it to the set, an unlock or init removes it, a trylock adds nothing; an unlock where the
//! slot does not surely hold it (a recursive mutex's second unlock, an unlock after a
//! trylock) or an init outside a solo statement disqualifies it. No pointer reaches such a
//! mutex, so unlocking anything but `&m` (`&e->lock`, `&a[i].m`) leaves `m` held.
//!
//! Locals whose address is taken but stays in their thread, and the pointers that reach
//! only them, are `ladr_ir::confined`'s (run by `visible`, before this pass).
//!
//! Not done (kept instrumented): objects reached through pointers outside solo statements
//! (but folded ones), mutexes inside objects or reached through pointers as locks of the
//! lockset, rwlocks, `trylock` results.
//!
//! Needs: `visible`. Guarantees: `Program::code` with the same statements, some visible ones
//! made plain and the labels numbered again; `Program::vars` knows the race-free objects.
//!
//! The pass by stage: `occurrences` sums up every variable's occurrences (escapes,
//! writes, locks); `flow` computes the `State` before every item of each slot and notes
//! each access with it; this module decides the race-free objects (rule 2); `visibility`
//! makes `main`'s solo statements plain (rule 1) and numbers the labels again.

mod flow;
mod occurrences;
mod visibility;

use flow::{analyse_slots, Access, FlowAnalysis, FlowFacts};
use ladr_c::diag::Result;
use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::visit;
use ladr_ir::abi;
use ladr_ir::analysis::Vars;
use ladr_ir::program::{Item, Options, Program};
use lang_c::ast::*;
use lang_c::span::Node;
use occurrences::{Event, Occurrences, Summary};
use std::collections::{HashMap, HashSet};
use visibility::{make_solo_statements_plain, merge_first_again, number_labels, unmerge_first};

pub fn run(mut p: Program, opts: &Options) -> Result<Program> {
    // The static proof's race-free objects that stay visible (atomic ones, the C
    // library's states) are not instrumented either (`Program::proved`).
    let proved: HashSet<String> = p.proved.visible.iter().cloned().collect();
    if !opts.racefree {
        p.vars.set_race_free(proved);
        return Ok(p);
    }
    // `main`'s first statements run before any thread exists: `visible` merged them into
    // its label 0 (for a thread, so that its first statement can be C2's first access),
    // which would keep them visible and instrumented; apart, rule 1 applies to them.
    if let Some(c) = p.code.first_mut() {
        unmerge_first(c);
    }
    let shapes = shapes(&p);
    let ints = int_locals(&p);
    let (summary, asm) = summarise_occurrences(&p, &shapes);
    let tids: HashSet<String> = summary
        .iter()
        .filter(|(_, s)| s.tid_only())
        .map(|(n, _)| n.clone())
        .collect();
    let mutexes: HashSet<String> = summary
        .iter()
        .filter(|(_, s)| s.lock_only())
        .map(|(n, _)| n.clone())
        .collect();
    let parents: Vec<Option<usize>> = p.slots.iter().map(|s| s.parent).collect();
    let facts = FlowFacts {
        shapes: &shapes,
        ints: &ints,
        tids: &tids,
        mutexes: &mutexes,
        parents: &parents,
    };
    let flow = analyse_slots(&p, &facts);
    // The race-free objects.
    let mut race_free = HashSet::new();
    if !asm {
        race_free = race_free_objects(&summary, &shapes, &flow);
    }
    race_free.extend(proved);
    p.vars.set_race_free(race_free);
    // Visible statements that need not be.
    for (slot, c) in p.code.iter_mut().enumerate() {
        make_solo_statements_plain(slot, c, &flow.before[slot], &parents);
        number_labels(c);
        merge_first_again(slot, c, &p.vars);
    }
    Ok(p)
}

/// Every occurrence of every variable, wherever it is (the declarations and functions of
/// the unit, but the model's, and the slots' items), summed up per variable; and whether
/// the program has `asm`.
fn summarise_occurrences(p: &Program, shapes: &Vars) -> (HashMap<String, Summary>, bool) {
    let mut summary: HashMap<String, Summary> = HashMap::new();
    let mut asm = false;
    for ext in &p.unit.0 {
        let mut o = Occurrences::new(shapes);
        let outside = match &ext.node {
            ExternalDeclaration::Declaration(d) => {
                let Ok(()) = visit::declaration(&mut o, d);
                false
            }
            ExternalDeclaration::StaticAssert(_) => false,
            ExternalDeclaration::FunctionDefinition(f) => {
                // The model's functions name no object of the program (their parameters
                // and ladr's globals only).
                if function_name(&f.node).is_some_and(abi::is_model_function) {
                    continue;
                }
                let Ok(()) = visit::function(&mut o, f);
                true
            }
        };
        asm |= o.asm;
        for (name, ev) in o.events {
            summary.entry(name).or_default().add(None, ev, outside);
        }
        for (x, p) in o.stores {
            let s = summary.entry(x).or_default();
            if outside {
                s.add(None, Event::Escape, true);
            } else {
                s.stored_in.insert(p);
            }
        }
    }
    for (slot, c) in p.code.iter().enumerate() {
        for it in &c.items {
            let mut o = Occurrences::new(shapes);
            let Ok(()) = match it {
                Item::Visible { stmt, .. } | Item::Plain(stmt) => visit::stmt(&mut o, stmt),
                Item::Decl(d) => visit::declaration(&mut o, d),
                Item::Label(..) => Ok(()),
            };
            asm |= o.asm;
            for (name, ev) in o.events {
                summary.entry(name).or_default().add(Some(slot), ev, false);
            }
            for (x, p) in o.stores {
                summary.entry(x).or_default().stored_in.insert(p);
            }
        }
    }
    (summary, asm)
}

/// Rule 2: the variables whose every access is by name and whose accesses outside solo
/// statements are all reads, all by one slot or all under one mutex (the program has no
/// `asm`: the caller's test).
fn race_free_objects(
    summary: &HashMap<String, Summary>,
    shapes: &Vars,
    flow: &FlowAnalysis,
) -> HashSet<String> {
    let mut race_free = HashSet::new();
    for (name, s) in summary {
        // Its address assigned to a pointer that leads somewhere: an escape.
        let stored = s.stored_in.iter().any(|p| {
            !summary
                .get(p)
                .is_some_and(|ps| ps.dead_end(shapes.is_private(p)))
        });
        if s.escaped || stored || s.outside || !shapes.is_variable(name) {
            continue;
        }
        let live: Vec<&Access> = flow
            .uses
            .get(name)
            .map(|u| u.iter().filter(|u| !u.solo).collect())
            .unwrap_or_default();
        let read_only = live.iter().all(|u| !u.write);
        let one_slot = live.windows(2).all(|w| w[0].slot == w[1].slot);
        let locked = live.first().is_some_and(|first| {
            first
                .locks
                .iter()
                .any(|m| !flow.bad_locks.contains(m) && live.iter().all(|u| u.locks.contains(m)))
        });
        if read_only || one_slot || locked {
            race_free.insert(name.clone());
        }
    }
    race_free
}

/// The shapes of the program's variables (array depths), from its declarations without the
/// model's functions, whose parameters would hide the program's objects of the same name.
fn shapes(p: &Program) -> Vars {
    let mut unit = TranslationUnit(vec![]);
    for ext in &p.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
            if function_name(&f.node).is_some_and(abi::is_model_function) {
                continue;
            }
        }
        unit.0.push(ext.clone());
    }
    for c in &p.code {
        for it in &c.items {
            if let Item::Decl(d) = it {
                unit.0.push(Node::new(
                    ExternalDeclaration::Declaration(d.clone()),
                    d.span,
                ));
            }
        }
    }
    Vars::new(&unit, &p.thread_locals)
}

/// Private thread locals of a plain integer type (`char` to `long long`, signed or not; not
/// `_Bool`, no typedef): the variables whose values
/// [`State::consts`](flow::State::consts) may know.
fn int_locals(p: &Program) -> HashSet<String> {
    let mut out = HashSet::new();
    for ext in &p.unit.0 {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let integer = d.node.specifiers.iter().all(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => is_integer_keyword(&t.node),
            DeclarationSpecifier::StorageClass(sc) => sc.node == StorageClassSpecifier::Static,
            DeclarationSpecifier::TypeQualifier(_) => true,
            _ => false,
        });
        if !integer {
            continue;
        }
        for id in &d.node.declarators {
            let dd = &id.node.declarator.node;
            if !dd.derived.is_empty() || !matches!(dd.kind.node, DeclaratorKind::Identifier(_)) {
                continue;
            }
            if let Some(n) = declarator_name(dd) {
                if p.thread_locals.contains(n) && p.vars.is_private(n) {
                    out.insert(n.to_string());
                }
            }
        }
    }
    out
}
