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
//! and whose next statement is `i = lb + k * s;` (`s` an integer constant, `s != 0`, `lb`
//! one too or a local whose value is a constant for every thread, `super::values`),
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
use ladr_c::syntax::walk::{is_assign_op, is_inc_dec, Walk};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// A team block's shape: the index of its first create, of its last join, its routines.
pub struct TeamBlock {
    pub first: usize,
    pub last: usize,
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
        self.jumps |= jumps(&s.node);
        Ok(Walk::Descend)
    }
}

/// Whether `s` jumps or is jumped to (label, `goto`, `return`, `break`, `continue`, `switch`).
pub(super) fn jumps(s: &Statement) -> bool {
    matches!(
        s,
        Statement::Labeled(_)
            | Statement::Goto(_)
            | Statement::Return(_)
            | Statement::Break
            | Statement::Continue
            | Statement::Switch(_)
    )
}

pub(super) fn name_of(e: &Node<Expression>) -> Option<&str> {
    match &e.node {
        Expression::Identifier(i) => Some(&i.node.name),
        _ => None,
    }
}

pub(super) fn address_of_name(e: &Node<Expression>) -> Option<&str> {
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
pub(super) fn plain_call(i: &Node<BlockItem>) -> Option<&CallExpression> {
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
    let creating = all
        .calls
        .iter()
        .filter(|(_, c)| callee(c).is_some_and(|n| n == "pthread_create" || creators.contains(n)));
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
        routines,
    })
}

/// An integer constant: a literal, possibly negated.
pub(super) fn constant(e: &Node<Expression>) -> Option<i64> {
    match &e.node {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) => {
                let digits: &str = &i.number;
                let v = match i.base {
                    IntegerBase::Decimal => digits.parse::<i64>().ok()?,
                    IntegerBase::Hexadecimal => i64::from_str_radix(digits, 16).ok()?,
                    IntegerBase::Octal => i64::from_str_radix(digits, 8).ok()?,
                    IntegerBase::Binary => i64::from_str_radix(digits, 2).ok()?,
                };
                Some(v)
            }
            _ => None,
        },
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Minus => {
            constant(&u.node.operand)?.checked_neg()
        }
        _ => None,
    }
}

/// The names the functions `bodies` declare locals or parameters of.
pub(super) fn local_names<'f>(
    bodies: impl IntoIterator<Item = &'f FunctionDefinition>,
) -> HashSet<String> {
    let mut out = HashSet::new();
    for f in bodies {
        let mut inside = Effects::default();
        let _ = visit::stmt(&mut inside, &f.statement);
        out.extend(inside.declared);
        out.extend(ladr_c::syntax::build::parameter_names(&f.declarator.node));
    }
    out
}

/// The names an expression or statement writes (assignments, `++`, `--`), the names
/// whose address it takes, its calls' callees, and whether it jumps or declares.
#[derive(Default)]
pub(super) struct Effects {
    pub(super) written: HashMap<String, usize>,
    pub(super) addressed: Vec<String>,
    callees: Vec<String>,
    pub(super) declared: Vec<String>,
    pub(super) jumps: bool,
}

impl Visitor for Effects {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        match &e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                let n = name_of(&b.node.lhs).unwrap_or("").to_string();
                *self.written.entry(n).or_default() += 1;
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                let n = name_of(&u.node.operand).unwrap_or("").to_string();
                *self.written.entry(n).or_default() += 1;
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                let n = name_of(&u.node.operand).unwrap_or("").to_string();
                self.addressed.push(n);
            }
            Expression::Call(c) => {
                self.callees.push(callee(&c.node).unwrap_or("").to_string());
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
    fn label(&mut self, _l: &Identifier) -> Result<(), Infallible> {
        self.jumps = true;
        Ok(())
    }
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        self.jumps |= jumps(&s.node);
        Ok(Walk::Descend)
    }
    fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
        for x in &d.node.declarators {
            if let Some(n) = ladr_c::syntax::build::declarator_name(&x.node.declarator.node) {
                self.declared.push(n.to_string());
            }
        }
        Ok(Walk::Descend)
    }
}

