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
//!      access `x[k].f` (`race` agrees: [`address_target`]);
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
//! Not done (kept instrumented): locals whose address is taken but stays in their thread
//! (needs a points-to analysis), objects reached through pointers outside solo statements
//! (but folded ones), mutexes inside objects or reached through pointers as locks of the
//! lockset, rwlocks, `trylock` results.
//!
//! Needs: `visible`. Guarantees: `Program::code` with the same statements, some visible ones
//! made plain and the labels numbered again; `Program::vars` knows the race-free objects.

// Counter values the analysis keeps: every integer type holds them, alike in every
// conversion (the range `constprop` folds).
use super::constprop::MAX_INT as MAX_VALUE;
use crate::normal_form::is_atomic_section;
use crate::passes::visible;
use ladr_c::diag::Result;
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::{is_assign_op, is_inc_dec, Walk};
use ladr_ir::abi;
use ladr_ir::analysis::{address_target, Vars};
use ladr_ir::program::{Item, Options, Program, SlotCode};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::convert::Infallible;

pub fn run(mut p: Program, opts: &Options) -> Result<Program> {
    if !opts.racefree {
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
    // Every occurrence of every variable, wherever it is.
    let mut summary: HashMap<String, Summary> = HashMap::new();
    let mut asm = false;
    for ext in &p.unit.0 {
        let mut o = Occurrences::new(&shapes);
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
                s.add(None, Ev::Escape, true);
            } else {
                s.stored_in.insert(p);
            }
        }
    }
    for (slot, c) in p.code.iter().enumerate() {
        for it in &c.items {
            let mut o = Occurrences::new(&shapes);
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
    let ctx = Ctx {
        shapes: &shapes,
        ints: &ints,
        tids: &tids,
        mutexes: &mutexes,
        parents: &parents,
    };
    // What holds before every item, and every access with where it happens.
    let mut uses: HashMap<String, Vec<Use>> = HashMap::new();
    let mut bad_locks: HashSet<String> = HashSet::new();
    let mut before: Vec<Vec<Option<State>>> = vec![];
    for (slot, c) in p.code.iter().enumerate() {
        let mut f = Flow {
            slot,
            ctx: &ctx,
            cur: Some(State::default()),
            pending: HashMap::new(),
            uses: &mut uses,
            bad_locks: &mut bad_locks,
        };
        let mut states = vec![];
        for it in &c.items {
            states.push(f.cur.clone());
            match it {
                Item::Visible { stmt, .. } | Item::Plain(stmt) => f.stmt(stmt),
                Item::Label(l, _) => f.label(l),
                Item::Decl(_) => {}
            }
        }
        before.push(states);
    }
    // The race-free objects.
    let mut race_free = HashSet::new();
    if !asm {
        for (name, s) in &summary {
            // Its address assigned to a pointer that leads somewhere: an escape.
            let stored = s.stored_in.iter().any(|p| {
                !summary
                    .get(p)
                    .is_some_and(|ps| ps.dead_end(shapes.is_private(p)))
            });
            if s.escaped || stored || s.outside || !shapes.is_variable(name) {
                continue;
            }
            let live: Vec<&Use> = uses
                .get(name)
                .map(|u| u.iter().filter(|u| !u.solo).collect())
                .unwrap_or_default();
            let read_only = live.iter().all(|u| !u.write);
            let one_slot = live.windows(2).all(|w| w[0].slot == w[1].slot);
            let locked = live.first().is_some_and(|first| {
                first
                    .locks
                    .iter()
                    .any(|m| !bad_locks.contains(m) && live.iter().all(|u| u.locks.contains(m)))
            });
            if read_only || one_slot || locked {
                race_free.insert(name.clone());
            }
        }
    }
    p.vars.set_race_free(race_free);
    // Visible statements that need not be.
    for (slot, c) in p.code.iter_mut().enumerate() {
        let last = c.size.saturating_sub(1);
        for (it, state) in c.items.iter_mut().zip(&before[slot]) {
            let Item::Visible {
                label,
                stmt,
                atomic: false,
            } = it
            else {
                continue;
            };
            if *label == 0 || *label == last {
                continue;
            }
            let Some(state) = state else {
                continue; // unreachable: left as it is
            };
            // Outside `main`'s solo stretches a statement keeps the visibility `visible`
            // gave it, also when it touches only race-free objects: its accesses are not
            // instrumented, but without its label the stretches between labels grow and
            // take in the jumps around them, and CBMC's symex merges the guards of such
            // crossing jumps into exponentially growing expressions (weaver's
            // chl-nzb-file-symm: 22 s of symex with those labels gone, 1 s with them).
            let keep =
                !(slot == 0 && state.solo(&parents)) || structural(stmt, state.created.is_empty());
            if !keep {
                let stmt = std::mem::replace(stmt, empty_stmt(stmt.span));
                *it = Item::Plain(stmt);
            }
        }
        let mut next = 0;
        for it in &mut c.items {
            if let Item::Visible { label, .. } = it {
                *label = next;
                next += 1;
            }
        }
        c.size = next;
        // `main`'s merge again when that instruments nothing more: none of the statements
        // merged accesses a shared object.
        let merged_quiet = c
            .items
            .iter()
            .skip(1)
            .take_while(|i| !matches!(i, Item::Visible { .. } | Item::Label(..)))
            .all(|i| match i {
                Item::Plain(s) => !visible::may_switch(&p.vars, s),
                _ => true,
            });
        if slot > 0 || merged_quiet {
            visible::merge_first(c);
        }
    }
    Ok(p)
}

/// `[0: { plain…; s }]` → `[0: ;] plain… [1: s]`: `visible::merge_first` undone.
fn unmerge_first(c: &mut SlotCode) {
    let Some(Item::Visible {
        label: 0,
        stmt,
        atomic: false,
    }) = c.items.first()
    else {
        return;
    };
    let Statement::Compound(body) = &stmt.node else {
        return;
    };
    let mut parts = vec![];
    for it in body {
        match &it.node {
            BlockItem::Statement(s) => parts.push(s.clone()),
            _ => return,
        }
    }
    let Some(last) = parts.pop() else {
        return;
    };
    let span = stmt.span;
    let mut items = vec![Item::Visible {
        label: 0,
        stmt: empty_stmt(span),
        atomic: false,
    }];
    items.extend(parts.into_iter().map(Item::Plain));
    items.push(Item::Visible {
        label: 1,
        stmt: last,
        atomic: false,
    });
    for it in &mut c.items[1..] {
        if let Item::Visible { label, .. } = it {
            *label += 1;
        }
    }
    c.items.splice(0..1, items);
    c.size += 1;
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
/// `_Bool`, no typedef): the variables whose values [`State::consts`] may know.
fn int_locals(p: &Program) -> HashSet<String> {
    let mut out = HashSet::new();
    for ext in &p.unit.0 {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let integer = d.node.specifiers.iter().all(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => matches!(
                t.node,
                TypeSpecifier::Char
                    | TypeSpecifier::Short
                    | TypeSpecifier::Int
                    | TypeSpecifier::Long
                    | TypeSpecifier::Signed
                    | TypeSpecifier::Unsigned
            ),
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

/// Does a statement stay visible in a solo stretch of `main`: a call of the pthread model,
/// an assumption (either may block), an atomic section? Before the first `pthread_create`
/// (`unborn`: no thread exists on any path) an assumption need not be: a path it ends has
/// no thread, so no race, while after the joins it must stay visible, for `main`'s context
/// may end before it and keep a race found earlier. (A label before each of them cuts the
/// solo stretch into pieces whose jumps cross one another, and CBMC's symbolic execution
/// merges their guards into expressions that grow exponentially: the weaver tasks that
/// allocate arrays in `main` took 35 s of symex instead of 1 s.)
fn structural(s: &Node<Statement>, unborn: bool) -> bool {
    struct F {
        unborn: bool,
    }
    impl Visitor for F {
        /// Found one.
        type Error = ();
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            match &e.node {
                Expression::Call(c) => match callee_name(&c.node) {
                    Some(n)
                        if visible::is_model_call(n)
                            || n == abi::ATOMIC_BEGIN
                            || (n == abi::ASSUME && !self.unborn) =>
                    {
                        Err(())
                    }
                    _ => Ok(Walk::Descend),
                },
                _ => Ok(Walk::Descend),
            }
        }
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, ()> {
            match &s.node {
                Statement::Compound(items) if is_atomic_section(items) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
    }
    visit::stmt(&mut F { unborn }, s).is_err()
}

/// What a lock function does to its lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LockOp {
    Acquire,
    Try,
    Release,
    Init,
}

fn lock_op(function: &str) -> Option<LockOp> {
    if !abi::is_model_function(function) {
        return None;
    }
    Some(match abi::modelled_function(function) {
        "pthread_mutex_lock" | "pthread_spin_lock" => LockOp::Acquire,
        "pthread_mutex_trylock" | "pthread_spin_trylock" => LockOp::Try,
        "pthread_mutex_unlock" | "pthread_spin_unlock" => LockOp::Release,
        "pthread_mutex_init" | "pthread_spin_init" => LockOp::Init,
        _ => return None,
    })
}

fn is_model(function: &str, f: &str) -> bool {
    abi::is_model_function(function) && abi::modelled_function(function) == f
}

/// One occurrence of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ev {
    Read,
    Write,
    ReadWrite,
    /// Its address goes somewhere (`&x`, an array used as a pointer, an `asm` operand): any
    /// pointer may reach it.
    Escape,
    /// `&t` as the thread-id argument of a create of the model: written by the model.
    Tid,
    /// `__CPROVER_havoc_object(&x)`: written with any value.
    Havoc,
    /// `&m` as the lock argument of a lock function.
    Lock(LockOp),
    /// `&x.f`, `&x[i]` (a part of `x`) as the lock argument of a lock function: the model
    /// touches only that mutex, so neither a data access nor an escape of `x`.
    LockPart,
    /// Pointer `p` read only to form `&p->f` as the lock argument of a lock function.
    LockBase,
}

impl Ev {
    fn is_write(self) -> bool {
        matches!(self, Ev::Write | Ev::ReadWrite | Ev::Tid | Ev::Havoc)
    }
}

/// Everything about one variable's occurrences, wherever they are.
#[derive(Default)]
struct Summary {
    escaped: bool,
    /// Accessed outside the slots' code (in a function that is no slot).
    outside: bool,
    /// Written other than by a create or a havoc of `main`.
    other_writes: bool,
    /// Read, written or havocked.
    data: bool,
    /// The lock argument of a lock function.
    lock: bool,
    /// Read (as data: not only as `&p->f` for a lock function).
    read: bool,
    /// The pointer variables its address (or a part's) is assigned to: `p = &x[i];`.
    stored_in: HashSet<String>,
}

impl Summary {
    fn add(&mut self, slot: Option<usize>, ev: Ev, outside: bool) {
        self.outside |= outside;
        match ev {
            Ev::Escape => self.escaped = true,
            Ev::Lock(_) => self.lock = true,
            Ev::LockPart | Ev::LockBase => {}
            _ => {
                self.data = true;
                self.read |= matches!(ev, Ev::Read | Ev::ReadWrite);
                let creating = matches!(ev, Ev::Tid | Ev::Havoc) && slot == Some(0);
                if ev.is_write() && !creating {
                    self.other_writes = true;
                }
            }
        }
    }

    /// A thread-id object whose value the analysis may follow.
    fn tid_only(&self) -> bool {
        !self.escaped && !self.outside && !self.other_writes && !self.lock
    }

    /// A mutex the analysis may follow.
    fn lock_only(&self) -> bool {
        !self.escaped && !self.outside && !self.data && self.lock && self.stored_in.is_empty()
    }

    /// A pointer through which what it was assigned cannot be reached: a private variable
    /// used only to lock a mutex it points to (`p = &a[i]; lock(&p->m);`), or not read.
    fn dead_end(&self, private: bool) -> bool {
        private && !self.escaped && !self.outside && !self.read && self.stored_in.is_empty()
    }
}

/// The occurrences of variables in a piece of code (not in `sizeof`, `_Alignof`,
/// `__typeof__`).
struct Occurrences<'a> {
    shapes: &'a Vars,
    events: Vec<(String, Ev)>,
    /// `p = &x…;`: (x, p).
    stores: Vec<(String, String)>,
    asm: bool,
}

/// An lvalue within a variable's own storage (`x`, `x.f`, `x[i]` of an array `x`): the
/// variable, the array depth of the lvalue (`None`: not known), the index expressions.
struct Storage<'e> {
    var: &'e str,
    depth: Option<usize>,
    indices: Vec<&'e Node<Expression>>,
}

impl<'a> Occurrences<'a> {
    fn new(shapes: &'a Vars) -> Self {
        Occurrences {
            shapes,
            events: vec![],
            stores: vec![],
            asm: false,
        }
    }

    fn ev(&mut self, var: &str, ev: Ev) {
        self.events.push((var.to_string(), ev));
    }

    fn storage<'e>(&mut self, e: &'e Expression) -> Option<Storage<'e>> {
        match e {
            Expression::Identifier(i) => {
                let n = i.node.name.as_str();
                self.shapes.is_variable(n).then(|| Storage {
                    var: n,
                    depth: self.shapes.object_depth(n),
                    indices: vec![],
                })
            }
            Expression::Member(m) => {
                let mut s = match m.node.operator.node {
                    MemberOperator::Direct => self.storage(&m.node.expression.node)?,
                    // `((T)(&s))->f`: a pointer `constprop` folded points into `s`.
                    MemberOperator::Indirect => {
                        self.storage(&address_target(&m.node.expression.node)?.node)?
                    }
                };
                s.depth = self.shapes.field_depth(&m.node.identifier.node.name);
                Some(s)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let s = self.storage(&b.node.lhs.node)?;
                self.element(s, Some(&b.node.rhs))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let s = self.storage(&u.node.operand.node)?;
                self.element(s, None)
            }
            _ => None,
        }
    }

    /// `s[i]` / `*s`: an element of an array `s`; through a pointer `s` it is no longer in
    /// the variable's storage (the variable is read); not knowing which is an escape.
    fn element<'e>(
        &mut self,
        mut s: Storage<'e>,
        index: Option<&'e Node<Expression>>,
    ) -> Option<Storage<'e>> {
        match s.depth {
            Some(0) => None,
            Some(d) => {
                s.depth = Some(d - 1);
                s.indices.extend(index);
                Some(s)
            }
            None => {
                self.ev(s.var, Ev::Escape);
                None
            }
        }
    }

    fn visit_all(&mut self, es: &[&Node<Expression>]) {
        for e in es {
            let Ok(()) = visit::expr(self, e);
        }
    }

    /// `&e` as an argument the model writes (`Tid`, `Havoc`) or locks (`Lock`): the event
    /// if `e` is a variable's storage (its indices visited), `None` otherwise.
    fn special(&mut self, arg: &Node<Expression>, ev: Ev) -> bool {
        let Expression::UnaryOperator(u) = &arg.node else {
            return false;
        };
        if u.node.operator.node != UnaryOperator::Address {
            return false;
        }
        if let Ev::Lock(_) = ev {
            // A lock the analysis follows is a whole named variable; a part of a variable is
            // no access of its data, and a pointer read only to lock through it leads
            // nowhere else.
            let operand = &u.node.operand.node;
            if let Expression::Identifier(i) = operand {
                if !self.shapes.is_variable(&i.node.name) {
                    return false;
                }
                self.ev(&i.node.name, ev);
                return true;
            }
            if let Some(s) = self.storage(operand) {
                self.ev(s.var, Ev::LockPart);
                let indices = s.indices;
                self.visit_all(&indices);
                return true;
            }
            if let Some(p) = lock_base(operand) {
                if self.shapes.is_variable(p) {
                    self.ev(p, Ev::LockBase);
                    return true;
                }
            }
            return false;
        }
        let Some(s) = self.storage(&u.node.operand.node) else {
            return false;
        };
        self.ev(s.var, ev);
        let indices = s.indices;
        self.visit_all(&indices);
        true
    }
}

