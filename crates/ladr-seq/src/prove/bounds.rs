//! Row indices known to be within their dimension (`docs/decisions/static.md`, "Indices
//! within their rows"). Two accesses `b[i][j]` and `b[i'][j']` with `i ≠ i'` touch
//! different elements only when `j` and `j'` stay within the rows: `b[i][-1]` is
//! `b[i - 1][M - 1]` in memory (DataRaceBench's DRB014 races through it). The proof tells
//! elements apart at an index followed by more indices of the same array only where those
//! later indices are known in bounds ([`super::scan::Scan::named_part`]).
//!
//! An index expression `e` at position `k ≥ 1` of `x[e0][e1]…[ek]` is in bounds when
//! dimension `k` of `x` is a constant `D` (`x` declared once in its function, as its
//! parameter, or at file scope, `T x[D0][D1]…` or `T (*x)[D1]…`; `D` = 1 where it is not
//! known: a variable length is at least 1) and the values of `e` lie in `[0, D)`: `e` is
//! a constant, or `j`, `j + c`, `j - c`, `c + j`, `c - j` (of a constant range) of
//!  * a counter `j` of an enclosing loop of the normal form
//!    `j = c0; while (j < E) { … j++; }` (or `j <= E`, `E` a constant expression, of
//!    literals and globals never written whose value is their initialiser's:
//!    `passes::unwind::exact_globals`), `j` a local of the
//!    function (no global, no parameter, not declared in the body: the body's `j` is the
//!    loop's), its address never taken (but by `__CPROVER_havoc_object`, a
//!    write), written in the body only by the last statement's increment, no `goto` from
//!    outside the body entering it: inside the body, `c0 ≤ j < E` (`≤ E`);
//!  * a claim loop's variable after its exit test (`worksharing::exit_test`): `[lb, E)`
//!    (`[lb, E]` of a test `i <= E`).

use super::affine::{add, linear, Linear};
use super::alias::const_value;
use super::decls::{ClaimEnd, ClaimRanges};
use super::values::{Roots, Value};
use super::window::Extreme;
use super::worksharing::constant;
use super::{Path, Step};
use ladr_c::syntax::build::{declarator_name, parameter_names};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::{is_assign_op, is_inc_dec, Walk};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// One past the highest value of an index: a constant, or a root value
/// ([`super::values`]) plus a constant.
#[derive(Clone, Debug, PartialEq)]
enum Bound {
    Const(i64),
    Sym(String, i64),
    /// Not known: the range says only how low the values go.
    Unknown,
    /// Below both (a minimum's branches).
    Either(Box<Bound>, Box<Bound>),
}

impl Bound {
    /// `v + c` as a bound (one past the highest value).
    fn of(v: Value, c: i64) -> Bound {
        match v {
            Value::Const(x) => x.checked_add(c).map_or(Bound::Unknown, Bound::Const),
            Value::Name(r) => Bound::Sym(r, c),
        }
    }

    fn shifted(&self, c: i64) -> Option<Bound> {
        Some(match self {
            Bound::Const(h) => Bound::Const(h.checked_add(c)?),
            Bound::Sym(r, off) => Bound::Sym(r.clone(), off.checked_add(c)?),
            Bound::Unknown => Bound::Unknown,
            Bound::Either(a, b) => Bound::Either(Box::new(a.shifted(c)?), Box::new(b.shifted(c)?)),
        })
    }

    /// The least constant bound it has.
    fn constant(&self) -> Option<i64> {
        match self {
            Bound::Const(h) => Some(*h),
            Bound::Either(a, b) => match (a.constant(), b.constant()) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            },
            _ => None,
        }
    }

    /// Is every value below the bound below `d` too?
    fn within(&self, d: &Dim) -> bool {
        match (self, d) {
            (Bound::Const(h), Dim::Const(d)) => h <= d,
            // A dimension of variable length is at least 1 (C11 6.7.6.2p5).
            (Bound::Const(h), Dim::Sym(_)) => *h <= 1,
            (Bound::Sym(r, off), Dim::Sym(s)) => r == s && *off <= 0,
            (Bound::Either(a, b), d) => a.within(d) || b.within(d),
            (Bound::Sym(..), Dim::Const(_)) | (Bound::Unknown, _) => false,
        }
    }
}

/// A dimension's length: a constant, or a root value.
#[derive(Clone, Debug, PartialEq)]
enum Dim {
    Const(i64),
    Sym(String),
}

