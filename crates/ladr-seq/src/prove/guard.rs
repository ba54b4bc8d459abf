//! Conditional locking guarded by the same condition (issue 30):
//!
//! ```c
//! if (i) pthread_mutex_lock(&m);
//! i++;
//! if (i - 1) glob++;      /* holds m */
//! i--;
//! if (i) pthread_mutex_unlock(&m);
//! ```
//!
//! Two must-facts of the walk, met as locks are and never recorded with an access nor
//! carried into a summary or a call site: [`Lock::Compare`]`(v, c, eq)` — the local `v`
//! equals `c` (`eq`) or differs from it (`!eq`) — and [`Lock::Guarded`]`(v, c, eq, L)` —
//! when that comparison holds, `L` is held. Both compare modulo the width of `v`'s type,
//! which is `int`, `unsigned`, `long` or `long long` (no promotion, so `v + 1`, `v - k`
//! and `v != k` are that width's arithmetic), and `v` is an automatic local whose address
//! the program never takes: only its own call's statements write it, and the walk sees
//! each write.
//!
//! * A test `if (v)`, `if (v != k)`, `if (v - k)`, `if (v == k)`, `if (!v)` (`k` a
//!   non-negative integer literal) adds, in each branch, the comparison that holds there
//!   and every `L` guarded by it.
//! * A meet keeps `Guarded(v, c, eq, L)` when each side has it, holds `L` (the implication
//!   holds) or has the opposite comparison (its premise is false); a lock one side holds
//!   and the other not is guarded by the comparison the other side's opposite — so
//!   `if (v) lock(&m);` ends with "`v` differs from 0: `m` is held".
//! * `v = pthread_mutex_trylock(&m)` (`pthread_spin_trylock`, `pthread_rwlock_trywrlock`;
//!   `pthread_rwlock_tryrdlock` holds it shared) adds "`v` equals 0: `m` is held" — POSIX
//!   returns 0 exactly when the lock was taken.
//! * `v++`, `v--`, `v += k`, `v -= k` (and `v = v ± k`) shift both facts by the same
//!   amount; any other write of `v`, or its declaration, ends them; an unlock, an init or
//!   a call that may release `L` ends `Guarded(…, L)` (`Lock::may_alias` looks at `L`).

use super::decls::VarId;
use super::scan::Scan;
use super::{Lock, Locks, State};
use lang_c::ast::*;
use lang_c::span::Node;

/// The largest offset kept: facts beyond it are dropped (the walk's loops stay finite).
const LIMIT: i64 = 1 << 20;

/// A test of a guard variable: the `then` branch runs when `var` equals `k` (`then_eq`:
/// `v == k`, `!v`) or when it differs from `k` (`v`, `v != k`, `v - k`).
#[derive(Clone, Copy, Debug)]
pub struct Test {
    var: VarId,
    k: i64,
    then_eq: bool,
}

/// A lock a [`Lock::Guarded`] fact may guard: a real lock, not a fact of the walk.
fn guardable(l: &Lock) -> bool {
    matches!(
        l,
        Lock::Mutex(..)
            | Lock::Shared(..)
            | Lock::Atomic
            | Lock::OnceRunning(..)
            | Lock::OnceDone(..)
    )
}