impl Visitor for Occurrences<'_> {
    type Error = Infallible;
    const UNEVALUATED: bool = false;

    fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
        match &e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                let Some(s) = self.storage(&b.node.lhs.node) else {
                    return Ok(Walk::Descend);
                };
                let ev = if b.node.operator.node == BinaryOperator::Assign {
                    Ev::Write
                } else {
                    Ev::ReadWrite
                };
                self.ev(s.var, ev);
                let mut rest = s.indices;
                // `p = &x…;` into a scalar `p`: where `x` goes depends on `p`'s uses.
                let stored = match (&b.node.lhs.node, b.node.operator.node.clone()) {
                    (Expression::Identifier(p), BinaryOperator::Assign) => {
                        address_target(&b.node.rhs.node).and_then(|t| {
                            let x = self.storage(&t.node)?;
                            Some((p.node.name.clone(), x))
                        })
                    }
                    _ => None,
                };
                match stored {
                    Some((p, x)) => {
                        self.stores.push((x.var.to_string(), p));
                        rest.extend(x.indices);
                    }
                    None => rest.push(&b.node.rhs),
                }
                self.visit_all(&rest);
                Ok(Walk::Skip)
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                let Some(s) = self.storage(&u.node.operand.node) else {
                    return Ok(Walk::Descend);
                };
                self.ev(s.var, Ev::ReadWrite);
                self.visit_all(&s.indices);
                Ok(Walk::Skip)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                let Some(s) = self.storage(&u.node.operand.node) else {
                    return Ok(Walk::Descend);
                };
                self.ev(s.var, Ev::Escape);
                self.visit_all(&s.indices);
                Ok(Walk::Skip)
            }
            Expression::Call(c) => {
                let name = callee_name(&c.node).unwrap_or("");
                let args = &c.node.arguments;
                let ev = if name == abi::HAVOC {
                    Some(Ev::Havoc)
                } else if is_model(name, "pthread_create") {
                    Some(Ev::Tid)
                } else {
                    lock_op(name).map(Ev::Lock)
                };
                match (ev, args.first()) {
                    (Some(ev), Some(first)) if self.special(first, ev) => {
                        let rest: Vec<_> = args[1..].iter().collect();
                        self.visit_all(&rest);
                        Ok(Walk::Skip)
                    }
                    _ => Ok(Walk::Descend),
                }
            }
            Expression::Identifier(_) | Expression::Member(_) => self.read(e),
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.read(e)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.read(e)
            }
            _ => Ok(Walk::Descend),
        }
    }

    fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, Infallible> {
        if let Statement::Asm(a) = &s.node {
            self.asm = true;
            if let AsmStatement::GnuExtended(g) = &a.node {
                let operands: Vec<_> = g
                    .outputs
                    .iter()
                    .chain(&g.inputs)
                    .map(|o| &o.node.variable_name)
                    .collect();
                for e in operands {
                    match self.storage(&e.node) {
                        Some(st) => {
                            self.ev(st.var, Ev::Escape);
                            self.visit_all(&st.indices);
                        }
                        None => self.visit_all(&[e]),
                    }
                }
            }
            return Ok(Walk::Skip);
        }
        Ok(Walk::Descend)
    }
}