/// The addresses of the index expressions known in bounds (module doc), and the window
/// steps of indices of tile counters ([`super::window`]) by their expression's address.
pub fn in_bounds(
    unit: &TranslationUnit,
    claims: &ClaimRanges,
) -> (HashSet<usize>, HashMap<usize, Step>) {
    let roots = Roots::of(unit);
    let mut globals: HashMap<String, Vec<Declarator>> = HashMap::new();
    for e in &unit.0 {
        if let ExternalDeclaration::Declaration(d) = &e.node {
            for x in &d.node.declarators {
                if let Some(n) = declarator_name(&x.node.declarator.node) {
                    let entry = globals.entry(n.to_string()).or_default();
                    entry.push(x.node.declarator.node.clone());
                }
            }
        }
    }
    let exact = crate::passes::unwind::exact_globals(unit);
    let mut out = HashSet::new();
    let mut windows = HashMap::new();
    for e in &unit.0 {
        let ExternalDeclaration::FunctionDefinition(f) = &e.node else {
            continue;
        };
        let mut facts = Facts::default();
        let _ = visit::stmt(&mut facts, &f.node.statement);
        for p in parameters(&f.node.declarator.node) {
            if let Some(n) = declarator_name(&p) {
                facts
                    .declared
                    .entry(n.to_string())
                    .or_default()
                    .push(p.clone());
            }
        }
        let params = parameter_names(&f.node.declarator.node);
        // The constant globals no local or parameter of `f` shadows.
        let known: HashMap<String, i128> = exact
            .iter()
            .filter(|(n, _)| !facts.declared.contains_key(*n))
            .map(|(n, v)| (n.clone(), *v))
            .collect();
        let items = match &f.node.statement.node {
            Statement::Compound(items) => items.as_slice(),
            _ => &[],
        };
        let uses = super::alias::uses_of(&f.node);
        let mut b = Bounds {
            relative: vec![],
            facts: &facts,
            known: &known,
            globals: &globals,
            params: &params,
            claims,
            roots: (&roots, items, uses.as_ref()),
            ranges: vec![],
            claim_vars: vec![],
            out: &mut out,
            windows: &mut windows,
        };
        let _ = visit::stmt(&mut b, &f.node.statement);
    }
    (out, windows)
}

/// The declarators of a function's parameters.
fn parameters(d: &Declarator) -> Vec<Declarator> {
    let inner = ladr_c::syntax::build::innermost(d);
    for x in &inner.derived {
        if let DerivedDeclarator::Function(f) = &x.node {
            return f
                .node
                .parameters
                .iter()
                .filter_map(|p| p.node.declarator.as_ref().map(|d| d.node.clone()))
                .collect();
        }
    }
    vec![]
}

/// What a function does with its names.
#[derive(Default)]
struct Facts {
    declared: HashMap<String, Vec<Declarator>>,
    addressed: HashSet<String>,
    /// `goto L` of each label, counted.
    gotos: HashMap<String, usize>,
}

impl Visitor for Facts {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
        for x in &d.node.declarators {
            if let Some(n) = declarator_name(&x.node.declarator.node) {
                let entry = self.declared.entry(n.to_string()).or_default();
                entry.push(x.node.declarator.node.clone());
            }
        }
        Ok(Walk::Descend)
    }
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        if let Expression::Call(c) = &e.node {
            // `__CPROVER_havoc_object(&j)`: a write of `j` where it is, no escape.
            if ladr_c::syntax::build::callee_name(&c.node) == Some(ladr_ir::abi::HAVOC) {
                return Ok(Walk::Skip);
            }
        }
        if let Expression::UnaryOperator(u) = &e.node {
            if u.node.operator.node == UnaryOperator::Address {
                if let Expression::Identifier(i) = &u.node.operand.node {
                    self.addressed.insert(i.node.name.clone());
                }
            }
        }
        Ok(Walk::Descend)
    }
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        if let Statement::Goto(l) = &s.node {
            *self.gotos.entry(l.node.name.clone()).or_default() += 1;
        }
        Ok(Walk::Descend)
    }
}

/// A loop body's (a block's) writes and declarations of one name, its labels and its
/// `goto`s.
pub(super) struct Body<'n> {
    name: &'n str,
    /// Assignments, increments and decrements of the name, and `&name`.
    pub writes: usize,
    pub declarations: usize,
    labels: Vec<String>,
    gotos: HashMap<String, usize>,
}