pub(super) fn effects_of_items(items: &[Node<BlockItem>]) -> Effects {
    let mut e = Effects::default();
    for i in items {
        let _ = visit::block_item(&mut e, i);
    }
    e
}

fn effects_of_expr(x: &Node<Expression>) -> Effects {
    let mut e = Effects::default();
    let _ = visit::expr(&mut e, x);
    e
}

/// `x = e;`: (`x`, `e`).
pub(super) fn assignment(i: &Node<BlockItem>) -> Option<(&str, &Node<Expression>)> {
    let BlockItem::Statement(s) = &i.node else {
        return None;
    };
    assignment_statement(s)
}

fn assignment_statement(s: &Node<Statement>) -> Option<(&str, &Node<Expression>)> {
    match &s.node {
        Statement::Expression(Some(e)) => match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
                Some((name_of(&b.node.lhs)?, &b.node.rhs))
            }
            _ => None,
        },
        Statement::Compound(items) if items.len() == 1 => assignment(&items[0]),
        _ => None,
    }
}

/// A claim loop found in a function: its counter, claim variable `k`, loop variable
/// `i`, and the statements after `i`'s assignment.
pub(super) struct Claim<'a> {
    id: usize,
    counter: String,
    k: String,
    pub(super) i: String,
    /// `lb` and `s` of `i = lb + k * s`: `lb` a constant, or an expression of locals
    /// (its value a constant for every thread, [`super::values`]).
    lb: Result<i64, &'a Node<Expression>>,
    pub(super) step: i64,
    pub(super) body: &'a [Node<BlockItem>],
}

/// The claim section `{ atomic_begin(); k = nondet(); …; c = k + 1; atomic_end(); }`: (c, k).
fn claim_section(items: &[Node<BlockItem>]) -> Option<(String, String)> {
    let n = items.len();
    if n < 4
        || plain_call(&items[0]).and_then(callee) != Some(ladr_ir::abi::ATOMIC_BEGIN)
        || plain_call(&items[n - 1]).and_then(callee) != Some(ladr_ir::abi::ATOMIC_END)
    {
        return None;
    }
    let (c, last) = assignment(&items[n - 2])?;
    let Expression::BinaryOperator(b) = &last.node else {
        return None;
    };
    let k = name_of(&b.node.lhs)?;
    let plus_one = b.node.operator.node == BinaryOperator::Plus && constant(&b.node.rhs) == Some(1);
    if !plus_one || c == k {
        return None;
    }
    // `k` first takes the counter (a claim in order), or any value (a claim that may
    // skip ahead) that the `if` below brings up to the counter.
    let (first_k, first) = assignment(&items[1])?;
    let in_order = name_of(first) == Some(c);
    let any = matches!(&first.node, Expression::Call(x)
        if callee(&x.node).is_some_and(|f| f.starts_with(ladr_ir::abi::NONDET_PREFIX))
            && x.node.arguments.is_empty());
    if first_k != k || !(in_order || any) {
        return None;
    }
    // Between: one `if (!(c <= k && …)) k = c;`, nothing else writing `k` or `c`, no
    // call but of a nondet function, no jump.
    let mut guarded = in_order;
    for item in &items[2..n - 2] {
        let e = effects_of_items(std::slice::from_ref(item));
        let calls_ok = e
            .callees
            .iter()
            .all(|f| f.starts_with(ladr_ir::abi::NONDET_PREFIX));
        if e.jumps || !calls_ok || !e.declared.is_empty() || e.written.contains_key(c) {
            return None;
        }
        if !e.written.contains_key(k) {
            continue;
        }
        let BlockItem::Statement(s) = &item.node else {
            return None;
        };
        let Statement::If(f) = &s.node else {
            return None;
        };
        if guarded || f.node.else_statement.is_some() {
            return None;
        }
        let (x, v) = assignment_statement(&f.node.then_statement)?;
        if x != k || name_of(v) != Some(c) || !at_least(&f.node.condition, c, k) {
            return None;
        }
        let cond = effects_of_expr(&f.node.condition);
        if !cond.written.is_empty() || !cond.callees.is_empty() {
            return None;
        }
        guarded = true;
    }
    guarded.then(|| (c.to_string(), k.to_string()))
}