impl Occurrences<'_> {
    /// An lvalue whose value is used: a read of a variable's storage, or an escape when it
    /// is (or may be) an array, which becomes a pointer.
    fn read(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
        let Some(s) = self.storage(&e.node) else {
            return Ok(Walk::Descend);
        };
        let ev = if s.depth == Some(0) {
            Ev::Read
        } else {
            Ev::Escape
        };
        self.ev(s.var, ev);
        self.visit_all(&s.indices);
        Ok(Walk::Skip)
    }
}

/// What the flow analysis knows.
struct Ctx<'a> {
    shapes: &'a Vars,
    ints: &'a HashSet<String>,
    tids: &'a HashSet<String>,
    mutexes: &'a HashSet<String>,
    parents: &'a [Option<usize>],
}

/// What holds before a statement on every path to it (`None` for code no path reaches).
#[derive(Clone, Debug, Default, PartialEq)]
struct State {
    /// Slots `main` may have created (a union).
    created: BTreeSet<usize>,
    /// Slots `main` has joined (an intersection).
    joined: BTreeSet<usize>,
    /// The slot a thread-id object (or its element) holds.
    tids: BTreeMap<(String, Option<i128>), usize>,
    /// The values of private integer locals, in 0..=127.
    consts: BTreeMap<String, i128>,
    /// The mutexes the slot holds.
    locks: BTreeSet<String>,
    /// Reached by a label the analysis cannot follow: nothing is known.
    top: bool,
}