impl<'n> Body<'n> {
    fn new(name: &'n str) -> Body<'n> {
        Body {
            name,
            writes: 0,
            declarations: 0,
            labels: vec![],
            gotos: HashMap::new(),
        }
    }

    /// What `s` does with `name`.
    pub(super) fn of_statement(s: &Node<Statement>, name: &'n str) -> Body<'n> {
        let mut body = Body::new(name);
        let _ = visit::stmt(&mut body, s);
        body
    }

    /// What `items` do with `name`.
    pub(super) fn of(items: &[Node<BlockItem>], name: &'n str) -> Body<'n> {
        let mut body = Body::new(name);
        for i in items {
            let _ = visit::block_item(&mut body, i);
        }
        body
    }
}

impl Visitor for Body<'_> {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn declarator(&mut self, d: &Node<Declarator>) -> Result<Walk, Infallible> {
        self.declarations += usize::from(declarator_name(&d.node) == Some(self.name));
        Ok(Walk::Descend)
    }
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        let named = |x: &Node<Expression>| matches!(&x.node, Expression::Identifier(i) if i.node.name == self.name);
        let write = match &e.node {
            Expression::BinaryOperator(b) => {
                is_assign_op(&b.node.operator.node) && named(&b.node.lhs)
            }
            Expression::UnaryOperator(u) => {
                (is_inc_dec(&u.node.operator.node)
                    || u.node.operator.node == UnaryOperator::Address)
                    && named(&u.node.operand)
            }
            _ => false,
        };
        self.writes += usize::from(write);
        Ok(Walk::Descend)
    }
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        match &s.node {
            Statement::Goto(l) => *self.gotos.entry(l.node.name.clone()).or_default() += 1,
            Statement::Labeled(l) => {
                if let Label::Identifier(i) = &l.node.label.node {
                    self.labels.push(i.node.name.clone());
                }
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
}

struct Bounds<'f> {
    facts: &'f Facts,
    claims: &'f ClaimRanges,
    globals: &'f HashMap<String, Vec<Declarator>>,
    /// The constant globals the function reads ([`crate::passes::unwind::exact_globals`]).
    known: &'f HashMap<String, i128>,
    params: &'f [String],
    /// The roots of names, the function's body and its uses ([`super::values`]).
    roots: (
        &'f Roots<'f>,
        &'f [Node<BlockItem>],
        Option<&'f super::alias::Uses<'f>>,
    ),
    /// The counters of the enclosing loops: name, lowest value, one past the highest.
    ranges: Vec<(String, i64, Bound)>,
    /// The enclosing loops' counters of bounds relative to fixed locals: name, lowest
    /// value, one past the highest ([`Bounds::relative_counter`]).
    relative: Vec<(String, Vec<Linear>, Vec<Linear>)>,
    /// The enclosing claim loops' variables: name, the loop's id, signed.
    claim_vars: Vec<(String, usize, bool)>,
    out: &'f mut HashSet<usize>,
    windows: &'f mut HashMap<usize, Step>,
}

/// The range of `c·e` for `e` in `[lo, hi)` and a constant `c > 0`.
fn scaled(lo: i64, hi: &Bound, c: i64) -> Option<(i64, Bound)> {
    if c <= 0 {
        return None;
    }
    let hi = match hi.constant() {
        Some(h) => Bound::Const(h.checked_sub(1)?.checked_mul(c)?.checked_add(1)?),
        None => Bound::Unknown,
    };
    Some((lo.checked_mul(c)?, hi))
}

/// `x[e0]…[ek]` that `e` is: `x`, and the indices in order (none: `e` is no index).
pub(super) fn index_chain(e: &Node<Expression>) -> (&Node<Expression>, Vec<&Node<Expression>>) {
    let mut indices = vec![];
    let mut base = e;
    while let Expression::BinaryOperator(b) = &base.node {
        if b.node.operator.node != BinaryOperator::Index {
            break;
        }
        indices.push(&*b.node.rhs);
        base = &b.node.lhs;
    }
    indices.reverse();
    (base, indices)
}

/// `j = c;`: `j` and `c`.
fn counter_start(i: &Node<BlockItem>) -> Option<(&str, &Node<Expression>)> {
    super::worksharing::assignment(i)
}

/// Is `s` the increment `j++;` (`++j;`, `j += 1;`, `j = j + 1;`)?
pub(super) fn increments(s: &Node<BlockItem>, j: &str) -> bool {
    let BlockItem::Statement(s) = &s.node else {
        return false;
    };
    let Statement::Expression(Some(e)) = &s.node else {
        return false;
    };
    let is_j =
        |x: &Node<Expression>| matches!(&x.node, Expression::Identifier(i) if i.node.name == j);
    match &e.node {
        Expression::UnaryOperator(u) => {
            matches!(
                u.node.operator.node,
                UnaryOperator::PostIncrement | UnaryOperator::PreIncrement
            ) && is_j(&u.node.operand)
        }
        Expression::BinaryOperator(b) => match b.node.operator.node {
            BinaryOperator::AssignPlus => is_j(&b.node.lhs) && constant(&b.node.rhs) == Some(1),
            BinaryOperator::Assign => {
                is_j(&b.node.lhs)
                    && matches!(&b.node.rhs.node, Expression::BinaryOperator(p)
                        if p.node.operator.node == BinaryOperator::Plus
                            && is_j(&p.node.lhs)
                            && constant(&p.node.rhs) == Some(1))
            }
            _ => false,
        },
        _ => false,
    }
}

impl Bounds<'_> {
    /// Is `x` a local of the function (no global, no parameter) whose address is never
    /// taken (but by `__CPROVER_havoc_object`)?
    fn local(&self, x: &str) -> bool {
        self.facts.declared.contains_key(x)
            && !self.globals.contains_key(x)
            && !self.params.iter().any(|p| p == x)
            && !self.facts.addressed.contains(x)
    }

