//! Which threads may run beside which access: the start routines and how often each is
//! created, and the stretches of `main` where it runs alone. Read from `main`'s top-level
//! statements in order, with no bound:
//! * a top-level `pthread_create(&t, …, f, …)` of a handle `t` (a local of `main` that
//!   nothing but that create writes) starts a thread; `pthread_join(t, …)` at top level
//!   ends it;
//! * `i = 0; while (i < N) { … pthread_create(&t[i], …, f, …); …; i++; }` starts N
//!   threads, `i = 0; while (i < N) { … pthread_join(t[i], …); …; i++; }` (the same `t`
//!   and `N`) ends them;
//! * any other create starts threads nothing ends.
//!
//! A statement is *solo* when no started thread is left; the threads started between two
//! solo statements form a *phase*, and threads of different phases never run together.
//! This needs every `pthread_create` in `main` itself (a thread that creates threads may
//! leave them running), `main` called by nobody and no label in `main` (no jump back over
//! a join); otherwise only the statements before the first create (or label) are solo and
//! all threads are one phase. A routine is created *once* when one create names it, at top
//! level of `main`, outside any loop and before any label; else *many* times.

use ladr_c::syntax::build::callee_name;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::convert::Infallible;

/// How often a start routine's thread may exist, and in which phases.
#[derive(Clone, Debug, Default)]
pub struct Routine {
    pub many: bool,
    pub phases: BTreeSet<usize>,
}

/// What `main`'s statements say about the threads.
#[derive(Debug, Default)]
pub struct MainFacts {
    /// For each top-level item of `main`'s body: does it run alone?
    pub solo: Vec<bool>,
    pub routines: HashMap<String, Routine>,
    /// The routines whose instances each get their own index ([`super::disjoint`]): the
    /// one create naming them is in a counted loop of `main` run once and passes the
    /// counter as its argument (`(void *)i`); the counter's width in bits.
    pub indexed: HashMap<String, u32>,
    /// The routines whose one create, in such a loop, passes `&B[i]`: `B` (a local of
    /// `main`) and the loop's item in `main`'s body ([`super::slot`]).
    pub slotted: HashMap<String, (String, usize)>,
    /// The routines whose one create is in a counted loop of `main`, run once, with a
    /// constant bound: at most that many instances ([`super::barrier`]).
    pub instances: HashMap<String, u64>,
    /// The top-level items of `main` that are team blocks or team nests (each joins every
    /// thread it creates, [`super::nest`]), and whether each item inside them (by address)
    /// runs alone.
    pub team_nests: Vec<usize>,
    pub nested_solo: HashMap<usize, bool>,
}

/// The calls (copied), labels and identifiers in a statement.
#[derive(Default)]
struct Calls {
    calls: Vec<CallExpression>,
    /// Labels or gotos.
    labels: bool,
    /// The labels of labeled statements, and the targets of gotos.
    label_names: Vec<String>,
    gotos: HashSet<String>,
    idents: HashMap<String, usize>,
}

impl Calls {
    fn of_item(i: &Node<BlockItem>) -> Self {
        let mut c = Calls::default();
        let _ = visit::block_item(&mut c, i);
        c
    }
}

impl Visitor for Calls {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        match &e.node {
            Expression::Call(c) => self.calls.push(c.node.clone()),
            Expression::Identifier(i) => *self.idents.entry(i.node.name.clone()).or_default() += 1,
            _ => {}
        }
        Ok(Walk::Descend)
    }
    fn label(&mut self, _l: &Identifier) -> Result<(), Infallible> {
        self.labels = true;
        Ok(())
    }
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        match &s.node {
            Statement::Labeled(l) => {
                if let Label::Identifier(i) = &l.node.label.node {
                    self.label_names.push(i.node.name.clone());
                }
            }
            Statement::Goto(l) => {
                self.gotos.insert(l.node.name.clone());
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
    /// `__typeof__(e)` is not evaluated: `normalise`'s temporaries of a create's result
    /// (`__typeof__(pthread_create(&t, …)) r; r = pthread_create(&t, …);`) neither create
    /// a thread nor use the handle.
    fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> Result<Walk, Infallible> {
        Ok(match t.node {
            TypeSpecifier::TypeOf(_) => Walk::Skip,
            _ => Walk::Descend,
        })
    }
}

fn strip(e: &Node<Expression>) -> &Node<Expression> {
    match &e.node {
        Expression::Cast(c) => strip(&c.node.expression),
        _ => e,
    }
}

fn ident(e: &Node<Expression>) -> Option<&str> {
    match &strip(e).node {
        Expression::Identifier(i) => Some(&i.node.name),
        _ => None,
    }
}

fn address_of(e: &Node<Expression>) -> Option<&Node<Expression>> {
    match &strip(e).node {
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            Some(&u.node.operand)
        }
        _ => None,
    }
}