impl State {
    /// Does `main` run alone: has every slot it may have created been joined, none of them
    /// creating threads of its own?
    fn solo(&self, parents: &[Option<usize>]) -> bool {
        !self.top
            && self
                .created
                .iter()
                .all(|k| self.joined.contains(k) && !parents.contains(&Some(*k)))
    }

    fn top() -> State {
        State {
            top: true,
            ..State::default()
        }
    }
}

fn meet(a: Option<State>, b: Option<State>) -> Option<State> {
    let (a, b) = match (a, b) {
        (None, x) | (x, None) => return x,
        (Some(a), Some(b)) => (a, b),
    };
    Some(State {
        created: a.created.union(&b.created).cloned().collect(),
        joined: a.joined.intersection(&b.joined).cloned().collect(),
        tids: a
            .tids
            .into_iter()
            .filter(|(k, v)| b.tids.get(k) == Some(v))
            .collect(),
        consts: a
            .consts
            .into_iter()
            .filter(|(k, v)| b.consts.get(k) == Some(v))
            .collect(),
        locks: a.locks.intersection(&b.locks).cloned().collect(),
        top: a.top || b.top,
    })
}

/// One access: by which slot, a write or not, in a solo stretch of `main`, with which locks.
struct Use {
    slot: usize,
    write: bool,
    solo: bool,
    locks: BTreeSet<String>,
}