/// Does `cond` false imply nothing and `cond` true include `!(c <= k)`: is it
/// `!(c <= k && …)` (the `k = c` it guards runs unless `c <= k`)?
fn at_least(cond: &Node<Expression>, c: &str, k: &str) -> bool {
    let Expression::UnaryOperator(u) = &cond.node else {
        return false;
    };
    if u.node.operator.node != UnaryOperator::Negate {
        return false;
    }
    fn conjunct(e: &Node<Expression>, c: &str, k: &str) -> bool {
        match &e.node {
            Expression::BinaryOperator(b) => match b.node.operator.node {
                BinaryOperator::LogicalAnd => {
                    conjunct(&b.node.lhs, c, k) || conjunct(&b.node.rhs, c, k)
                }
                BinaryOperator::LessOrEqual => {
                    name_of(&b.node.lhs) == Some(c) && name_of(&b.node.rhs) == Some(k)
                }
                _ => false,
            },
            _ => false,
        }
    }
    conjunct(&u.node.operand, c, k)
}

/// The claim loops of `f`'s body at no loop depth, with the names declared around them.
fn claim_loops<'a>(f: &'a FunctionDefinition) -> Vec<(Claim<'a>, HashSet<String>)> {
    fn walk<'a>(
        s: &'a Node<Statement>,
        scope: &mut Vec<String>,
        out: &mut Vec<(Claim<'a>, HashSet<String>)>,
    ) {
        match &s.node {
            Statement::Compound(items) => {
                let depth = scope.len();
                for i in items {
                    match &i.node {
                        BlockItem::Declaration(d) => {
                            for x in &d.node.declarators {
                                let n =
                                    ladr_c::syntax::build::declarator_name(&x.node.declarator.node);
                                scope.extend(n.map(str::to_string));
                            }
                        }
                        BlockItem::Statement(s) => walk(s, scope, out),
                        BlockItem::StaticAssert(_) => {}
                    }
                }
                scope.truncate(depth);
            }
            Statement::If(i) => {
                walk(&i.node.then_statement, scope, out);
                if let Some(e) = &i.node.else_statement {
                    walk(e, scope, out);
                }
            }
            Statement::Labeled(l) => walk(&l.node.statement, scope, out),
            Statement::While(w) if constant(&w.node.expression).is_some_and(|c| c != 0) => {
                if let Some(c) = claim(s, &w.node.statement) {
                    out.push((c, scope.iter().cloned().collect()));
                }
            }
            // Other loops: their claim loops may run more than once per thread.
            _ => {}
        }
    }
    let mut out = vec![];
    walk(&f.statement, &mut vec![], &mut out);
    out
}