/// `t[i]`: (`t`, `i`).
fn indexed(e: &Node<Expression>) -> Option<(&str, &str)> {
    match &strip(e).node {
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            Some((ident(&b.node.lhs)?, ident(&b.node.rhs)?))
        }
        _ => None,
    }
}

/// The start routine a create names.
pub fn routine_of(c: &CallExpression) -> Option<&str> {
    let r = c.arguments.get(2)?;
    ident(address_of(r).unwrap_or(r))
}

/// The call a statement is (`f(…);` or `v = f(…);`).
pub(super) fn call_statement(s: &Node<Statement>) -> Option<&CallExpression> {
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    match &e.node {
        Expression::Call(c) => Some(&c.node),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
            match &b.node.rhs.node {
                Expression::Call(c) => Some(&c.node),
                _ => None,
            }
        }
        _ => None,
    }
}

fn statement_of(i: &Node<BlockItem>) -> Option<&Node<Statement>> {
    match &i.node {
        BlockItem::Statement(s) => Some(s),
        _ => None,
    }
}

/// How many times a counted loop runs: a constant, or a local of `main` (the caller checks
/// that nothing writes it between the loops that must agree on it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Bound {
    Constant(u64),
    Local(String),
}

/// A counted loop `i = 0; while (i < N) { …; i++; }` whose body writes `i` and `N` nowhere
/// else: (`i`, `N`, the body's items before the increment). `N` is a constant or a local
/// of `main` declared outside the loop.
fn counted_loop<'a>(
    prev: Option<&'a Node<Statement>>,
    s: &'a Node<Statement>,
    locals: &HashSet<&'a str>,
) -> Option<(&'a str, Bound, &'a [Node<BlockItem>])> {
    let inner = matches!(s.node, Statement::Compound(_));
    let (prev, w, declared) = match &s.node {
        Statement::Compound(items) => {
            let n = items.len();
            if n < 2
                || items[..n - 2]
                    .iter()
                    .any(|i| !matches!(i.node, BlockItem::Declaration(_)))
            {
                return None;
            }
            let declared: HashSet<&str> = items[..n - 2].iter().flat_map(declared_names).collect();
            (
                statement_of(&items[n - 2])?,
                statement_of(&items[n - 1])?,
                declared,
            )
        }
        _ => (prev?, s, locals.clone()),
    };
    let Statement::While(w) = &w.node else {
        return None;
    };
    let Statement::Expression(Some(init)) = &prev.node else {
        return None;
    };
    let Expression::BinaryOperator(init) = &init.node else {
        return None;
    };
    if init.node.operator.node != BinaryOperator::Assign || !is_literal(&init.node.rhs, 0) {
        return None;
    }
    let i = ident(&init.node.lhs)?;
    if !declared.contains(i) && !locals.contains(i) {
        // A counter that is no local of `main` (nor a global only `main` writes) might be
        // written by a thread.
        return None;
    }
    let Expression::BinaryOperator(cond) = &w.node.expression.node else {
        return None;
    };
    if cond.node.operator.node != BinaryOperator::Less || ident(&cond.node.lhs) != Some(i) {
        return None;
    }
    let n = match (literal(&cond.node.rhs), ident(&cond.node.rhs)) {
        (Some(n), _) => Bound::Constant(n),
        // A local of `main`'s body, not one the loop's own block declares.
        (None, Some(v)) if v != i && locals.contains(v) && !(inner && declared.contains(v)) => {
            Bound::Local(v.to_string())
        }
        _ => return None,
    };
    let Statement::Compound(body) = &w.node.statement.node else {
        return None;
    };
    let (last, rest) = body.split_last()?;
    let Statement::Expression(Some(step)) = &statement_of(last)?.node else {
        return None;
    };
    let increments = match &step.node {
        Expression::UnaryOperator(u) => {
            matches!(
                u.node.operator.node,
                UnaryOperator::PostIncrement | UnaryOperator::PreIncrement
            ) && ident(&u.node.operand) == Some(i)
        }
        _ => false,
    };
    if !increments || rest.iter().any(|it| writes(it, i)) {
        return None;
    }
    if let Bound::Local(v) = &n {
        if body.iter().any(|it| writes(it, v)) {
            return None;
        }
    }
    Some((i, n, rest))
}