/// The forward analysis of one slot.
struct Flow<'a, 'c> {
    slot: usize,
    ctx: &'a Ctx<'c>,
    cur: Option<State>,
    /// The states of the `goto`s to labels not reached yet.
    pending: HashMap<String, Option<State>>,
    uses: &'a mut HashMap<String, Vec<Use>>,
    bad_locks: &'a mut HashSet<String>,
}

impl Flow<'_, '_> {
    fn label(&mut self, l: &str) {
        let p = self.pending.remove(l).flatten();
        self.cur = meet(self.cur.take(), p);
    }

    fn stmt(&mut self, s: &Node<Statement>) {
        match &s.node {
            Statement::Compound(items) => {
                for it in items {
                    match &it.node {
                        BlockItem::Statement(st) => self.stmt(st),
                        BlockItem::Declaration(d) => self.record_decl(d),
                        BlockItem::StaticAssert(_) => {}
                    }
                }
            }
            Statement::Labeled(l) => {
                match &l.node.label.node {
                    Label::Identifier(i) => self.label(&i.node.name),
                    _ => self.cur = Some(State::top()),
                }
                self.stmt(&l.node.statement);
            }
            Statement::If(i) => {
                self.record(&i.node.condition);
                self.effects(&i.node.condition, false);
                let v = self.value(&i.node.condition);
                let before = self.cur.take();
                self.cur = if v == Some(0) { None } else { before.clone() };
                self.stmt(&i.node.then_statement);
                let then = self.cur.take();
                self.cur = if v.is_some_and(|v| v != 0) {
                    None
                } else {
                    before
                };
                if let Some(e) = &i.node.else_statement {
                    self.stmt(e);
                }
                self.cur = meet(then, self.cur.take());
            }
            Statement::Expression(Some(e)) => {
                self.record(e);
                self.effects(e, true);
            }
            Statement::Expression(None) => {}
            Statement::Goto(l) => {
                let old = self.pending.remove(&l.node.name).flatten();
                let st = meet(old, self.cur.take());
                self.pending.insert(l.node.name.clone(), st);
            }
            _ => {
                // asm (its operands escape), or what the bounded program does not have:
                // nothing is known after it.
                self.record_stmt(s);
                if self.cur.is_some() {
                    self.cur = Some(State::top());
                }
            }
        }
    }