    /// The range of the counter `j` started at `c0` or above inside the body of `w`
    /// (module doc).
    fn counter(&self, j: &str, c0: i64, w: &WhileStatement) -> Option<(i64, Bound)> {
        let Expression::BinaryOperator(c) = &w.expression.node else {
            return None;
        };
        let is_j = matches!(&c.node.lhs.node, Expression::Identifier(i) if i.node.name == j);
        let end = self.bound_of(&c.node.rhs);
        let hi = match c.node.operator.node {
            BinaryOperator::Less if is_j => end,
            BinaryOperator::LessOrEqual if is_j => end.shifted(1)?,
            _ => return None,
        };
        self.counted(j, w).then_some((c0, hi))
    }

    /// `e`'s value as a bound: a constant, `t + c` of a local with a root value
    /// (`super::values`), or below each branch of a minimum ([`super::window::branches`]).
    fn bound_of(&self, e: &Node<Expression>) -> Bound {
        let one = |x: &Node<Expression>| match self.value_of(x) {
            Some(v) => Bound::Const(v),
            None => super::invariant::name_offset(x)
                .and_then(|(t, k)| Some(Bound::of(self.root(t)?, k)))
                // At most the highest value of its range.
                .or_else(|| self.range(x)?.1.shifted(-1))
                .unwrap_or(Bound::Unknown),
        };
        let branches = super::window::branches(e, Extreme::Min);
        let mut bounds = branches
            .iter()
            .map(|x| one(x))
            .filter(|b| *b != Bound::Unknown);
        let first = bounds.next().unwrap_or(Bound::Unknown);
        bounds.fold(first, |a, b| Bound::Either(Box::new(a), Box::new(b)))
    }

    /// A lowest value of `e`: a constant, the low end of its range, or the greatest of
    /// those of a maximum's branches.
    fn low(&self, e: &Node<Expression>) -> Option<i64> {
        super::window::branches(e, Extreme::Max)
            .into_iter()
            .filter_map(|x| self.value_of(x).or_else(|| self.range(x).map(|(lo, _)| lo)))
            .max()
    }

    /// Narrows the ranges of the counters a test `x <= E`, `x < E`, `x >= E`, `x > E` (of
    /// a constant `E`, [`Self::value_of`]; conjuncts of `&&`) bounds, while it holds.
    /// Nothing writes a counter inside its loop's body but its last increment.
    fn guard(&mut self, c: &Node<Expression>) {
        let Expression::BinaryOperator(b) = &c.node else {
            return;
        };
        let op = b.node.operator.node.clone();
        if op == BinaryOperator::LogicalAnd {
            self.guard(&b.node.lhs);
            self.guard(&b.node.rhs);
            return;
        }
        let Some(x) = super::worksharing::name_of(&b.node.lhs) else {
            return;
        };
        let Some(v) = self.value_of(&b.node.rhs) else {
            return;
        };
        let Some((_, lo, hi)) = self.ranges.iter().rev().find(|(n, ..)| n == x).cloned() else {
            return;
        };
        let (lo, hi) = match op {
            BinaryOperator::LessOrEqual | BinaryOperator::Less => {
                let closed = i64::from(op == BinaryOperator::LessOrEqual);
                let Some(end) = v.checked_add(closed) else {
                    return;
                };
                (lo, Bound::Either(Box::new(hi), Box::new(Bound::Const(end))))
            }
            BinaryOperator::GreaterOrEqual => (lo.max(v), hi),
            BinaryOperator::Greater => (lo.max(v.saturating_add(1)), hi),
            _ => return,
        };
        self.ranges.push((x.to_string(), lo, hi));
    }