fn literal(e: &Node<Expression>) -> Option<u64> {
    ladr_c::syntax::constant::int_literal(&strip(e).node)
}

fn is_literal(e: &Node<Expression>, n: u64) -> bool {
    literal(e) == Some(n)
}

/// Does the item assign, increment or take the address of variable `v` by name?
fn writes(item: &Node<BlockItem>, v: &str) -> bool {
    struct W<'v>(&'v str, bool);
    impl Visitor for W<'_> {
        type Error = Infallible;
        const UNEVALUATED: bool = false;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
            let target = match &e.node {
                Expression::BinaryOperator(b)
                    if matches!(
                        b.node.operator.node,
                        BinaryOperator::Assign
                            | BinaryOperator::AssignPlus
                            | BinaryOperator::AssignMinus
                            | BinaryOperator::AssignMultiply
                            | BinaryOperator::AssignDivide
                            | BinaryOperator::AssignModulo
                            | BinaryOperator::AssignShiftLeft
                            | BinaryOperator::AssignShiftRight
                            | BinaryOperator::AssignBitwiseAnd
                            | BinaryOperator::AssignBitwiseOr
                            | BinaryOperator::AssignBitwiseXor
                    ) =>
                {
                    Some(&b.node.lhs)
                }
                Expression::UnaryOperator(u)
                    if matches!(
                        u.node.operator.node,
                        UnaryOperator::PostIncrement
                            | UnaryOperator::PreIncrement
                            | UnaryOperator::PostDecrement
                            | UnaryOperator::PreDecrement
                            | UnaryOperator::Address
                    ) =>
                {
                    Some(&u.node.operand)
                }
                _ => None,
            };
            if target.and_then(|t| ident(t)) == Some(self.0) {
                self.1 = true;
            }
            Ok(Walk::Descend)
        }
    }
    let mut w = W(v, false);
    let _ = visit::block_item(&mut w, item);
    w.1
}

/// The names an item declares.
pub(super) fn declared_names(i: &Node<BlockItem>) -> Vec<&str> {
    match &i.node {
        BlockItem::Declaration(d) => d
            .node
            .declarators
            .iter()
            .filter_map(|x| ladr_c::syntax::build::declarator_name(&x.node.declarator.node))
            .collect(),
        _ => vec![],
    }
}

/// Is `&v` taken anywhere in the items (but by `normalise`'s havoc of a declared local,
/// a write)?
fn address_taken(items: &[Node<BlockItem>], v: &str) -> bool {
    struct A<'v>(&'v str, bool);
    impl Visitor for A<'_> {
        type Error = Infallible;
        const UNEVALUATED: bool = false;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
            if matches!(&e.node, Expression::Call(c) if callee_name(&c.node) == Some(ladr_ir::abi::HAVOC))
            {
                return Ok(Walk::Skip);
            }
            if let Some(x) = address_of(e) {
                self.1 |= ident(x) == Some(self.0) || indexed(x).is_some_and(|(t, _)| t == self.0);
            }
            Ok(Walk::Descend)
        }
    }
    let mut a = A(v, false);
    for i in items {
        let _ = visit::block_item(&mut a, i);
    }
    a.1
}

/// A thread handle: one variable, or an array filled by a counted loop.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Handle {
    Var(String),
    Loop(String, Bound),
    Unknown,
}

/// The items of a block with its nested blocks that declare nothing (`{ f(); }`) opened:
/// the same statements, run in the same order.
fn flat(items: &[Node<BlockItem>]) -> Vec<&Node<BlockItem>> {
    let mut out = vec![];
    for it in items {
        match statement_of(it).map(|s| &s.node) {
            Some(Statement::Compound(inner))
                if inner
                    .iter()
                    .all(|x| matches!(x.node, BlockItem::Statement(_))) =>
            {
                out.extend(flat(inner))
            }
            _ => out.push(it),
        }
    }
    out
}