    fn value(&self, e: &Node<Expression>) -> Option<i128> {
        let st = self.cur.as_ref()?;
        value(&e.node, &st.consts)
    }

    fn record_decl(&mut self, d: &Node<Declaration>) {
        let mut o = Occurrences::new(self.ctx.shapes);
        let Ok(()) = visit::declaration(&mut o, d);
        self.uses_of(o.events);
    }

    fn record_stmt(&mut self, s: &Node<Statement>) {
        let mut o = Occurrences::new(self.ctx.shapes);
        let Ok(()) = visit::stmt(&mut o, s);
        self.uses_of(o.events);
    }

    fn record(&mut self, e: &Node<Expression>) {
        let mut o = Occurrences::new(self.ctx.shapes);
        let Ok(()) = visit::expr(&mut o, e);
        self.uses_of(o.events);
    }

    /// Notes the accesses of a statement about to run (none in unreachable code).
    fn uses_of(&mut self, events: Vec<(String, Ev)>) {
        let Some(st) = &self.cur else {
            return;
        };
        let solo = self.slot == 0 && st.solo(self.ctx.parents);
        for (name, ev) in events {
            match ev {
                Ev::Escape | Ev::LockPart | Ev::LockBase => {}
                Ev::Lock(op) => match op {
                    LockOp::Release if !st.locks.contains(&name) || st.top => {
                        self.bad_locks.insert(name);
                    }
                    LockOp::Init if !solo => {
                        self.bad_locks.insert(name);
                    }
                    _ => {}
                },
                _ => self.uses.entry(name).or_default().push(Use {
                    slot: self.slot,
                    write: ev.is_write(),
                    solo,
                    locks: st.locks.clone(),
                }),
            }
        }
    }