/// Adds to `out` the guarded facts true on both sides of a meet of `a` and `b`.
pub fn meet_guards(a: &Locks, b: &Locks, out: &mut Locks) {
    for (x, y) in [(a, b), (b, a)] {
        for l in x {
            match l {
                Lock::Guarded(v, c, eq, g)
                    if y.contains(g) || y.contains(&Lock::Compare(*v, *c, !eq)) =>
                {
                    out.insert(l.clone());
                }
                _ if guardable(l) && !y.contains(l) => {
                    for e in y {
                        if let Lock::Compare(v, c, eq) = e {
                            out.insert(Lock::Guarded(*v, *c, !eq, Box::new(l.clone())));
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// The guard variable a fact of this module is about.
fn about(l: &Lock) -> Option<VarId> {
    match l {
        Lock::Guarded(v, ..) | Lock::Compare(v, ..) => Some(*v),
        _ => None,
    }
}

/// Ends every fact about `v` (it is written or declared again).
pub fn forget(state: &mut State, v: VarId) {
    if let Some(locks) = state {
        locks.retain(|l| about(l) != Some(v));
    }
}

/// The state on entering a branch of `test`: `then` or `else`.
pub fn enter(mut state: State, test: Option<Test>, then: bool) -> State {
    let (Some(t), Some(locks)) = (test, &mut state) else {
        return state;
    };
    // Here `var == k` holds (`eq`) or `var != k` does.
    let eq = then == t.then_eq;
    let held: Vec<Lock> = locks
        .iter()
        .filter_map(|l| match l {
            Lock::Guarded(v, c, e, g) if *v == t.var && *c == t.k && *e == eq => {
                Some((**g).clone())
            }
            _ => None,
        })
        .collect();
    locks.extend(held);
    locks.insert(Lock::Compare(t.var, t.k, eq));
    state
}

/// A non-negative integer literal below [`LIMIT`] (any suffix but an imaginary one).
fn literal(e: &Node<Expression>) -> Option<i64> {
    if let Expression::Constant(c) = &e.node {
        if let Constant::Integer(i) = &c.node {
            if i.suffix.imaginary {
                return None;
            }
        }
    }
    let k = ladr_c::syntax::constant::int_literal(&e.node)?;
    i64::try_from(k).ok().filter(|k| *k < LIMIT)
}

impl<'d, 'a> Scan<'d, 'a> {
    /// `e` names a guard variable: an automatic local of a wide integer type whose address
    /// the program never takes (known once the discovery has seen every address taken).
    fn guard_var(&self, e: &Node<Expression>) -> Option<VarId> {
        let Expression::Identifier(i) = &e.node else {
            return None;
        };
        let v = self.lookup(&i.node.name)?;
        self.is_guard(v).then_some(v)
    }

    fn is_guard(&self, v: VarId) -> bool {
        let var = &self.decls.vars[v];
        self.decls.addresses_known
            && var.automatic
            && !var.thread_local
            && var.wide_integer
            && !self.decls.escaped.contains(&v)
    }

    /// The guard test `cond` is, if it is one.
    pub fn guard_test(&self, cond: &Node<Expression>) -> Option<Test> {
        let plain = |var, k, then_eq| Some(Test { var, k, then_eq });
        match &cond.node {
            Expression::Identifier(_) => plain(self.guard_var(cond)?, 0, false),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                let t = self.guard_test(&u.node.operand)?;
                plain(t.var, t.k, !t.then_eq)
            }
            Expression::BinaryOperator(b) => {
                let (l, r) = (&b.node.lhs, &b.node.rhs);
                let either = || match (self.guard_var(l), self.guard_var(r)) {
                    (Some(v), None) => Some((v, literal(r)?)),
                    (None, Some(v)) => Some((v, literal(l)?)),
                    _ => None,
                };
                match b.node.operator.node {
                    BinaryOperator::NotEquals => {
                        let (v, k) = either()?;
                        plain(v, k, false)
                    }
                    BinaryOperator::Equals => {
                        let (v, k) = either()?;
                        plain(v, k, true)
                    }
                    BinaryOperator::Minus => plain(self.guard_var(l)?, literal(r)?, false),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The shift `e` makes of a guard variable: `v++`, `v--`, `v += k`, `v -= k`,
    /// `v = v + k`, `v = v - k`.
    fn guard_shift(&self, e: &Node<Expression>) -> Option<(VarId, i64)> {
        match &e.node {
            Expression::UnaryOperator(u) => {
                let d = match u.node.operator.node {
                    UnaryOperator::PostIncrement | UnaryOperator::PreIncrement => 1,
                    UnaryOperator::PostDecrement | UnaryOperator::PreDecrement => -1,
                    _ => return None,
                };
                Some((self.guard_var(&u.node.operand)?, d))
            }
            Expression::BinaryOperator(b) => {
                let v = self.guard_var(&b.node.lhs)?;
                match b.node.operator.node {
                    BinaryOperator::AssignPlus => Some((v, literal(&b.node.rhs)?)),
                    BinaryOperator::AssignMinus => Some((v, -literal(&b.node.rhs)?)),
                    BinaryOperator::Assign => {
                        let Expression::BinaryOperator(r) = &b.node.rhs.node else {
                            return None;
                        };
                        if self.guard_var(&r.node.lhs) != Some(v) {
                            return None;
                        }
                        let k = literal(&r.node.rhs)?;
                        match r.node.operator.node {
                            BinaryOperator::Plus => Some((v, k)),
                            BinaryOperator::Minus => Some((v, -k)),
                            _ => None,
                        }
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The lock a trylock call `e` takes when it returns 0.
    fn trylock_of(&self, e: &'a Node<Expression>) -> Option<Lock> {
        let (name, arguments) = library_call(self, e)?;
        let shared = match name {
            "pthread_mutex_trylock" | "pthread_spin_trylock" | "pthread_rwlock_trywrlock" => false,
            "pthread_rwlock_tryrdlock" => true,
            _ => return None,
        };
        match self.lock_of(arguments.first()?)? {
            Lock::Mutex(m, path) if shared => Some(Lock::Shared(m, path)),
            l @ Lock::Mutex(..) => Some(l),
            _ => None,
        }
    }

    /// After `v = e` or `T v = e;` (walked, which ended `v`'s facts): a trylock's result
    /// guards its lock; a copy of a guard variable into a type no narrower (0 stays 0, any
    /// other value stays another) takes its comparisons with 0.
    pub fn guard_assigned(&mut self, to: VarId, e: &'a Node<Expression>) {
        if !self.is_guard(to) {
            return;
        }
        let trylock = self.trylock_of(e);
        let from = self
            .guard_var(e)
            .filter(|&from| from != to && self.decls.vars[to].longs >= self.decls.vars[from].longs);
        let Some(locks) = &mut self.state else {
            return;
        };
        if let Some(l) = trylock {
            locks.insert(Lock::Guarded(to, 0, true, Box::new(l)));
        }
        let copied: Vec<Lock> = locks
            .iter()
            .filter(|l| from.is_some() && about(l) == from)
            .filter_map(|l| match l {
                Lock::Guarded(_, 0, eq, g) => Some(Lock::Guarded(to, 0, *eq, g.clone())),
                Lock::Compare(_, 0, eq) => Some(Lock::Compare(to, 0, *eq)),
                _ => None,
            })
            .collect();
        locks.extend(copied);
    }

    /// An expression statement: walked, then a shift of a guard variable moves its facts
    /// (the walk's write ended them); an assignment gives its variable new ones.
    pub fn guarded_expr_statement(&mut self, e: &'a Node<Expression>) {
        let shift = self.guard_shift(e);
        let kept: Vec<Lock> = match (&shift, &self.state) {
            (Some((v, _)), Some(locks)) => locks
                .iter()
                .filter(|l| about(l) == Some(*v))
                .cloned()
                .collect(),
            _ => vec![],
        };
        self.expr_statement(e);
        if let Expression::BinaryOperator(b) = &e.node {
            if b.node.operator.node == BinaryOperator::Assign {
                if let Some(to) = self.guard_var(&b.node.lhs) {
                    self.guard_assigned(to, &b.node.rhs);
                }
            }
        }
        let (Some((_, d)), Some(locks)) = (shift, &mut self.state) else {
            return;
        };
        for l in kept {
            let moved = match l {
                Lock::Guarded(v, c, eq, g) => {
                    ((c + d).abs() < LIMIT).then(|| Lock::Guarded(v, c + d, eq, g))
                }
                Lock::Compare(v, c, eq) => {
                    ((c + d).abs() < LIMIT).then_some(Lock::Compare(v, c + d, eq))
                }
                _ => None,
            };
            locks.extend(moved);
        }
    }
}

/// The library function `e` calls by name (not the program's own function of that name,
/// nor a variable) and its arguments.
fn library_call<'e>(
    s: &Scan,
    e: &'e Node<Expression>,
) -> Option<(&'e str, &'e [Node<Expression>])> {
    let Expression::Call(c) = &e.node else {
        return None;
    };
    let Expression::Identifier(f) = &c.node.callee.node else {
        return None;
    };
    let name = f.node.name.as_str();
    (!s.decls.bodies.contains_key(name) && s.lookup(name).is_none())
        .then_some((name, c.node.arguments.as_slice()))
}

/// `e` is a call of a pthread lock function of the library (each returns `int`).
pub fn returns_int(s: &Scan, e: &Node<Expression>) -> bool {
    library_call(s, e)
        .is_some_and(|(name, _)| name.starts_with("pthread_") && name.contains("lock"))
}
