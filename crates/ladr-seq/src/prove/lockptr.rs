//! Locks reached through pointers (issue 30, `docs/decisions/static.md`, "Locks through
//! pointers"): `pthread_mutex_lock(p)` and `pthread_mutex_lock(&q->m)` name the lock
//! [`Lock::Mutex`]`(v, path)` when the points-to ([`super::heap`]) says the pointer may
//! point to exactly one variable `v`, always at its start, and `v` is one lock instance:
//!
//! * **one object**: `v` is a global or a static local (not `__thread`), or an automatic
//!   local declared at top level of `main`'s body when `main` runs once (no function
//!   calls it, no `pthread_create` starts it): its lifetime is all of `main`'s. Never a
//!   heap site (a site is many blocks), never another automatic local (one per call).
//! * **at its start**: no value of the program may point inside `v` off its start
//!   (`PointsTo::shifted`: `&v.f`, `&q->f`, `&v[i]`, `v` decaying, `q + 1`, `q++`,
//!   arithmetic on an integer holding it, `strchr`, an atomic add, or `v` reachable from
//!   code the analysis does not see) — synchronisation arguments (`&q->m` handed to the
//!   pthread functions) are no values. So every pointer to `v` holds `&v` itself.
//! * **the right type**: for `&q->m` (`&(*q).m`), `q` is a variable declared as a
//!   pointer to one tag or typedef name the program defines once, and `v` is declared
//!   as that type alone (no array): `q->m` is `v.m`. For `p` itself, `v` is no array:
//!   the lock is the mutex at `v`'s start, named `(v, [])` (another name than `&v.m`'s
//!   for the same mutex only proves less).
//!
//! Anything else is no lock, as before: a lock of it adds nothing, an unlock, init or
//! destroy ends every lock held. The recording walks collect the candidates; the
//! points-to of the constraints seen after the discovery resolves them once, before
//! the lock summaries, and every later walk reads the answer. The final points-to (the
//! same constraints) is checked to agree ([`check`]).

use super::access::strip_casts;
use super::decls::{Decls, Tri, VarId};
use super::heap::{NodeId, PointsTo};
use super::scan::Scan;
use super::{Lock, Path, Step};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// A lock argument through a pointer, as a recording walk saw it.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The pointer's node in the points-to.
    pub node: NodeId,
    /// The members after the pointer's target (`&q->m.n`: `m`, `n`).
    pub path: Path,
    /// `&q->…`: the base type `q` is declared to point to; none: the argument is the
    /// pointer itself.
    pub pointee: Option<String>,
}

/// The key of a lock argument: its address in the syntax tree.
fn key(arg: &Node<Expression>) -> usize {
    strip_casts(arg) as *const Node<Expression> as usize
}

impl<'a> Scan<'_, 'a> {
    /// The mutex `&m` names, if it is one object the proof can name: a global (not
    /// thread-local), or a part of one named by members and constant indices (`&s.m`,
    /// `&m[4]`); a whole array is none, but a global array's name is its first element
    /// (the OpenMP lowering's `critical` locks).
    pub(super) fn lock_of(&self, arg: &'a Node<Expression>) -> Option<Lock> {
        let arg = strip_casts(arg);
        if let Expression::Identifier(i) = &arg.node {
            // A global array decays to its first element's address: `&a[0]`.
            let v = self.lookup(&i.node.name)?;
            let var = &self.decls.vars[v];
            let global = !var.automatic && !var.thread_local && var.function.is_none();
            return (global && var.array == Tri::Yes)
                .then(|| Lock::Mutex(v, vec![Step::Index(Some(0))]));
        }
        let Expression::UnaryOperator(u) = &arg.node else {
            return None;
        };
        if u.node.operator.node != UnaryOperator::Address {
            return None;
        }
        let (v, path, _) = self.part(&u.node.operand)?;
        let var = &self.decls.vars[v];
        let constant = path.iter().all(|s| *s != Step::Index(None));
        let whole_array = path.is_empty() && var.array != Tri::No;
        (!var.automatic && !var.thread_local && constant && !whole_array)
            .then_some(Lock::Mutex(v, path))
    }

    /// The lock a lock function's argument names, if the proof can name one: a global's
    /// part, an element's, or through a pointer.
    pub fn lock_named(&mut self, arg: &'a Node<Expression>) -> Option<Lock> {
        self.lock_of(arg)
            .or_else(|| self.element_lock_of(arg))
            .or_else(|| self.pointer_lock_of(arg))
    }

    /// The lock a lock function's argument names through a pointer, once resolved; a
    /// recording walk notes the candidate.
    pub fn pointer_lock_of(&mut self, arg: &'a Node<Expression>) -> Option<Lock> {
        let k = key(arg);
        if self.record {
            if let Some(c) = self.candidate(arg) {
                self.decls.lock_candidates.insert(k, c);
            }
        }
        self.decls.pointer_locks.get(&k).cloned()
    }

    /// `p` (the pointer itself) or `&q->m.n` / `&(*q).m` (members only, `q` a variable).
    fn candidate(&mut self, arg: &'a Node<Expression>) -> Option<Candidate> {
        let a = strip_casts(arg);
        let Expression::UnaryOperator(u) = &a.node else {
            let node = self.pointer_node(Some(a))?;
            return Some(Candidate {
                node,
                path: vec![],
                pointee: None,
            });
        };
        if u.node.operator.node != UnaryOperator::Address {
            return None;
        }
        let mut path = vec![];
        let mut e = &u.node.operand;
        let q = loop {
            match &e.node {
                Expression::Member(m) => {
                    path.push(Step::Field(m.node.identifier.node.name.clone()));
                    if m.node.operator.node == MemberOperator::Indirect {
                        break &m.node.expression;
                    }
                    e = &m.node.expression;
                }
                Expression::UnaryOperator(d)
                    if d.node.operator.node == UnaryOperator::Indirection =>
                {
                    break &d.node.operand;
                }
                _ => return None,
            }
        };
        path.reverse();
        let Expression::Identifier(i) = &q.node else {
            return None;
        };
        let shape = self.decls.vars[self.lookup(&i.node.name)?].shape.clone()?;
        if shape.array {
            return None;
        }
        let node = self.pointer_node(Some(q))?;
        Some(Candidate {
            node,
            path,
            pointee: Some(shape.base),
        })
    }
}