    /// Is `w`'s body one that only its last statement's `j++` moves `j` in (`j` a local
    /// whose address is never taken, not declared in the body, no `goto` entering it)?
    fn counted(&self, j: &str, w: &WhileStatement) -> bool {
        let Statement::Compound(items) = &w.statement.node else {
            return false;
        };
        if !self.local(j) || !items.last().is_some_and(|i| increments(i, j)) {
            return false;
        }
        let body = Body::of_statement(&w.statement, j);
        let entered = body.labels.iter().any(|l| {
            self.facts.gotos.get(l).copied().unwrap_or(0) != body.gotos.get(l).copied().unwrap_or(0)
        });
        body.writes == 1 && body.declarations == 0 && !entered
    }

    /// The range `[lo, hi)` of the counter `j` of `j = start; while (j < E) { … j++; }`
    /// (or `j <= E`) inside the body, as linear forms of locals (address never taken) that
    /// neither the body writes nor declares: their values at the loop's start are theirs
    /// throughout it (module doc).
    fn relative_counter(
        &self,
        j: &str,
        start: &Node<Expression>,
        w: &WhileStatement,
    ) -> Option<(Vec<Linear>, Vec<Linear>)> {
        let Expression::BinaryOperator(c) = &w.expression.node else {
            return None;
        };
        if super::worksharing::name_of(&c.node.lhs) != Some(j) {
            return None;
        }
        let closed = match c.node.operator.node {
            BinaryOperator::Less => 0,
            BinaryOperator::LessOrEqual => 1,
            _ => return None,
        };
        let fixed = |f: &Linear| {
            f.0.keys().all(|n| {
                let body = Body::of_statement(&w.statement, n);
                n != j && self.local(n) && body.writes == 0 && body.declarations == 0
            })
        };
        // Each branch of a maximum start is a lowest value, of a minimum end a bound.
        // A constant value, or a linear form.
        let form = |e: &Node<Expression>| match self.value_of(e) {
            Some(v) => Some((Default::default(), v)),
            None => linear(e),
        };
        let lows: Vec<Linear> = super::window::branches(start, Extreme::Max)
            .into_iter()
            .filter_map(form)
            .filter(fixed)
            .collect();
        let highs: Vec<Linear> = super::window::branches(&c.node.rhs, Extreme::Min)
            .into_iter()
            .filter_map(|e| {
                let (names, h) = form(e)?;
                Some((names, h.checked_add(closed)?))
            })
            .filter(fixed)
            .collect();
        let found = !lows.is_empty() && !highs.is_empty();
        (found && self.counted(j, w)).then_some((lows, highs))
    }

    /// The window step of the index `e` = `j + c` of a relative counter `j` whose bounds
    /// are `α·i + l` and `α·i + h + 1` of an enclosing claim loop's variable `i`
    /// ([`super::window`]).
    fn window_of(&self, e: &Node<Expression>) -> Option<Step> {
        let (names, c) = linear(e)?;
        let [(j, 1)] = names.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let (_, lows, highs) = self.relative.iter().rev().find(|(n, ..)| n == j)?;
        for (i, id, signed) in self.claim_vars.iter().rev() {
            // `α·i + l` (α, l), or a constant `l` (no α).
            let of_i = |f: &Linear| match f.0.iter().collect::<Vec<_>>()[..] {
                [(n, a)] if n == i && *a > 0 && (*a == 1 || *signed) => Some((Some(*a), f.1)),
                [] => Some((None, f.1)),
                _ => None,
            };
            // The range of `i` here: a constant `C` is `α·i + (C - α·max)` at least, and
            // `α·i + (C - α·min)` at most.
            let range = self.ranges.iter().rev().find(|(n, ..)| n == i);
            let least = range.map(|(_, lo, _)| *lo);
            let most = range.and_then(|(_, _, hi)| hi.constant()?.checked_sub(1));
            let at = |(a, k): (Option<i64>, i64), alpha: i64, ext: Option<i64>| match a {
                Some(_) => Some(k),
                None => k.checked_sub(alpha.checked_mul(ext?)?),
            };
            let (lows, highs): (Vec<_>, Vec<_>) = (
                lows.iter().filter_map(of_i).collect(),
                highs.iter().filter_map(of_i).collect(),
            );
            // Each α of a bound's form: the greatest lowest value and the least end.
            let alphas = lows.iter().chain(&highs).filter_map(|(a, _)| *a);
            let windows = alphas.filter_map(|alpha| {
                let l = lows
                    .iter()
                    .filter(|(a, _)| a.is_none_or(|a| a == alpha))
                    .filter_map(|&f| at(f, alpha, most))
                    .max()?;
                let h = highs
                    .iter()
                    .filter(|(a, _)| a.is_none_or(|a| a == alpha))
                    .filter_map(|&f| at(f, alpha, least))
                    .min()?;
                let lo = l.checked_add(c)?;
                let hi = h.checked_sub(1)?.checked_add(c)?;
                // The room α leaves beyond the window's span: the more, the more apart.
                let room = alpha.checked_sub(hi.checked_sub(lo)?)?;
                Some((room, Step::Window(*id, alpha, lo, hi)))
            });
            if let Some((_, w)) = windows.max_by_key(|(room, _)| *room) {
                return Some(w);
            }
        }
        None
    }