    /// What a statement's expression does to the state. `top`: it is a whole expression
    /// statement (normal form N3: its one side effect is at its top), so its call surely
    /// runs when the statement does.
    fn effects(&mut self, e: &Node<Expression>, top: bool) {
        let Some(mut st) = self.cur.take() else {
            return;
        };
        let ctx = self.ctx;
        // The top call and the assignment of its result, or the top assignment.
        let (target, top_call) = match &e.node {
            Expression::Call(c) if top => (None, Some(&c.node)),
            Expression::BinaryOperator(b) if top && is_assign_op(&b.node.operator.node) => {
                match &b.node.rhs.node {
                    Expression::Call(c) if b.node.operator.node == BinaryOperator::Assign => {
                        (Some(&b.node.lhs), Some(&c.node))
                    }
                    _ => (Some(&b.node.lhs), None),
                }
            }
            _ => (None, None),
        };
        // Every call anywhere: what it may do.
        let mut calls = Calls(vec![]);
        let Ok(()) = visit::expr(&mut calls, e);
        for (name, first, second) in &calls.0 {
            let name = name.as_str();
            let first = first.as_ref();
            if is_model(name, "pthread_create") {
                match second {
                    Some(k) => {
                        st.created.insert(*k as usize);
                    }
                    None => st.created.extend(0..ctx.parents.len()),
                }
                // The thread-id object the create writes forgets its old slot.
                let element = first.and_then(|a| match &a.node {
                    Expression::UnaryOperator(u)
                        if u.node.operator.node == UnaryOperator::Address =>
                    {
                        tid_object(&u.node.operand.node, &st.consts, ctx.tids)
                    }
                    _ => None,
                });
                match (element, first.and_then(address_base)) {
                    (Some(key @ (_, Some(_))), _) => {
                        st.tids.remove(&key);
                    }
                    (_, Some(t)) => st.tids.retain(|(x, _), _| x != t),
                    (_, None) => st.tids.clear(),
                }
            } else if name == abi::HAVOC {
                match first.and_then(address_of_var) {
                    Some(x) => {
                        st.consts.remove(x);
                        st.tids.retain(|(t, _), _| t != x);
                    }
                    None => {
                        st.tids.clear();
                    }
                }
            } else if matches!(lock_op(name), Some(LockOp::Release | LockOp::Init)) {
                // Only `&m` can be a followed mutex `m` (every occurrence of one is `&m` as
                // a lock argument: no pointer reaches it), so any other argument releases
                // none of them.
                if let Some(m) = first.and_then(address_of_var) {
                    st.locks.remove(m);
                }
            }
        }
        // The top call: what it surely does.
        if let Some(c) = top_call {
            let name = callee_name(c).unwrap_or("");
            let first = c.arguments.first();
            if is_model(name, "pthread_create") {
                let k = c
                    .arguments
                    .get(1)
                    .and_then(|a| constant::int_literal(&a.node));
                let tid = first.and_then(|a| match &a.node {
                    Expression::UnaryOperator(u)
                        if u.node.operator.node == UnaryOperator::Address =>
                    {
                        tid_object(&u.node.operand.node, &st.consts, ctx.tids)
                    }
                    _ => None,
                });
                if let (Some(k), Some(t)) = (k, tid) {
                    st.tids.insert(t, k as usize);
                }
            } else if is_model(name, "pthread_join") {
                let joined = first
                    .and_then(|a| tid_object(&a.node, &st.consts, ctx.tids))
                    .and_then(|t| st.tids.get(&t).copied());
                if let Some(k) = joined {
                    st.joined.insert(k);
                }
            } else if lock_op(name) == Some(LockOp::Acquire) {
                if let Some(m) = first.and_then(address_of_var) {
                    if ctx.mutexes.contains(m) {
                        st.locks.insert(m.to_string());
                    }
                }
            } else if name == abi::ASSUME
                && first.and_then(|a| value(&a.node, &st.consts)) == Some(0)
            {
                return; // no path goes on
            }
        }
        // Writes of private integer locals.
        let mut writes = Writes(vec![]);
        let Ok(()) = visit::expr(&mut writes, e);
        let new = match (&e.node, target) {
            (Expression::BinaryOperator(b), Some(lv)) if top_call.is_none() => ident_name(lv)
                .and_then(|x| {
                    let rhs = value(&b.node.rhs.node, &st.consts)?;
                    let old = st.consts.get(x).copied();
                    let v = match b.node.operator.node {
                        BinaryOperator::Assign => Some(rhs),
                        BinaryOperator::AssignPlus => old.and_then(|o| o.checked_add(rhs)),
                        BinaryOperator::AssignMinus => old.and_then(|o| o.checked_sub(rhs)),
                        _ => None,
                    }?;
                    Some((x, v))
                }),
            (Expression::UnaryOperator(u), None) if top && is_inc_dec(&u.node.operator.node) => {
                ident_name(&u.node.operand).and_then(|x| {
                    let old = st.consts.get(x).copied()?;
                    let v = match u.node.operator.node {
                        UnaryOperator::PostIncrement | UnaryOperator::PreIncrement => old + 1,
                        _ => old - 1,
                    };
                    Some((x, v))
                })
            }
            _ => None,
        };
        for w in &writes.0 {
            st.consts.remove(w);
        }
        if let Some((x, v)) = new {
            if ctx.ints.contains(x) && (0..=MAX_VALUE).contains(&v) {
                st.consts.insert(x.to_string(), v);
            }
        }
        self.cur = Some(st);
    }
}