/// The one create or join (`callee`) a loop body makes, of `t[i]`: `t` and the start
/// routine (of a create). Any other create or join, a call through a pointer, a label:
/// none.
fn loop_call(body: &[Node<BlockItem>], i: &str, callee: &str) -> Option<(String, Option<String>)> {
    let mut found = None;
    for it in flat(body) {
        let calls = Calls::of_item(it);
        if calls.labels {
            return None;
        }
        for c in &calls.calls {
            match callee_name(c) {
                Some("pthread_create") | Some("pthread_join") | None => {}
                _ => continue,
            }
            let top = statement_of(it)
                .and_then(call_statement)
                .is_some_and(|s| callee_name(s) == Some(callee));
            if found.is_some() || callee_name(c) != Some(callee) || !top {
                return None;
            }
            let a0 = c.arguments.first()?;
            let target = if callee == "pthread_create" {
                address_of(a0)?
            } else {
                a0
            };
            let (t, k) = indexed(target)?;
            if k != i {
                return None;
            }
            found = Some((t.to_string(), routine_of(c).map(str::to_string)));
        }
    }
    found
}

/// What each top-level item of `main` calls and names; a label counts where some `goto`
/// of `main` names it (or an item with a `goto` and no label).
fn item_calls(body: &[Node<BlockItem>]) -> Vec<Calls> {
    let mut items: Vec<Calls> = body.iter().map(Calls::of_item).collect();
    let targets: HashSet<String> = items.iter().flat_map(|c| c.gotos.iter().cloned()).collect();
    for c in &mut items {
        c.labels = c.label_names.iter().any(|l| targets.contains(l))
            || c.label_names.is_empty() && !c.gotos.is_empty();
    }
    items
}

impl Calls {
    /// The items' calls, names and labels together.
    fn whole(items: &[Calls]) -> Calls {
        let mut whole = Calls::default();
        for c in items {
            whole.labels |= c.labels;
            for (k, v) in &c.idents {
                *whole.idents.entry(k.clone()).or_default() += v;
            }
            whole.calls.extend(c.calls.iter().cloned());
        }
        whole
    }
}

