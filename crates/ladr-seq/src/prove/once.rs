//! `pthread_once(&o, f)` (issue 30): the routine `f` runs at most once for the
//! once-control `o`, and every return from `pthread_once(&o, f)` comes after `f` finished.
//! So an access in `f` run from there and an access after such a return (in any thread)
//! never race, nor do two accesses in `f`. The call is walked as a call of `f` holding
//! [`Lock::OnceRunning`]; on return the caller holds [`Lock::OnceDone`], which excludes
//! only the first (`super::exclusive`). A `f` also called otherwise (directly, through a
//! pointer, as a start routine) loses `OnceRunning` in the meet of its entry locksets.
//! Only an `o` that is one object (a global, as a mutex is named) and an `f` that is a
//! defined function's name are understood; anything else is the library call it was
//! (the proof gives up on a routine it cannot follow).

use super::access::strip_casts;
use super::decls::VarId;
use super::scan::{RawAccess, Scan, Target};
use super::Lock;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashSet;

impl<'a> Scan<'_, 'a> {
    /// `pthread_once(args)`, walked as above; false: not understood, nothing walked.
    pub fn pthread_once(&mut self, args: &'a [Node<Expression>]) -> bool {
        let [control, routine] = args else {
            return false;
        };
        let Expression::Identifier(r) = &strip_casts(routine).node else {
            return false;
        };
        let routine = r.node.name.as_str();
        if self.lookup(routine).is_some() || !self.decls.bodies.contains_key(routine) {
            return false;
        }
        let Some(Lock::Mutex(o, path)) = self.lock_of(control) else {
            return false;
        };
        self.sync_argument(control);
        let running = Lock::OnceRunning(o, path.clone(), routine.to_string());
        self.lock(running.clone());
        self.call_defined(routine);
        if let Some(locks) = &mut self.state {
            locks.remove(&running);
            locks.insert(Lock::OnceDone(o, path, routine.to_string()));
        }
        true
    }
}

/// Drops the once locks of once-controls the program may write (a named write, or any
/// write through a pointer when its address is taken): a reset once-control may run its
/// routine again, while threads that passed `pthread_once` read what it writes.
pub fn drop_written_controls(accesses: &mut [(RawAccess, String)], address_taken: &HashSet<VarId>) {
    let written: HashSet<VarId> = accesses
        .iter()
        .filter_map(|(x, _)| match x.target {
            Target::Var(v) if x.write => Some(v),
            _ => None,
        })
        .collect();
    let unreliable = |v: &VarId| written.contains(v) || address_taken.contains(v);
    for (x, _) in accesses.iter_mut() {
        x.locks.retain(|l| match l {
            Lock::OnceRunning(v, ..) | Lock::OnceDone(v, ..) => !unreliable(v),
            _ => true,
        });
    }
}