impl<'a> super::Analysis<'a> {
    /// Names the locks through pointers the discovery saw, before any lockset is
    /// computed ([`Decls::pointer_locks`]).
    pub(super) fn name_pointer_locks(
        &self,
        decls: &mut Decls<'a>,
        main: &FunctionDefinition,
        locals: &HashMap<usize, VarId>,
    ) {
        if decls.lock_candidates.is_empty() {
            return;
        }
        let once = !self.reach.values().any(|r| r.contains("main"))
            && !self
                .runs
                .values()
                .any(|r| r.creates.iter().any(|c| c.routine == "main"));
        let pt = super::heap::points_to_now(decls, &decls.escaped);
        let objects = main_objects(main, locals, once);
        decls.pointer_locks = resolve(decls, &pt, &objects);
    }
}

/// The locals of `main` that are one object: declared at top level of its body, when
/// `main` runs once (`once`).
pub fn main_objects(
    main: &FunctionDefinition,
    locals: &HashMap<usize, VarId>,
    once: bool,
) -> HashSet<VarId> {
    let mut out = HashSet::new();
    let Statement::Compound(items) = &main.statement.node else {
        return out;
    };
    if !once {
        return out;
    }
    for item in items {
        if let BlockItem::Declaration(d) = &item.node {
            for init in &d.node.declarators {
                let k = &init.node.declarator.node as *const Declarator as usize;
                if let Some(&v) = locals.get(&k) {
                    out.insert(v);
                }
            }
        }
    }
    out
}

/// The lock each candidate names, by the points-to `pt`; `main_objects`: the automatic
/// locals that are one object.
pub fn resolve(
    decls: &Decls,
    pt: &PointsTo,
    main_objects: &HashSet<VarId>,
) -> HashMap<usize, Lock> {
    decls
        .lock_candidates
        .iter()
        .filter_map(|(&k, c)| Some((k, lock_for(decls, pt, c, main_objects)?)))
        .collect()
}

fn lock_for(
    decls: &Decls,
    pt: &PointsTo,
    c: &Candidate,
    main_objects: &HashSet<VarId>,
) -> Option<Lock> {
    let v = pt.exact(c.node)?;
    let var = &decls.vars[v];
    let one = !var.thread_local && (!var.automatic || main_objects.contains(&v));
    let typed = match &c.pointee {
        Some(base) => var.plain.as_ref() == Some(base) && !decls.redefined_tags.contains(base),
        None => var.array == Tri::No,
    };
    (one && typed).then(|| Lock::Mutex(v, c.path.clone()))
}

/// A give-up unless the final points-to `pt` gives every resolved lock's pointer the
/// same one variable (it solves the same constraints: a difference is a bug).
pub fn check(decls: &Decls, pt: &PointsTo) -> Option<(String, usize)> {
    let same = decls.pointer_locks.iter().all(|(k, l)| {
        let (Some(c), Lock::Mutex(v, _)) = (decls.lock_candidates.get(k), l) else {
            return false;
        };
        pt.only(c.node, *v)
    });
    (!same).then(|| {
        (
            "a lock through a pointer names another object".to_string(),
            0,
        )
    })
}