/// Reads `main`'s top-level items. `creators`: the functions with a create; `main_called`:
/// some function calls `main`; `sites`: how many creates name each start routine.
/// A label no goto of `main` names (`ERROR:`) is never jumped to: no jump back over a
/// join. Labels are local to their function, and `normalise` leaves no `switch`.
pub fn main_facts(
    body: &[Node<BlockItem>],
    creators: &HashSet<String>,
    main_called: bool,
    (sites, main_written): (&HashMap<String, usize>, &HashSet<String>),
) -> MainFacts {
    let items = item_calls(body);
    let locals: HashSet<&str> = body.iter().flat_map(declared_names).collect();
    // A loop's counter and bound: `main`'s locals, or globals only `main` writes.
    let mut scalars = locals.clone();
    scalars.extend(main_written.iter().map(String::as_str));
    // The counted loop that is item `k`.
    let counted = |prev, s, k| {
        counted_loop(prev, s, &scalars)
            .filter(|(i, _, _)| !address_taken(body, i))
            .map(|(i, n, b)| (i, canonical(body, &scalars, n, k), b))
    };
    let whole = Calls::whole(&items);
    let phased = !main_called && !whole.labels && creators.iter().all(|f| f == "main");
    let mut facts = MainFacts::default();
    let mut live: HashSet<Handle> = HashSet::new();
    let mut phase = 1;
    // Non-phased: a label or a create was met (or `main` may run again).
    let mut stopped = main_called;
    let mut labels_seen = main_called;
    let mut prev: Option<&Node<Statement>> = None;
    // Where each counted create loop is.
    let mut started: HashMap<Handle, usize> = HashMap::new();
    for (k, (it, calls)) in body.iter().zip(&items).enumerate() {
        let creates: Vec<&CallExpression> = calls
            .calls
            .iter()
            .filter(|c| {
                callee_name(c).is_some_and(|n| n == "pthread_create" || creators.contains(n))
            })
            .collect();
        labels_seen |= calls.labels;
        let stmt = statement_of(it);
        // The item is one create, at top level.
        let single = creates.len() == 1
            && stmt
                .and_then(call_statement)
                .is_some_and(|c| callee_name(c) == Some("pthread_create"));
        if !phased {
            stopped |= calls.labels;
            facts.solo.push(!stopped && creates.is_empty());
            stopped |= !creates.is_empty();
            for c in &creates {
                let r = routine_of(c).unwrap_or_default().to_string();
                let once = single && !labels_seen && sites.get(&r) == Some(&1);
                let e = facts.routines.entry(r).or_default();
                e.many |= !once;
                e.phases.insert(1);
            }
            prev = stmt;
            continue;
        }
        if stmt.is_some_and(|s| teams(&mut facts, s, creators, (k, live.is_empty()), &mut phase)) {
            prev = stmt;
            continue;
        }
        facts.solo.push(live.is_empty() && creates.is_empty());
        if !creates.is_empty() {
            if live.is_empty() && !facts.routines.is_empty() {
                phase += 1;
            }
            for c in &creates {
                let r = routine_of(c).unwrap_or_default().to_string();
                let once = single && sites.get(&r) == Some(&1);
                let e = facts.routines.entry(r).or_default();
                e.many |= !once;
                e.phases.insert(phase);
            }
            let looped = stmt
                .and_then(|s| counted(prev, s, k))
                .filter(|_| creates.len() == 1)
                .and_then(|(i, n, b)| loop_call(b, i, "pthread_create").map(|(t, _)| (t, n)));
            note_instances(&mut facts, &looped, creates[0], sites);
            let counter = stmt
                .and_then(|s| Some((s, counted(prev, s, k)?.0)))
                .filter(|_| creates.len() == 1 && looped.is_some());
            if let Some((i, w)) =
                counter.and_then(|(s, i)| Some((i, super::disjoint::counter_width(body, s, i)?)))
            {
                let r = routine_of(creates[0]).unwrap_or_default();
                let counter_passed = creates[0]
                    .arguments
                    .get(3)
                    .is_some_and(|a| super::disjoint::passes_counter(a, i, w));
                let slot = creates[0]
                    .arguments
                    .get(3)
                    .and_then(|a| super::slot::slot_argument(a, i));
                if sites.get(r) == Some(&1) {
                    if counter_passed {
                        facts.indexed.insert(r.to_string(), w);
                    }
                    if let Some(block) = slot {
                        // `(long)arg` of distinct addresses is distinct; `(int)arg` may not be.
                        facts.indexed.insert(r.to_string(), 64);
                        facts.slotted.insert(r.to_string(), (block.to_string(), k));
                    }
                }
            }
            let handle = if single {
                creates[0]
                    .arguments
                    .first()
                    .and_then(address_of)
                    .and_then(ident)
                    .map(|t| Handle::Var(t.to_string()))
                    .filter(|h| handle_valid(h, &whole, &locals))
            } else {
                // Checked at its join loop.
                looped
                    .map(|(t, n)| Handle::Loop(t, n))
                    .filter(|h| !started.contains_key(h))
            };
            let handle = handle.unwrap_or(Handle::Unknown);
            if matches!(handle, Handle::Loop(..)) {
                started.insert(handle.clone(), k);
            }
            live.insert(handle);
        } else if let Some(s) = stmt {
            if let Some(c) = call_statement(s).filter(|c| callee_name(c) == Some("pthread_join")) {
                if let Some(t) = c.arguments.first().and_then(ident) {
                    live.remove(&Handle::Var(t.to_string()));
                }
            } else if let Some((i, n, b)) = counted(prev, s, k) {
                if let Some((t, _)) = loop_call(b, i, "pthread_join") {
                    let h = Handle::Loop(t, n);
                    let valid = started
                        .get(&h)
                        .is_some_and(|&c| loop_handles_valid(&h, body, &items, &locals, (c, k)));
                    if valid {
                        live.remove(&h);
                    }
                }
            }
        }
        prev = stmt;
    }
    facts
}

