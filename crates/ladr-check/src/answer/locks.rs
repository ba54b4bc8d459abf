//! Why the two accesses race: the locks each racing thread holds at its access, and whether
//! the access is in an atomic section.
//!
//! Locks held are replayed from CBMC's counterexample: every call of a lock or unlock function
//! of the pthread model (`model/pthread.c`) in a context before C2 is a lock event of that
//! context's slot. Which lock an event is about is the object the model function wrote (its
//! state int, `m.__lock`, or a recursive mutex's count, `m.__count`; glibc's `__` members
//! stripped, the object's identity); a call that wrote nothing did not take the lock (a
//! failed `trylock`, an error-checking relock). A lock is named as the user named it at the
//! call that took it: the argument of that call in the user's source, found through the
//! call step's line origin (a span of the user's text), `&q->lock` shown as `q->lock`.
//!
//! Atomic sections are read from the user's syntax: the access lies between
//! `__VERIFIER_atomic_begin()` and `__VERIFIER_atomic_end()` of one block, or in an atomic
//! function (`__VERIFIER_atomic_*`, a user-defined C11 `atomic_*`), which ladr runs as one
//! atomic section.

use super::steps::{context_ranges, position, user_span, user_text};
use super::Position;
use super::Word;
use crate::Report;
use ladr_c::frontend::Parsed;
use ladr_c::syntax::build::callee_name;
use ladr_c::syntax::names;
use ladr_c::syntax::walk::{visit, visit::Visitor, Walk};
use ladr_ir::abi;
use lang_c::ast::{BlockItem, Expression, ExternalDeclaration, Statement};
use lang_c::span::{Node, Span};
use serde::{Deserialize, Serialize};
use std::convert::Infallible;

/// A lock a thread holds at its access.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct LockHeld {
    /// The lock as the user named it where it was taken (`q->lock` for `&q->lock`).
    pub lock: String,
    /// `mutex`, `rwlock-read`, `rwlock-write` or `spinlock`.
    pub kind: Word,
    /// The call that took it.
    pub acquired_at: Option<Position>,
    /// The object's identity in CBMC's trace (equal for one lock in two threads).
    #[serde(skip)]
    pub key: String,
    /// Relocks of a recursive mutex by its owner (not serialised).
    #[serde(skip)]
    relocks: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Acquire(&'static str),
    Release,
}

/// What a model function does to a lock; `None` for every other function.
fn op(modelled: &str) -> Option<Op> {
    Some(match modelled {
        "pthread_mutex_lock" | "pthread_mutex_trylock" => Op::Acquire("mutex"),
        "pthread_spin_lock" | "pthread_spin_trylock" => Op::Acquire("spinlock"),
        "pthread_rwlock_rdlock" | "pthread_rwlock_tryrdlock" => Op::Acquire("rwlock-read"),
        "pthread_rwlock_wrlock" | "pthread_rwlock_trywrlock" => Op::Acquire("rwlock-write"),
        "pthread_mutex_unlock" | "pthread_spin_unlock" | "pthread_rwlock_unlock" => Op::Release,
        _ => return None,
    })
}

/// The user's calls a model function stands for, with the index of the lock argument:
/// `pthread_cond_wait(c, m)` unlocks and relocks `m`, a timed lock is a trylock; C11's
/// `mtx_*` and `cnd_*` (`ladr_ir::abi::C11_THREADS`) as their POSIX counterparts.
fn user_calls(modelled: &str) -> Vec<(&str, usize)> {
    let posix = posix_calls(modelled);
    let c11 = posix
        .iter()
        .flat_map(|&(f, i)| abi::c11_names_of(f).map(move |c| (c, i)));
    c11.chain(posix.iter().copied()).collect()
}

/// The POSIX calls a model function stands for ([`user_calls`]).
fn posix_calls(modelled: &str) -> Vec<(&str, usize)> {
    match modelled {
        "pthread_mutex_lock" => vec![
            ("pthread_mutex_lock", 0),
            ("pthread_cond_wait", 1),
            ("pthread_cond_timedwait", 1),
            ("pthread_cond_clockwait", 1),
        ],
        "pthread_mutex_unlock" => vec![
            ("pthread_mutex_unlock", 0),
            ("pthread_cond_wait", 1),
            ("pthread_cond_timedwait", 1),
            ("pthread_cond_clockwait", 1),
        ],
        "pthread_mutex_trylock" => {
            vec![("pthread_mutex_trylock", 0), ("pthread_mutex_timedlock", 0)]
        }
        m => vec![(m, 0)],
    }
}