/// `while (1) body` as a claim loop.
fn claim<'a>(w: &'a Node<Statement>, body: &'a Node<Statement>) -> Option<Claim<'a>> {
    let mut items: &'a [Node<BlockItem>] = match &body.node {
        Statement::Compound(items) => items,
        _ => return None,
    };
    // Blocks of one block.
    while items.len() == 1 {
        match &items[0].node {
            BlockItem::Statement(s) => match &s.node {
                Statement::Compound(inner) => items = inner,
                _ => return None,
            },
            _ => return None,
        }
    }
    let BlockItem::Statement(section) = &items.first()?.node else {
        return None;
    };
    let Statement::Compound(section) = &section.node else {
        return None;
    };
    let (counter, k) = claim_section(section)?;
    let (i, value) = assignment(items.get(1)?)?;
    // `i = lb + k * s`, `lb` and `s != 0` constants.
    let Expression::BinaryOperator(b) = &value.node else {
        return None;
    };
    if b.node.operator.node != BinaryOperator::Plus {
        return None;
    }
    let lb = constant(&b.node.lhs).ok_or(&*b.node.lhs);
    let Expression::BinaryOperator(m) = &b.node.rhs.node else {
        return None;
    };
    let step = constant(&m.node.rhs).filter(|&s| s != 0);
    if m.node.operator.node != BinaryOperator::Multiply
        || name_of(&m.node.lhs) != Some(k.as_str())
        || step.is_none()
        || i == k
        || i == counter
    {
        return None;
    }
    let body = &items[2..];
    let section_writes = effects_of_items(&items[..1]);
    let after = effects_of_items(body);
    if section_writes.written.contains_key(i)
        || after.written.contains_key(i)
        || after.declared.iter().any(|n| n == i)
    {
        return None;
    }
    Some(Claim {
        id: w as *const Node<Statement> as usize,
        counter,
        k,
        i: i.to_string(),
        lb,
        step: step?,
        body,
    })
}

/// The routines of team blocks of `main` that nothing names but those blocks' creates
/// and one plain call per block (by `main`, thread 0): each thread of a team runs one
/// once, and teams do not overlap.
pub fn team_routines(
    unit: &TranslationUnit,
    (main_items, creators): (&[Node<BlockItem>], &HashSet<String>),
    facts: &super::threads::MainFacts,
) -> HashSet<String> {
    // Each routine's creates and calls inside team blocks, and the calls per block.
    let mut in_blocks: HashMap<String, usize> = HashMap::new();
    let mut called_twice: HashSet<String> = HashSet::new();
    let mut routines: HashSet<String> = HashSet::new();
    let statement = |k: usize| match main_items.get(k).map(|i| &i.node) {
        Some(BlockItem::Statement(s)) => Some(s),
        _ => None,
    };
    let mut blocks: Vec<&[Node<BlockItem>]> = vec![];
    for &k in &facts.team_nests {
        let nest = statement(k).and_then(|s| super::nest::team_nest(s, creators));
        blocks.extend(
            nest.into_iter()
                .flat_map(|n| n.blocks)
                .map(|(items, _)| items),
        );
    }
    for items in blocks {
        let mut calls: HashMap<String, usize> = HashMap::new();
        for i in items {
            let Some(c) = plain_call(i) else { continue };
            match callee(c) {
                Some("pthread_create") => {
                    if let Some(r) = routine_of(c) {
                        *in_blocks.entry(r.to_string()).or_default() += 1;
                        routines.insert(r.to_string());
                    }
                }
                Some(f) => *calls.entry(f.to_string()).or_default() += 1,
                None => {}
            }
        }
        for (f, n) in calls {
            *in_blocks.entry(f.clone()).or_default() += n;
            if n > 1 {
                called_twice.insert(f);
            }
        }
    }
    if routines.is_empty() {
        return routines;
    }
    let mut whole = Contents::default();
    let _ = visit::unit(&mut whole, unit);
    routines.retain(|r| {
        r != "main"
            && !called_twice.contains(r)
            && whole.idents.get(r).copied() == in_blocks.get(r).copied()
    });
    routines
}