/// The bound `v` of the loop that is item `at` of `main`, when its one write in `main` is a
/// top-level `v = w;` before the loop, of a local or global `w` that `main` does not write
/// after it (nor any other function, `scalars`): `w`'s bound (`num_threads = n;`, a create
/// loop to `num_threads` and a join loop to `n`).
fn canonical(body: &[Node<BlockItem>], scalars: &HashSet<&str>, b: Bound, at: usize) -> Bound {
    let mut b = b;
    for _ in 0..4 {
        let Bound::Local(v) = &b else { return b };
        let mut written = body.iter().enumerate().filter(|(_, it)| writes(it, v));
        let (Some((k, it)), None) = (written.next(), written.next()) else {
            return b;
        };
        let Some(w) = assignment(it).and_then(|(x, e)| (x == v).then(|| ident(e)).flatten()) else {
            return b;
        };
        if k >= at
            || !scalars.contains(w)
            || address_taken(body, v)
            || body[k + 1..].iter().any(|i| writes(i, w))
        {
            return b;
        }
        b = Bound::Local(w.to_string());
    }
    b
}

/// The globals no function but `main` writes or takes the address of (nor a file-scope
/// initialiser names): a thread changes them only through `main`'s pointers.
pub fn main_written_globals(unit: &TranslationUnit) -> HashSet<String> {
    let mut globals: HashSet<String> = HashSet::new();
    let mut named: HashSet<String> = HashSet::new();
    for e in &unit.0 {
        match &e.node {
            ExternalDeclaration::Declaration(d) => {
                for x in &d.node.declarators {
                    let n = ladr_c::syntax::build::declarator_name(&x.node.declarator.node);
                    globals.extend(n.map(str::to_string));
                    if let Some(i) = &x.node.initializer {
                        let mut names = super::splice::Names::default();
                        let _ = visit::initializer(&mut names, i);
                        named.extend(names.used.into_keys());
                    }
                }
            }
            ExternalDeclaration::FunctionDefinition(f) => {
                if ladr_c::syntax::build::function_name(&f.node) == Some("main") {
                    continue;
                }
                let Some(u) = super::alias::uses_of(&f.node) else {
                    // A function this cannot read may write anything.
                    return HashSet::new();
                };
                named.extend(u.writes.into_keys());
                named.extend(u.addressed);
            }
            _ => {}
        }
    }
    globals.retain(|g| !named.contains(g));
    globals
}

/// Records item `k` of `main` (`alone`: no thread live before it) if it is a team block
/// or a team nest ([`super::nest`]): its threads are joined inside it, so nothing it
/// starts outlives it; its items outside its teams' create-to-join spans run alone, and
/// its team blocks' threads never run together, when nothing ran before it.
fn teams(
    facts: &mut MainFacts,
    s: &Node<Statement>,
    creators: &HashSet<String>,
    (k, alone): (usize, bool),
    phase: &mut usize,
) -> bool {
    let Some(nest) = super::nest::team_nest(s, creators) else {
        return false;
    };
    facts.solo.push(false);
    facts.team_nests.push(k);
    for (&item, &solo) in &nest.solo {
        facts.nested_solo.insert(item, alone && solo);
    }
    if alone && !facts.routines.is_empty() {
        *phase += 1;
    }
    // Each team block joins its threads before the next one starts: with no thread live
    // before the nest, each is a phase of its own.
    for (j, (_, b)) in nest.blocks.iter().enumerate() {
        if alone && j > 0 {
            *phase += 1;
        }
        for r in &b.routines {
            let e = facts.routines.entry(r.clone()).or_default();
            e.many = true;
            e.phases.insert(*phase);
        }
    }
    true
}

/// The one create `c` of its routine (`sites`), in a counted loop of `main` with a
/// constant bound (`looped`), starts at most that many instances.
fn note_instances(
    facts: &mut MainFacts,
    looped: &Option<(String, Bound)>,
    c: &CallExpression,
    sites: &HashMap<String, usize>,
) {
    if let Some((_, Bound::Constant(n))) = looped {
        let r = routine_of(c).unwrap_or_default();
        if sites.get(r) == Some(&1) {
            facts.instances.insert(r.to_string(), *n);
        }
    }
}