/// The lock object behind a state write of the model (`m.__data.__lock`,
/// `dynamic_object$0.lock.__data.__readers`, a recursive mutex's count as
/// `byte_extract_little_endian(m.__data.__count, 0l, signed int)`): the lvalue without
/// glibc's own members, and whether the write was the count rather than the state. `None`
/// for a write that is not of a user's object (the model's temporaries, CBMC's return
/// values).
fn object(lhs: &str) -> Option<(String, bool)> {
    let inner = ["byte_extract_little_endian(", "byte_extract_big_endian("]
        .iter()
        .find_map(|p| lhs.strip_prefix(p))
        .map_or(lhs, |r| r.split(',').next().unwrap_or(r));
    let base = inner
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()
        .unwrap_or(inner);
    let theirs =
        ladr_cbmc::names::is_own(base) || names::is_internal(base) || names::is_temporary(base);
    if base.is_empty() || theirs {
        return None;
    }
    let count = inner.ends_with(".__count");
    let mut key = inner;
    while let Some(i) = key.rfind(".__") {
        if key[i + 1..].contains(['.', '[', '-', '(', ' ']) {
            break;
        }
        key = &key[..i];
    }
    Some((key.to_string(), count))
}

/// The locks each slot holds at the race: C1 has ended (the contexts between it and C2 ran
/// nothing), and C2, the last context of the counterexample, has run up to its racing
/// access (the step that records its site; C2 may take a lock before it, one that no
/// release since C1's access makes an acquire of C1's). Indexed by slot.
pub(super) fn held_at_race(report: &Report, parsed: &Parsed) -> Vec<Vec<LockHeld>> {
    let slots = report.program.slots.len();
    let mut held: Vec<Vec<LockHeld>> = vec![vec![]; slots];
    let trace = &report.trace;
    let mut ranges = context_ranges(trace, slots);
    if let Some(last) = ranges.last_mut() {
        let detected = (last.2..last.3).find(|&i| {
            trace[i].kind == "assignment" && trace[i].lhs.as_deref() == Some(abi::SECOND_SITE)
        });
        last.3 = detected.unwrap_or(last.3);
    }
    for &(k, _, start, end) in &ranges {
        let mut i = start + 1;
        while i < end {
            let s = &trace[i];
            i += 1;
            if s.kind != "function-call" {
                continue;
            }
            let Some(callee) = s.callee.as_deref() else {
                continue;
            };
            let modelled = abi::modelled_function(callee);
            let Some(op) = op(modelled).filter(|_| modelled != callee) else {
                continue;
            };
            // The model's own writes, up to its return (not the parameters' bindings, which
            // are in the caller, nor those of functions it calls: CBMC puts a callee's
            // parameter bindings after its call step, in the calling function, so an unlock
            // calling `__ladr_mutex_kind(m)` would name its lock `m`).
            let mut writes = vec![];
            let mut j = i;
            let mut nested = 0usize;
            while j < end {
                let t = &trace[j];
                if t.kind == "function-return" {
                    if nested == 0 && t.callee.as_deref() == Some(callee) {
                        break;
                    }
                    nested = nested.saturating_sub(1);
                } else if t.kind == "function-call" {
                    nested += 1;
                } else if nested == 0
                    && t.kind == "assignment"
                    && t.function.as_deref() == Some(callee)
                {
                    if let Some(o) = t.lhs.as_deref().filter(|_| !t.is_internal()) {
                        writes.extend(object(o));
                    }
                }
                j += 1;
            }
            let Some((key, count)) = writes.into_iter().next() else {
                continue; // nothing taken or released
            };
            match op {
                Op::Acquire(kind) => {
                    if let Some(h) = held[k].iter_mut().find(|h| h.key == key) {
                        if count || kind == "rwlock-read" {
                            h.relocks += 1;
                            continue;
                        }
                    }
                    let name =
                        lock_name(report, parsed, s, modelled).unwrap_or_else(|| user_text(&key));
                    let acquired_at =
                        user_span(report, s).map(|sp| position(&parsed.map.lookup(sp.start)));
                    held[k].push(LockHeld {
                        lock: name,
                        kind: kind.into(),
                        acquired_at,
                        key,
                        relocks: 0,
                    });
                }
                Op::Release => {
                    // The releasing thread's hold, else any thread's (an unlock by another
                    // thread than the owner still frees a normal mutex or a spinlock).
                    let owner = (0..slots)
                        .map(|d| (k + d) % slots)
                        .find(|&t| held[t].iter().any(|h| h.key == key));
                    if let Some(t) = owner {
                        let at = held[t].iter().rposition(|h| h.key == key).unwrap();
                        if held[t][at].relocks > 0 {
                            held[t][at].relocks -= 1;
                        } else {
                            held[t].remove(at);
                        }
                    }
                }
            }
        }
    }
    held
}

/// The lock argument, as the user wrote it, of the user's call behind the model call `s`.
fn lock_name(
    report: &Report,
    parsed: &Parsed,
    s: &ladr_cbmc::Step,
    modelled: &str,
) -> Option<String> {
    let span = user_span(report, s)?;
    let mut find = FindCall {
        within: span,
        calls: user_calls(modelled),
        found: None,
    };
    let Ok(()) = visit::unit(&mut find, &parsed.unit);
    let arg = find.found?;
    let text = parsed.text.get(arg.start..arg.end)?;
    Some(lock_text(text))
}