/// Every index of a claim loop's body that is its loop variable plus a constant (or
/// minus it), by its expression's address (module doc).
pub fn iterations(
    unit: &TranslationUnit,
    bodies: &HashMap<String, &FunctionDefinition>,
    team: &HashSet<String>,
    (file_scope, tables): (
        &HashMap<String, super::decls::VarId>,
        &HashMap<super::decls::VarId, Vec<i64>>,
    ),
) -> (HashMap<usize, super::Step>, super::decls::ClaimRanges) {
    let mut out = HashMap::new();
    let mut ranges = HashMap::new();
    if team.is_empty() {
        return (out, ranges);
    }
    // Every use of every name in the program, and the writes and addresses.
    let mut effects = Effects::default();
    let _ = visit::unit(&mut effects, unit);
    let globals: HashSet<&str> = unit
        .0
        .iter()
        .filter_map(|e| match &e.node {
            ExternalDeclaration::Declaration(d) => Some(d),
            _ => None,
        })
        .flat_map(|d| d.node.declarators.iter())
        .filter_map(|x| ladr_c::syntax::build::declarator_name(&x.node.declarator.node))
        .collect();
    let roots = super::values::Roots::of(unit);
    // Claim sections per counter.
    let mut claims: Vec<(Claim, String)> = vec![];
    let mut per_counter: HashMap<String, usize> = HashMap::new();
    for (name, f) in bodies {
        if name == "main" {
            continue;
        }
        for (c, around) in claim_loops(f) {
            *per_counter.entry(c.counter.clone()).or_default() += 1;
            if around.contains(&c.i) && around.contains(&c.k) {
                claims.push((c, name.clone()));
            }
        }
    }
    for (c, f) in claims {
        let Some(def) = bodies.get(&f) else { continue };
        let mine = {
            let mut e = Effects::default();
            let _ = visit::stmt(&mut e, &def.statement);
            e
        };
        let params = ladr_c::syntax::build::parameter_names(&def.declarator.node);
        // `f`: started and called by team blocks only, at most once each.
        let routine_ok = team.contains(&f);
        // The counter: a global no local of `f` shadows, written only by its claim and
        // re-arms `c = 0`, its address never taken; its claim section is its only one.
        let counter_ok = globals.contains(c.counter.as_str())
            && !mine.declared.contains(&c.counter)
            && !params.contains(&c.counter)
            && per_counter.get(&c.counter) == Some(&1)
            && !effects.addressed.contains(&c.counter)
            && counter_writes_ok(unit, &c.counter);
        // `k` and `i`: automatic locals of `f` declared around the loop (and not in it),
        // the address of no variable of their names taken in `f` but by `normalise`'s
        // havoc.
        let local_ok = |n: &str| {
            !params.iter().any(|p| p == n)
                && automatic(&def.statement, n)
                && mine.addressed.iter().filter(|a| *a == n).count() == havocs(&def.statement, n)
        };
        if !(routine_ok && counter_ok && local_ok(&c.k) && local_ok(&c.i)) {
            continue;
        }
        let items = match &def.statement.node {
            Statement::Compound(items) => items.as_slice(),
            _ => &[],
        };
        let uses = super::alias::uses_of(def);
        // A lower bound of one constant value for every thread, or of one value every
        // thread of the team read alike ([`super::affine`]: the steps name its variables).
        let known = |e| roots.constant_of((items, uses.as_ref()?, &params), e, &HashMap::new());
        let lb = c.lb.map_or_else(known, Some);
        let inv = super::invariant::invariant_locals(def, &mine, file_scope);
        let shared = match (lb, c.lb) {
            (None, Err(e)) => super::affine::shared_value(e, &inv),
            _ => Some(vec![]),
        };
        let Some(shared) = shared else {
            continue;
        };
        let signed = super::affine::signed(&def.statement, &c.i);
        let mut found = super::affine::Indices {
            i: &c.i,
            id: c.id,
            out: &mut out,
            inv,
            shared,
            signed,
        };
        for item in c.body {
            let _ = visit::block_item(&mut found, item);
        }
        let Some(lb) = lb else {
            continue;
        };
        if let Some((test, end)) = super::exit_test::exit_test(&c)
            .filter(|_| super::bounds::counter_from_zero(unit, &c.counter))
        {
            if lb >= 0 {
                // An expression of locals each of one value for every thread.
                let rooted = |e: &Node<Expression>| {
                    uses.as_ref().is_some_and(|u| {
                        super::values::pure_names(e).is_some_and(|names| {
                            names
                                .iter()
                                .all(|n| roots.of_local(items, u, &params, n).is_some())
                        })
                    })
                };
                super::collapse::collapsed(c.body, &c.i, &end, &rooted, &mut out);
            }
            if let super::decls::ClaimEnd::Const(hi) = end {
                let claim = (c.i.as_str(), c.id, lb, hi);
                super::table::table_steps(&mine, c.body, claim, (tables, file_scope), &mut out);
            }
            let range = super::decls::ClaimRange {
                var: c.i.clone(),
                lo: lb,
                end,
                id: c.id,
                signed,
            };
            ranges.insert(test, range);
        }
    }
    (out, ranges)
}

