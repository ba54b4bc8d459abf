//! The forward flow analysis of `racefree`: what holds before every item of a slot
//! ([`State`]: the slots `main` created and joined, thread ids, known counters, the
//! must-lockset), met at labels and after `if`s, and every access with where it happens
//! ([`Access`]).

use super::occurrences::{is_model, lock_op, Event, LockOp, Occurrences};
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::{is_assign_op, is_inc_dec, Walk};
use ladr_ir::abi;
use ladr_ir::analysis::Vars;
use ladr_ir::program::{Item, Program};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::convert::Infallible;

// Counter values the analysis keeps: every integer type holds them, alike in every
// conversion (the range `constprop` folds).
use crate::passes::constprop::MAX_INT as MAX_VALUE;

/// The flow analysis of every slot: what holds before each item, and every access with
/// where it happens.
pub(super) struct FlowAnalysis {
    /// Each variable's accesses.
    pub(super) uses: HashMap<String, Vec<Access>>,
    /// The mutexes an unlock or init disqualified ([`SlotFlow::uses_of`]).
    pub(super) bad_locks: HashSet<String>,
    /// For each slot, the state before each of its items.
    pub(super) before: Vec<Vec<Option<State>>>,
}

/// What holds before every item, and every access with where it happens.
pub(super) fn analyse_slots(p: &Program, facts: &FlowFacts) -> FlowAnalysis {
    let mut uses: HashMap<String, Vec<Access>> = HashMap::new();
    let mut bad_locks: HashSet<String> = HashSet::new();
    let mut before: Vec<Vec<Option<State>>> = vec![];
    for (slot, c) in p.code.iter().enumerate() {
        let mut f = SlotFlow {
            slot,
            facts,
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
    FlowAnalysis {
        uses,
        bad_locks,
        before,
    }
}
/// What the flow analysis knows.
pub(super) struct FlowFacts<'a> {
    pub(super) shapes: &'a Vars,
    pub(super) ints: &'a HashSet<String>,
    pub(super) tids: &'a HashSet<String>,
    pub(super) mutexes: &'a HashSet<String>,
    pub(super) parents: &'a [Option<usize>],
}

/// What holds before a statement on every path to it (`None` for code no path reaches).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct State {
    /// Slots `main` may have created (a union).
    pub(super) created: BTreeSet<usize>,
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
    pub(super) fn solo(&self, parents: &[Option<usize>]) -> bool {
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
pub(super) struct Access {
    pub(super) slot: usize,
    pub(super) write: bool,
    pub(super) solo: bool,
    pub(super) locks: BTreeSet<String>,
}

/// The forward analysis of one slot.
struct SlotFlow<'a, 'c> {
    slot: usize,
    facts: &'a FlowFacts<'c>,
    cur: Option<State>,
    /// The states of the `goto`s to labels not reached yet.
    pending: HashMap<String, Option<State>>,
    uses: &'a mut HashMap<String, Vec<Access>>,
    bad_locks: &'a mut HashSet<String>,
}

impl SlotFlow<'_, '_> {
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
        let mut o = Occurrences::new(self.facts.shapes);
        let Ok(()) = visit::declaration(&mut o, d);
        self.uses_of(o.events);
    }

    fn record_stmt(&mut self, s: &Node<Statement>) {
        let mut o = Occurrences::new(self.facts.shapes);
        let Ok(()) = visit::stmt(&mut o, s);
        self.uses_of(o.events);
    }

    fn record(&mut self, e: &Node<Expression>) {
        let mut o = Occurrences::new(self.facts.shapes);
        let Ok(()) = visit::expr(&mut o, e);
        self.uses_of(o.events);
    }

    /// Notes the accesses of a statement about to run (none in unreachable code).
    fn uses_of(&mut self, events: Vec<(String, Event)>) {
        let Some(st) = &self.cur else {
            return;
        };
        let solo = self.slot == 0 && st.solo(self.facts.parents);
        for (name, ev) in events {
            match ev {
                Event::Escape | Event::LockPart | Event::LockBase => {}
                Event::Lock(op) => match op {
                    LockOp::Release if !st.locks.contains(&name) || st.top => {
                        self.bad_locks.insert(name);
                    }
                    LockOp::Init if !solo => {
                        self.bad_locks.insert(name);
                    }
                    _ => {}
                },
                _ => self.uses.entry(name).or_default().push(Access {
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
        let facts = self.facts;
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
                    None => st.created.extend(0..facts.parents.len()),
                }
                // The thread-id object the create writes forgets its old slot.
                let element = first.and_then(|a| match &a.node {
                    Expression::UnaryOperator(u)
                        if u.node.operator.node == UnaryOperator::Address =>
                    {
                        tid_object(&u.node.operand.node, &st.consts, facts.tids)
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
                        tid_object(&u.node.operand.node, &st.consts, facts.tids)
                    }
                    _ => None,
                });
                if let (Some(k), Some(t)) = (k, tid) {
                    st.tids.insert(t, k as usize);
                }
            } else if is_model(name, "pthread_join") {
                let joined = first
                    .and_then(|a| tid_object(&a.node, &st.consts, facts.tids))
                    .and_then(|t| st.tids.get(&t).copied());
                if let Some(k) = joined {
                    st.joined.insert(k);
                }
            } else if lock_op(name) == Some(LockOp::Acquire) {
                if let Some(m) = first.and_then(address_of_var) {
                    if facts.mutexes.contains(m) {
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
            if facts.ints.contains(x) && (0..=MAX_VALUE).contains(&v) {
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