    /// The constant range `[lo, hi)` of `j + E` of the innermost relative counter `j`
    /// whose bounds' names `E` cancels.
    fn relative_range(&self, e: &Node<Expression>) -> Option<(i64, i64)> {
        let (names, b) = linear(e)?;
        for (j, lows, highs) in self.relative.iter().rev() {
            if names.get(j) != Some(&1) {
                continue;
            }
            let mut rest = names.clone();
            rest.remove(j);
            // The greatest constant lowest value and the least constant bound.
            let constant = |f: &Linear| {
                let g = add(f.clone(), (rest.clone(), b), 1)?;
                g.0.is_empty().then_some(g.1)
            };
            let l = lows.iter().filter_map(constant).max();
            let h = highs.iter().filter_map(constant).min();
            if let (Some(l), Some(h)) = (l, h) {
                return Some((l, h));
            }
        }
        None
    }

    /// `x = lb + c / D % N * s;` ([`super::collapse::digit`]) with `c` known not negative,
    /// `x` a local whose address is never taken and which the `rest` of the block neither
    /// writes nor declares, in a block without labels: `x` and its range.
    fn digit<'i>(
        &self,
        item: &'i Node<BlockItem>,
        rest: &[Node<BlockItem>],
    ) -> Option<(&'i str, i64, Bound)> {
        let (x, e) = super::worksharing::assignment(item)?;
        // `c / D % N` of a constant `D > 0` and `N` the lowering's count of a loop from 0
        // to a name `E`: `[0, E)` (empty when `N` is 0), `E`'s root as the bound.
        let counted = || {
            let d = super::collapse::counted(e)?;
            let positive = super::collapse::widened(d.d).is_some_and(|v| v > 0);
            let e = super::collapse::count_of(d.n).filter(|_| positive)?;
            Some((d.c, 0, Bound::of(self.root(e)?, 0)))
        };
        let (c, lo, hi) = match super::collapse::digit(e) {
            Some(d) => {
                let (lo, hi) = d.range()?;
                (d.c, lo, Bound::Const(hi))
            }
            None => counted()?,
        };
        let known = self.ranges.iter().rev().find(|(n, _, _)| n == c);
        if known.is_none_or(|(_, lo, _)| *lo < 0) || !self.local(x) {
            return None;
        }
        let body = Body::of(rest, x);
        if body.writes > 0 || body.declarations > 0 || !body.labels.is_empty() {
            return None;
        }
        Some((x, lo, hi))
    }

    /// The value of a constant expression of literals, constant globals ([`Self::known`])
    /// and locals whose root value is a constant ([`Roots::constant_of`]).
    fn value_of(&self, e: &Node<Expression>) -> Option<i64> {
        let (roots, items, uses) = self.roots;
        match uses {
            Some(u) => roots.constant_of((items, u, self.params), e, self.known),
            None => super::alias::value_in(e, &ladr_c::syntax::constant::Env::values(self.known)),
        }
    }

    /// The root value local `t` of the function has ([`super::values`]).
    fn root(&self, t: &str) -> Option<Value> {
        let (roots, items, uses) = self.roots;
        roots.of_local(items, uses?, self.params, t)
    }

    fn range(&self, e: &Node<Expression>) -> Option<(i64, Bound)> {
        if let Some(c) = const_value(e) {
            return Some((c, Bound::Const(c.checked_add(1)?)));
        }
        match &e.node {
            Expression::Identifier(i) => self
                .ranges
                .iter()
                .rev()
                .find(|(n, _, _)| *n == i.node.name)
                .map(|(_, lo, hi)| (*lo, hi.clone())),
            Expression::BinaryOperator(b) => {
                let op = b.node.operator.node.clone();
                // A constant, or a local whose one value is one.
                let known = |x: &Node<Expression>| const_value(x).or_else(|| self.value_of(x));
                if let Some(c) = known(&b.node.lhs) {
                    let (lo, hi) = self.range(&b.node.rhs)?;
                    return match op {
                        BinaryOperator::Plus => Some((lo.checked_add(c)?, hi.shifted(c)?)),
                        // `c - e`, `e` in `[lo, h)`: `[c - h + 1, c - lo]`.
                        BinaryOperator::Minus => Some((
                            c.checked_sub(hi.constant()?)?.checked_add(1)?,
                            Bound::Const(c.checked_sub(lo)?.checked_add(1)?),
                        )),
                        BinaryOperator::Multiply => scaled(lo, &hi, c),
                        _ => None,
                    };
                }
                if op == BinaryOperator::Multiply {
                    let (lo, hi) = self.range(&b.node.lhs)?;
                    return scaled(lo, &hi, known(&b.node.rhs)?);
                }
                let (lo, hi) = match op {
                    BinaryOperator::Plus | BinaryOperator::Minus => self.range(&b.node.lhs)?,
                    _ => return None,
                };
                let c = known(&b.node.rhs)?;
                let c = if b.node.operator.node == BinaryOperator::Minus {
                    c.checked_neg()?
                } else {
                    c
                };
                Some((lo.checked_add(c)?, hi.shifted(c)?))
            }
            _ => None,
        }
    }

    /// The dimensions 1… of the array `x` names, constants or root values (`None`: one
    /// not known).
    fn dims(&self, x: &str) -> Vec<Option<Dim>> {
        let local = self.facts.declared.get(x);
        let d = match local.map(Vec::as_slice) {
            Some([d]) => d,
            Some(_) => return vec![],
            None => match self.globals.get(x).map(Vec::as_slice) {
                Some([d]) => d,
                _ => return vec![],
            },
        };
        super::alias::rows(d)
            .unwrap_or(&[])
            .iter()
            .map(|x| match &x.node {
                DerivedDeclarator::Array(a) => match &a.node.size {
                    ArraySize::VariableExpression(e) => match const_value(e) {
                        Some(c) => Some(Dim::Const(c)),
                        None => super::worksharing::name_of(e)
                            .and_then(|t| self.root(t))
                            .map(|v| match v {
                                Value::Const(c) => Dim::Const(c),
                                Value::Name(r) => Dim::Sym(r),
                            }),
                    },
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }

    /// Marks the in-bounds indices of the chain `x[e0]…[ek]` that is `e`.
    fn chain(&mut self, e: &Node<Expression>) {
        let (base, indices) = index_chain(e);
        let Expression::Identifier(x) = &base.node else {
            return;
        };
        for i in &indices {
            if let Some(step) = self.window_of(i) {
                let node: &Node<Expression> = i;
                self.windows
                    .insert(node as *const Node<Expression> as usize, step);
            }
        }
        let dims = self.dims(&x.node.name);
        for (k, i) in indices.iter().enumerate().skip(1) {
            // A dimension not known is at least 1 (C11 6.7.6.2p5): index 0 is within it.
            let d = dims.get(k - 1).cloned().flatten().unwrap_or(Dim::Const(1));
            let within = |(lo, hi): (i64, Bound)| lo >= 0 && hi.within(&d);
            let relative = || {
                self.relative_range(i)
                    .map(|(lo, hi)| (lo, Bound::Const(hi)))
            };
            if self.range(i).is_some_and(within) || relative().is_some_and(within) {
                let node: &Node<Expression> = i;
                self.out.insert(node as *const Node<Expression> as usize);
            }
        }
    }
}

impl Visitor for Bounds<'_> {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        if matches!(&e.node, Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index)
        {
            self.chain(e);
        }
        Ok(Walk::Descend)
    }
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        if let Statement::If(t) = &s.node {
            // The ranges the test narrows, in the `then` branch.
            let _ = visit::expr(self, &t.node.condition);
            let depth = self.ranges.len();
            self.guard(&t.node.condition);
            let _ = visit::stmt(self, &t.node.then_statement);
            self.ranges.truncate(depth);
            if let Some(e) = &t.node.else_statement {
                let _ = visit::stmt(self, e);
            }
            return Ok(Walk::Skip);
        }
        let Statement::Compound(items) = &s.node else {
            return Ok(Walk::Descend);
        };
        let (depth, claims) = (self.ranges.len(), self.claim_vars.len());
        for (k, item) in items.iter().enumerate() {
            let looped = match &item.node {
                BlockItem::Statement(w) => match &w.node {
                    Statement::While(w) => k
                        .checked_sub(1)
                        .and_then(|p| counter_start(&items[p]))
                        .map(|(j, c0)| (j, c0, w)),
                    _ => None,
                },
                _ => None,
            };
            let ranged = looped.and_then(|(j, c0, w)| {
                let constant = self.low(c0).and_then(|c0| self.counter(j, c0, &w.node));
                let relative = self.relative_counter(j, c0, &w.node);
                (constant.is_some() || relative.is_some()).then_some((j, constant, relative, w))
            });
            match ranged {
                Some((j, constant, relative, w)) => {
                    let _ = visit::expr(self, &w.node.expression);
                    let (ranges, relatives) = (self.ranges.len(), self.relative.len());
                    if let Some((lo, hi)) = constant {
                        self.ranges.push((j.to_string(), lo, hi));
                    }
                    if let Some((lo, hi)) = relative {
                        self.relative.push((j.to_string(), lo, hi));
                    }
                    let _ = visit::stmt(self, &w.node.statement);
                    self.ranges.truncate(ranges);
                    self.relative.truncate(relatives);
                }
                None => {
                    let _ = visit::block_item(self, item);
                }
            }
            // A claim loop's exit test: its variable's range for the rest of the body.
            if let Some(c) = self.claims.get(&(item as *const Node<BlockItem> as usize)) {
                let hi = match &c.end {
                    ClaimEnd::Const(hi) => Some(Bound::Const(*hi)),
                    ClaimEnd::Name(n, k) => self.root(n).map(|v| Bound::of(v, *k)),
                    // A collapsed counter below a product: not negative is what its digits
                    // need; no row's length is a product.
                    ClaimEnd::Product(..) => Some(Bound::Unknown),
                    // An end of constant value ([`Self::value_of`]).
                    ClaimEnd::Unknown => Some(
                        super::exit_test::tested_end(item)
                            .and_then(|(_, e, closed)| self.value_of(e)?.checked_add(closed))
                            .map_or(Bound::Unknown, Bound::Const),
                    ),
                };
                if let Some(hi) = hi {
                    self.ranges.push((c.var.clone(), c.lo, hi));
                }
                self.claim_vars.push((c.var.clone(), c.id, c.signed));
            }
            // A collapsed loop's digit: its range for the rest of the block.
            if let Some((x, lo, hi)) = self.digit(item, &items[k + 1..]) {
                self.ranges.push((x.to_string(), lo, hi));
            }
        }
        self.ranges.truncate(depth);
        self.claim_vars.truncate(claims);
        Ok(Walk::Skip)
    }
}