/// The value of `e` from literals and known locals, when every step stays in
/// `0..=MAX_VALUE` (so signedness and width never matter).
fn value(e: &Expression, consts: &BTreeMap<String, i128>) -> Option<i128> {
    let ok = |v: i128| (0..=MAX_VALUE).contains(&v).then_some(v);
    match e {
        Expression::Constant(_) => ok(i128::from(constant::int_literal(e)?)),
        Expression::Identifier(i) => consts.get(&i.node.name).copied(),
        // A read `constprop` folded (its constants are in 0..=127 too).
        Expression::Cast(c) if ladr_c::syntax::build::folded_var(e).is_some() => {
            value(&c.node.expression.node, consts)
        }
        Expression::UnaryOperator(u) => {
            let v = value(&u.node.operand.node, consts)?;
            match u.node.operator.node {
                UnaryOperator::Negate => Some(i128::from(v == 0)),
                UnaryOperator::Plus => Some(v),
                _ => None,
            }
        }
        Expression::BinaryOperator(b) => {
            use BinaryOperator as B;
            let l = value(&b.node.lhs.node, consts);
            let r = value(&b.node.rhs.node, consts);
            let op = &b.node.operator.node;
            // `&&` and `||` with one side known.
            match (op, l, r) {
                (B::LogicalAnd, Some(0), _) | (B::LogicalAnd, _, Some(0)) => return Some(0),
                (B::LogicalOr, Some(x), _) | (B::LogicalOr, _, Some(x)) if x != 0 => {
                    return Some(1)
                }
                _ => {}
            }
            let (l, r) = (l?, r?);
            let b = |x: bool| Some(i128::from(x));
            match op {
                B::Plus => ok(l + r),
                B::Minus => ok(l - r),
                B::Multiply => ok(l * r),
                B::Less => b(l < r),
                B::LessOrEqual => b(l <= r),
                B::Greater => b(l > r),
                B::GreaterOrEqual => b(l >= r),
                B::Equals => b(l == r),
                B::NotEquals => b(l != r),
                B::LogicalAnd => b(l != 0 && r != 0),
                B::LogicalOr => b(l != 0 || r != 0),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `&x` of a variable `x`.
fn address_of_var(e: &Node<Expression>) -> Option<&str> {
    match &e.node {
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            ident_name(&u.node.operand)
        }
        _ => None,
    }
}

/// `p` of a lock argument `&p->f` (`&p->f.g`): the pointer variable read to form it.
fn lock_base(e: &Expression) -> Option<&str> {
    match e {
        Expression::Member(m) => match m.node.operator.node {
            MemberOperator::Direct => lock_base(&m.node.expression.node),
            MemberOperator::Indirect => ident_name(&m.node.expression),
        },
        _ => None,
    }
}

/// The variable `&x`, `&x.f`, `&x[i]` points into.
fn address_base(e: &Node<Expression>) -> Option<&str> {
    match &e.node {
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            ladr_ir::analysis::lvalue_base(&u.node.operand.node)
        }
        _ => None,
    }
}

/// A thread-id object the analysis follows: `t`, or `t[i]` with `i` known.
fn tid_object(
    e: &Expression,
    consts: &BTreeMap<String, i128>,
    tids: &HashSet<String>,
) -> Option<(String, Option<i128>)> {
    match e {
        Expression::Identifier(i) if tids.contains(&i.node.name) => {
            Some((i.node.name.clone(), None))
        }
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            let Expression::Identifier(i) = &b.node.lhs.node else {
                return None;
            };
            if !tids.contains(&i.node.name) {
                return None;
            }
            let k = value(&b.node.rhs.node, consts)?;
            Some((i.node.name.clone(), Some(k)))
        }
        _ => None,
    }
}

/// Every call in an expression: the callee's name, the first argument, the second
/// argument's value when it is a literal (a create's slot).
struct Calls(Vec<(String, Option<Node<Expression>>, Option<u64>)>);

impl Visitor for Calls {
    type Error = Infallible;
    const UNEVALUATED: bool = false;
    fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
        if let Expression::Call(c) = &e.node {
            let args = &c.node.arguments;
            self.0.push((
                callee_name(&c.node).unwrap_or("").to_string(),
                args.first().cloned(),
                args.get(1).and_then(|a| constant::int_literal(&a.node)),
            ));
        }
        Ok(Walk::Descend)
    }
}

/// Every variable an expression assigns or increments by name (its base: `x`, `x.f`,
/// `x[i]`).
struct Writes(Vec<String>);

impl Visitor for Writes {
    type Error = Infallible;
    const UNEVALUATED: bool = false;
    fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
        let lv = match &e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                Some(&b.node.lhs.node)
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                Some(&u.node.operand.node)
            }
            _ => None,
        };
        if let Some(base) = lv.and_then(ladr_ir::analysis::lvalue_base) {
            self.0.push(base.to_string());
        }
        Ok(Walk::Descend)
    }
}