struct FindCall<'a> {
    within: Span,
    calls: Vec<(&'a str, usize)>,
    found: Option<Span>,
}

impl Visitor for FindCall<'_> {
    type Error = Infallible;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        if self.found.is_some() {
            return Ok(Walk::Skip);
        }
        // Only expressions that overlap the line's span can hold the call.
        if e.span.end <= self.within.start || self.within.end <= e.span.start {
            return Ok(Walk::Skip);
        }
        if let Expression::Call(c) = &e.node {
            let name = callee_name(&c.node);
            if let Some(&(_, i)) = self.calls.iter().find(|(f, _)| Some(*f) == name) {
                self.found = c.node.arguments.get(i).map(|a| a.span);
            }
        }
        Ok(Walk::Descend)
    }
}

/// The lock a pointer argument points at, in C: `&q->lock` → `q->lock`, `m` → `*m`.
fn lock_text(arg: &str) -> String {
    let arg = arg.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut t = arg.as_str();
    while let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        if !balanced(inner) {
            break;
        }
        t = inner.trim();
    }
    if let Some(rest) = t.strip_prefix('&') {
        let rest = rest.trim();
        let mut r = rest;
        while let Some(inner) = r.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
            if !balanced(inner) {
                break;
            }
            r = inner.trim();
        }
        return r.to_string();
    }
    if t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!("*{t}")
    } else {
        format!("*({t})")
    }
}

/// Are the parentheses of `s` balanced (so `(a) + (b)` is not unwrapped to `a) + (b`)?
fn balanced(s: &str) -> bool {
    let mut depth = 0i32;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// Is the access at offset `at` of the parsed text in an atomic section of the user's code:
/// in an atomic function, or between `__VERIFIER_atomic_begin()` and `_end()` of one block?
pub(super) fn in_atomic_section(parsed: &Parsed, at: usize) -> bool {
    let Some(f) = parsed.unit.0.iter().find_map(|d| match &d.node {
        ExternalDeclaration::FunctionDefinition(f) if f.span.start <= at && at < f.span.end => {
            Some(f)
        }
        _ => None,
    }) else {
        return false;
    };
    let name = ladr_c::syntax::build::function_name(&f.node).unwrap_or("");
    if ladr_seq::passes::inline::is_atomic_function(ladr_c::syntax::names::original_name(name)) {
        return true;
    }
    let mut find = Sections { at, inside: false };
    let Ok(()) = visit::stmt(&mut find, &f.node.statement);
    find.inside
}

struct Sections {
    at: usize,
    inside: bool,
}

impl Visitor for Sections {
    type Error = Infallible;
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        if let Statement::Compound(items) = &s.node {
            let mut begin = None;
            for it in items {
                match called(it) {
                    Some(abi::ATOMIC_BEGIN) => begin = Some(it.span.start),
                    Some(abi::ATOMIC_END) => {
                        if let Some(b) = begin.take() {
                            if b <= self.at && self.at < it.span.end {
                                self.inside = true;
                            }
                        }
                    }
                    _ => {}
                }
            }
            // A section left open to the end of its block.
            if let Some(b) = begin {
                if b <= self.at && self.at < s.span.end {
                    self.inside = true;
                }
            }
        }
        Ok(Walk::Descend)
    }
}

/// The function a block item calls when it is a call statement.
fn called(it: &Node<BlockItem>) -> Option<&str> {
    match &it.node {
        BlockItem::Statement(s) => match &s.node {
            Statement::Expression(Some(e)) => match &e.node {
                Expression::Call(c) => callee_name(&c.node),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{lock_text, object};

    #[test]
    fn lock_names_are_the_pointed_at_lvalue() {
        assert_eq!(lock_text("&q->lock"), "q->lock");
        assert_eq!(lock_text("& ( m )"), "m");
        assert_eq!(lock_text("&locks[i]"), "locks[i]");
        assert_eq!(lock_text("l"), "*l");
        assert_eq!(lock_text("(a) + 1"), "*((a) + 1)");
    }

    #[test]
    fn lock_objects_drop_glibc_members() {
        let o = |s: &str, count: bool| Some((s.to_string(), count));
        assert_eq!(object("m.__data.__lock"), o("m", false));
        assert_eq!(
            object("byte_extract_little_endian(m.__data.__count, 0l, signed int)"),
            o("m", true)
        );
        assert_eq!(
            object("dynamic_object$0.lock.__data.__readers"),
            o("dynamic_object$0.lock", false)
        );
        assert_eq!(object("locks[1l]"), o("locks[1l]", false));
        assert_eq!(object("s.spin"), o("s.spin", false));
        assert_eq!(object("__ladr_4_m.__lock"), o("__ladr_4_m", false));
        assert_eq!(object("return_value___ladr_mutex_kind"), None);
        assert_eq!(object("__ladr_pc[1l]"), None);
    }
}