/// Is every declaration of `n` in `s` without a storage class (an automatic local)?
pub(super) fn automatic(s: &Node<Statement>, n: &str) -> bool {
    struct A<'n>(&'n str, bool);
    impl Visitor for A<'_> {
        type Error = Infallible;
        const UNEVALUATED: bool = true;
        fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
            let names =
                d.node.declarators.iter().filter_map(|x| {
                    ladr_c::syntax::build::declarator_name(&x.node.declarator.node)
                });
            let stored = d
                .node
                .specifiers
                .iter()
                .any(|s| matches!(s.node, DeclarationSpecifier::StorageClass(_)));
            if stored && names.into_iter().any(|x| x == self.0) {
                self.1 = false;
            }
            Ok(Walk::Descend)
        }
    }
    let mut a = A(n, true);
    let _ = visit::stmt(&mut a, s);
    a.1
}

/// How many statements `__CPROVER_havoc_object(&n);` `s` holds.
pub(super) fn havocs(s: &Node<Statement>, n: &str) -> usize {
    struct H<'n>(&'n str, usize);
    impl Visitor for H<'_> {
        type Error = Infallible;
        const UNEVALUATED: bool = true;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
            if let Expression::Call(c) = &e.node {
                let havoc = callee(&c.node) == Some(ladr_ir::abi::HAVOC)
                    && c.node.arguments.len() == 1
                    && address_of_name(&c.node.arguments[0]) == Some(self.0);
                if havoc {
                    self.1 += 1;
                    return Ok(Walk::Skip);
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut h = H(n, 0);
    let _ = visit::stmt(&mut h, s);
    h.1
}

/// Is every write of `c` in the program `c = 0` or `c = x + 1` (the claim's)?
fn counter_writes_ok(unit: &TranslationUnit, c: &str) -> bool {
    struct W<'n>(&'n str, bool);
    impl Visitor for W<'_> {
        type Error = Infallible;
        const UNEVALUATED: bool = true;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
            let mine = |x: &Node<Expression>| name_of(x) == Some(self.0);
            match &e.node {
                Expression::BinaryOperator(b) if mine(&b.node.lhs) => {
                    use BinaryOperator::*;
                    match b.node.operator.node {
                        Assign => {
                            let zero = constant(&b.node.rhs) == Some(0);
                            let claim = matches!(&b.node.rhs.node, Expression::BinaryOperator(p)
                                if p.node.operator.node == Plus
                                    && name_of(&p.node.lhs).is_some()
                                    && constant(&p.node.rhs) == Some(1));
                            self.1 &= zero || claim;
                        }
                        Index | Less | Greater | LessOrEqual | GreaterOrEqual | Equals
                        | NotEquals | Plus | Minus | Multiply | Divide | Modulo | LogicalAnd
                        | LogicalOr | BitwiseAnd | BitwiseOr | BitwiseXor | ShiftLeft
                        | ShiftRight => {}
                        _ => self.1 = false,
                    }
                }
                Expression::UnaryOperator(u) if mine(&u.node.operand) => {
                    use UnaryOperator::*;
                    if !matches!(u.node.operator.node, Plus | Minus | Negate | Complement) {
                        self.1 = false;
                    }
                }
                _ => {}
            }
            Ok(Walk::Descend)
        }
    }
    let mut w = W(c, true);
    let _ = visit::unit(&mut w, unit);
    w.1
}