/// Any label?
pub(super) struct Labels(pub bool);

impl Visitor for Labels {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        self.0 |= matches!(s.node, Statement::Labeled(_));
        Ok(Walk::Descend)
    }
}

/// Is the counter `c` never negative: declared without initialiser (0), and written, but
/// by `c = 0`, by exactly one `c = x + 1` (its claim's, `x` at least `c`)?
pub(super) fn counter_from_zero(unit: &TranslationUnit, c: &str) -> bool {
    struct W<'n>(&'n str, usize, bool);
    impl Visitor for W<'_> {
        type Error = Infallible;
        const UNEVALUATED: bool = true;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
            if let Expression::BinaryOperator(b) = &e.node {
                if is_assign_op(&b.node.operator.node)
                    && super::worksharing::name_of(&b.node.lhs) == Some(self.0)
                {
                    let zero = b.node.operator.node == BinaryOperator::Assign
                        && constant(&b.node.rhs) == Some(0);
                    self.1 += usize::from(!zero);
                }
            }
            Ok(Walk::Descend)
        }
        fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
            for x in &d.node.declarators {
                let name = ladr_c::syntax::build::declarator_name(&x.node.declarator.node);
                self.2 |= name == Some(self.0) && x.node.initializer.is_some();
            }
            Ok(Walk::Descend)
        }
    }
    let mut w = W(c, 0, false);
    let _ = visit::unit(&mut w, unit);
    w.1 == 1 && !w.2
}

impl<'a> super::scan::Scan<'_, 'a> {
    /// Where `path` (with its index expressions `indices`, in order) must end so that it
    /// names no element apart by an index that later indices of its array may move out of
    /// its row: at the start of the first run of consecutive indices one of whose later
    /// indices is not known in bounds ([`super::bounds`]).
    pub(super) fn rows_cut(&self, path: &Path, indices: &[&'a Node<Expression>]) -> usize {
        let mut k = 0;
        let mut run_start = None;
        for (at, step) in path.iter().enumerate() {
            if !matches!(step, Step::Index(_)) {
                run_start = None;
                continue;
            }
            let Some(i) = indices.get(k) else {
                return run_start.unwrap_or(at);
            };
            k += 1;
            match run_start {
                None => run_start = Some(at),
                Some(start) => {
                    if !self
                        .decls
                        .in_bounds
                        .contains(&(*i as *const Node<Expression> as usize))
                    {
                        return start;
                    }
                }
            }
        }
        path.len()
    }
}