/// A handle is followed only when its name occurs in `main` nowhere but as the first
/// argument of its one create, of joins and of `normalise`'s havoc.
fn handle_valid(h: &Handle, main: &Calls, locals: &HashSet<&str>) -> bool {
    let name = match h {
        Handle::Var(t) | Handle::Loop(t, _) => t,
        Handle::Unknown => return false,
    };
    if !locals.contains(name.as_str()) {
        return false;
    }
    let mut allowed = 0;
    let mut creates = 0;
    for c in &main.calls {
        let Some(a0) = c.arguments.first() else {
            continue;
        };
        let target = match callee_name(c) {
            Some("pthread_create") => {
                let hit = address_of(a0).is_some_and(|t| refers(t, name));
                creates += usize::from(hit);
                hit
            }
            Some("pthread_join") => refers(a0, name),
            Some("__CPROVER_havoc_object") => address_of(a0).and_then(ident) == Some(name.as_str()),
            _ => false,
        };
        allowed += usize::from(target);
    }
    creates == 1 && main.idents.get(name.as_str()).copied().unwrap_or(0) == allowed
}

/// The create loop (item `loops.0` of `main`'s `body`) and the join loop (item `loops.1`)
/// of handles `t[i]` join the threads they started when: `t` is a local of `main` (an
/// array, or a pointer to a block) occurring in each loop once (its create, its join),
/// nowhere between them, and before them only assigned a fresh block (`t = malloc(…)`:
/// no one else can reach the handles) or havocked by `normalise`; and a bound that is a local of `main`
/// is written nowhere from the create loop on and its address is never taken.
fn loop_handles_valid(
    h: &Handle,
    body: &[Node<BlockItem>],
    items: &[Calls],
    locals: &HashSet<&str>,
    (create, join): (usize, usize),
) -> bool {
    let Handle::Loop(t, bound) = h else {
        return false;
    };
    if !locals.contains(t.as_str()) {
        return false;
    }
    if let Bound::Local(n) = bound {
        if address_taken(body, n) || body[create..=join].iter().any(|it| writes(it, n)) {
            return false;
        }
    }
    let count = |k: usize| items[k].idents.get(t.as_str()).copied().unwrap_or(0);
    if count(create) != 1 || count(join) != 1 || (create + 1..join).any(|k| count(k) != 0) {
        return false;
    }
    (0..create).all(|k| count(k) == 0 || (count(k) == 1 && assigns_or_havocs(body, items, k, t)))
}

/// Is `e` a call of `malloc` or `calloc`?
fn fresh_block(e: &Node<Expression>) -> bool {
    matches!(&strip(e).node, Expression::Call(c)
        if matches!(callee_name(&c.node), Some("malloc" | "calloc")))
}

/// Item `k` as `v = e;`: (`v`, `e`).
fn assignment(item: &Node<BlockItem>) -> Option<(&str, &Node<Expression>)> {
    let Some(Statement::Expression(Some(e))) = statement_of(item).map(|s| &s.node) else {
        return None;
    };
    match &e.node {
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
            Some((ident(&b.node.lhs)?, &b.node.rhs))
        }
        _ => None,
    }
}

/// Is item `k` `t = malloc(…);` (or `calloc`, or `t = 0;`; not naming `t`, checked by the
/// caller's count), `t = v;` right after `v = malloc(…);` with `v` named nowhere else in `main`
/// (`normalise`'s temporary of a call), or `normalise`'s havoc of `t`?
fn assigns_or_havocs(body: &[Node<BlockItem>], items: &[Calls], k: usize, t: &str) -> bool {
    if let Some((lhs, rhs)) = assignment(&body[k]) {
        if lhs != t {
            return false;
        }
        // A fresh block, or the null pointer (through which no create writes a handle).
        if fresh_block(rhs) || ladr_c::syntax::constant::is_null_pointer_constant(&rhs.node) {
            return true;
        }
        let Some(v) = ident(rhs) else { return false };
        let uses: usize = items
            .iter()
            .map(|c| c.idents.get(v).copied().unwrap_or(0))
            .sum();
        return k > 0
            && uses == 2
            && assignment(&body[k - 1]).is_some_and(|(w, e)| w == v && fresh_block(e));
    }
    let Some(Statement::Expression(Some(e))) = statement_of(&body[k]).map(|s| &s.node) else {
        return false;
    };
    matches!(&e.node, Expression::Call(c)
        if callee_name(&c.node) == Some("__CPROVER_havoc_object")
            && c.node.arguments.first().and_then(address_of).and_then(ident) == Some(t))
}

fn refers(e: &Node<Expression>, name: &str) -> bool {
    ident(e) == Some(name) || indexed(e).is_some_and(|(t, _)| t == name)
}