impl<'a> super::scan::Scan<'_, 'a> {
    /// `path`, the part `e` names ([`super::scan::Scan::part`]), with its unknown indices
    /// that are a claim loop's iteration's own made [`super::Step::Iter`].
    pub fn iteration_path(&self, e: &Node<Expression>, mut path: super::Path) -> super::Path {
        fn steps(e: &Node<Expression>, out: &mut Vec<usize>) -> bool {
            match &e.node {
                Expression::Identifier(_) => true,
                Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
                    out.push(0);
                    steps(&m.node.expression, out)
                }
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                    out.push(&*b.node.rhs as *const Node<Expression> as usize);
                    steps(&b.node.lhs, out)
                }
                _ => false,
            }
        }
        if self.decls.iterations.is_empty() {
            return path;
        }
        let mut keys = vec![];
        if !steps(e, &mut keys) || keys.len() != path.len() {
            return path;
        }
        keys.reverse();
        for (step, key) in path.iter_mut().zip(keys) {
            if *step == super::Step::Index(None) {
                if let Some(s) = self.decls.iterations.get(&key) {
                    *step = s.clone();
                }
            }
        }
        path
    }
}

/// The team routines ([`team_routines`]), and the claim loops' indices, the row indices in
/// bounds ([`super::bounds`]) and the team routines' places (barrier phases, `single`
/// blocks: [`super::team_barrier`]) in `decls`.
pub fn prepare(
    decls: &mut super::decls::Decls,
    unit: &TranslationUnit,
    main: (&[Node<BlockItem>], &HashSet<String>),
    facts: &super::threads::MainFacts,
) -> HashSet<String> {
    let team = team_routines(unit, main, facts);
    // Tables index only claim loops' steps, origins only `Step::Base`'s.
    if !team.is_empty() {
        decls.tables = super::table::tables(unit, &decls.globals);
    }
    let file_scope = (&decls.globals, &decls.tables);
    let (mut found, ranges) = iterations(unit, &decls.bodies, &team, file_scope);
    super::invariant::invariant_indices(decls, &mut found);
    if !decls.bases.is_empty() {
        decls.base_origins = super::origin::base_origins(unit, decls);
    }
    decls.iterations = found;
    let (in_bounds, windows) = super::bounds::in_bounds(unit, &ranges);
    decls.in_bounds = in_bounds;
    for (key, step) in windows {
        decls.iterations.entry(key).or_insert(step);
    }
    decls.claim_ranges = ranges;
    decls.team_places = super::team_barrier::places(unit, &decls.bodies, &team);
    team
}

/// What `main` runs only as thread 0 of a team runs as one more instance of the team's
/// routine ([`team_routines`]): `main` leaves the roots of the functions it reaches only
/// through those calls.
pub fn thread_zero<'r>(
    team: &HashSet<String>,
    runs: &HashMap<String, super::scan::FnRun>,
    mut roots_of: HashMap<&'r str, std::collections::BTreeSet<String>>,
) -> HashMap<&'r str, std::collections::BTreeSet<String>> {
    if team.is_empty() {
        return roots_of;
    }
    let mut alone: HashSet<String> = HashSet::new();
    let mut todo: Vec<String> = vec!["main".into()];
    while let Some(f) = todo.pop() {
        for c in runs.get(&f).into_iter().flat_map(|r| r.calls.iter()) {
            let skip = f == "main" && team.contains(&c.callee);
            if !skip && alone.insert(c.callee.clone()) {
                todo.push(c.callee.clone());
            }
        }
    }
    for (f, r) in roots_of.iter_mut() {
        if *f != "main" && !alone.contains(*f) && r.len() > 1 {
            r.remove("main");
        }
    }
    roots_of
}
