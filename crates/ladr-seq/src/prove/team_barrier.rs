//! OpenMP team barriers (issue 31, `docs/decisions/static.md`, "OpenMP team barriers"):
//! the phases of a team routine's straight-line items. The OpenMP lowering
//! (`ladr_c::frontend::openmp`, `Lowering::barrier`) makes every barrier of a region,
//! explicit or implied by the end of a worksharing construct without `nowait`, the block
//! `if (OMP_TEAM_SIZE > 1) { …; pthread_barrier_wait(&OMP_BARRIER[phase]); … }`, whose
//! rounds each take the whole team (its count is the team's size, re-armed by the last
//! thread to arrive). Its names carry the reserved prefix, which no user program may spell
//! (the front end refuses it), so a block of that shape is one the lowering made.
//!
//! In a team routine `R` ([`super::worksharing::team_routines`]: each thread of a team runs
//! it once, the team's threads are all its instances of that team, and teams do not
//! overlap), the *straight-line items* are the block items reached from `R`'s body through
//! compound statements only. When
//!
//! * every `OMP_BARRIER` of every function but `main` lies in a straight-line barrier block
//!   of a team routine this rule accepts (no barrier in a loop, a branch, a called function:
//!   every thread of a team then passes the same barriers in the same order), and
//! * every `goto` of `R` jumps to a label of `R` in its own phase (none jumps over or back
//!   across a barrier),
//!
//! then a straight-line item's phase is the number of barrier blocks before it, everything
//! inside an item is in its phase, and two accesses `R` makes in different phases never
//! run in parallel: an access of phase `i` comes before its thread's barrier `i + 1`, whose
//! round completes only when every thread of the team has arrived at it, so before any of
//! them runs phase `i + 1` or later. A thread that leaves `R` early (`return`) or never
//! arrives keeps the round from completing: the later phases do not run at all. What
//! functions `R` calls and tasks and lanes it starts are other functions: not ordered here.
//!
//! **`single` blocks** ([`Single`]): a straight-line `single` of such an `R` with no
//! `goto` of `R` jumping back to an earlier straight-line item (a thread would take two
//! tickets) is run by at most one thread of each team, so two accesses in its block never
//! run in parallel.

use ladr_c::syntax::build::callee_name;
use ladr_c::syntax::names::{OMP_BARRIER, OMP_TEAM_SIZE};
use ladr_c::syntax::query::{for_each_expr, for_each_stmt, InExpressions, Operands};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// Where a straight-line item of a team routine lies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    /// Its phase (none: a barrier block, which spans two).
    pub phase: Option<usize>,
    /// The `single` construct whose block it is, by the address of its `if`.
    pub single: Option<usize>,
}

/// Can two accesses one team routine makes at these places not run in parallel? In two
/// phases, or in one `single` block (module doc).
pub fn ordered(a: Place, b: Place) -> bool {
    let phases = matches!((a.phase, b.phase), (Some(p), Some(q)) if p != q);
    phases || (a.single.is_some() && a.single == b.single)
}

/// The place of each straight-line item of the team routines the rule accepts, by the
/// item's address (module doc).
pub fn places(
    unit: &TranslationUnit,
    bodies: &HashMap<String, &FunctionDefinition>,
    team: &HashSet<String>,
) -> HashMap<usize, Place> {
    let mut out = HashMap::new();
    let mut accepted = 0;
    let mut routines: Vec<&String> = team.iter().collect();
    routines.sort();
    for r in routines {
        let Some(f) = bodies.get(r.as_str()) else {
            continue;
        };
        let Statement::Compound(items) = &f.statement.node else {
            continue;
        };
        let mut walk = Straight::default();
        walk.items(items);
        if walk.jumps_stay() {
            accepted += walk.barrier_names;
            let back = walk.jumps_back();
            let singles: HashSet<usize> = walk
                .singles
                .iter()
                .filter(|s| !back && single_holds(unit, f, s))
                .map(|s| s.at)
                .collect();
            for (at, mut place) in walk.items {
                place.single = place.single.filter(|s| singles.contains(s));
                out.insert(at, place);
            }
        }
    }
    let everywhere: usize = bodies
        .iter()
        .filter(|(name, _)| name.as_str() != "main")
        .map(|(_, f)| names(&f.statement, OMP_BARRIER))
        .sum();
    if everywhere != accepted {
        return HashMap::new();
    }
    out
}

/// A walk of a routine's straight-line items.
#[derive(Default)]
struct Straight {
    phase: usize,
    /// The `OMP_BARRIER`s in the barrier blocks.
    barrier_names: usize,
    items: HashMap<usize, Place>,
    singles: Vec<Single>,
    /// The ordinal of the leaf (non-compound) straight-line item being walked.
    leaf: usize,
    /// Each label's leaf and phase.
    labels: HashMap<String, (usize, usize)>,
    /// Each `goto`'s label, leaf and phase.
    gotos: Vec<(String, usize, usize)>,
}

impl Straight {
    fn items(&mut self, items: &[Node<BlockItem>]) {
        for (n, item) in items.iter().enumerate() {
            let at = item as *const _ as usize;
            let mut place = Place {
                phase: Some(self.phase),
                single: None,
            };
            if let BlockItem::Statement(s) = &item.node {
                if let Statement::Compound(inner) = &s.node {
                    self.items.insert(at, place);
                    self.items(inner);
                    continue;
                }
                if is_barrier_block(s) {
                    place.phase = None;
                    self.items.insert(at, place);
                    self.barrier_names += names(s, OMP_BARRIER);
                    self.phase += 1;
                    continue;
                }
                if let Some(single) = n.checked_sub(1).and_then(|p| single(&items[p], s, at)) {
                    place.single = Some(at);
                    self.singles.push(single);
                }
            }
            self.items.insert(at, place);
            let (leaf, phase) = (self.leaf, self.phase);
            self.leaf += 1;
            for_each_stmt(item, InExpressions::Enter, |s| match &s.node {
                Statement::Labeled(l) => {
                    if let Label::Identifier(i) = &l.node.label.node {
                        self.labels.insert(i.node.name.clone(), (leaf, phase));
                    }
                }
                Statement::Goto(l) => self.gotos.push((l.node.name.clone(), leaf, phase)),
                _ => {}
            });
        }
    }

    /// Does every `goto` jump to a label of the routine in its own phase?
    fn jumps_stay(&self) -> bool {
        self.gotos
            .iter()
            .all(|(l, _, p)| self.labels.get(l).is_some_and(|(_, q)| q == p))
    }

    /// Does a `goto` jump back to an earlier straight-line item (which could take a
    /// `single`'s ticket twice)?
    fn jumps_back(&self) -> bool {
        self.gotos
            .iter()
            .any(|(l, leaf, _)| self.labels.get(l).is_none_or(|(to, _)| to < leaf))
    }
}

/// Is `s` the lowering's barrier block `if (… OMP_TEAM_SIZE …) { … pthread_barrier_wait(…
/// OMP_BARRIER …); … }`, with no `else`?
fn is_barrier_block(s: &Node<Statement>) -> bool {
    let Statement::If(i) = &s.node else {
        return false;
    };
    let mut waits = false;
    for_each_expr(&*i.node.then_statement, Operands::All, |e| {
        if let Expression::Call(c) = &e.node {
            if callee_name(&c.node) == Some("pthread_barrier_wait")
                && c.node.arguments.iter().any(|a| names(a, OMP_BARRIER) > 0)
            {
                waits = true;
            }
        }
    });
    i.node.else_statement.is_none() && names(&*i.node.condition, OMP_TEAM_SIZE) > 0 && waits
}

/// A `single` block as the lowering makes it (`Lowering::single`): the straight-line
/// items `{ atomic_begin(); T = C; C = C + 1; if (C == OMP_TEAM_SIZE) C = 0; atomic_end(); }`
/// and `if (T == 0) S` with no `else`. Each thread of a team takes one ticket `T` from the
/// counter `C`, which only this section touches and which is reset when it reaches the
/// team's size: a ticket 0 follows a reset or the first take at 0, and two of them are
/// `N + 1` takes apart, so of a team's `N` threads, each taking once, at most one runs
/// `S`.
struct Single {
    /// The address of the `if`'s item.
    at: usize,
    counter: String,
    ticket: String,
}

/// `previous` and `s` (at `at`) as a [`Single`], by their shape.
fn single(previous: &Node<BlockItem>, s: &Node<Statement>, at: usize) -> Option<Single> {
    let Statement::If(i) = &s.node else {
        return None;
    };
    let Expression::BinaryOperator(test) = &i.node.condition.node else {
        return None;
    };
    let ticket = super::worksharing::name_of(&test.node.lhs)?;
    let zero = super::worksharing::constant(&test.node.rhs) == Some(0);
    if test.node.operator.node != BinaryOperator::Equals || !zero || i.node.else_statement.is_some()
    {
        return None;
    }
    let BlockItem::Statement(section) = &previous.node else {
        return None;
    };
    let Statement::Compound(section) = &section.node else {
        return None;
    };
    let plain =
        |k: usize| super::worksharing::plain_call(section.get(k)?).and_then(|c| callee_name(c));
    let statements: Vec<&Node<Statement>> = section
        .iter()
        .filter_map(|x| match &x.node {
            BlockItem::Statement(s) => Some(s),
            _ => None,
        })
        .collect();
    if section.len() != 5
        || statements.len() != 5
        || plain(0) != Some(ladr_ir::abi::ATOMIC_BEGIN)
        || plain(4) != Some(ladr_ir::abi::ATOMIC_END)
    {
        return None;
    }
    let (t, c) = super::worksharing::assignment(&section[1])?;
    let counter = super::worksharing::name_of(c)?;
    let (c1, plus) = super::worksharing::assignment(&section[2])?;
    let incremented = matches!(&plus.node, Expression::BinaryOperator(b)
        if b.node.operator.node == BinaryOperator::Plus
            && super::worksharing::name_of(&b.node.lhs) == Some(counter)
            && super::worksharing::constant(&b.node.rhs) == Some(1));
    let Statement::If(reset) = &statements[3].node else {
        return None;
    };
    let reset_ok = matches!(&reset.node.condition.node, Expression::BinaryOperator(b)
        if b.node.operator.node == BinaryOperator::Equals
            && super::worksharing::name_of(&b.node.lhs) == Some(counter)
            && super::worksharing::name_of(&b.node.rhs) == Some(OMP_TEAM_SIZE))
        && reset.node.else_statement.is_none()
        && matches!(&reset.node.then_statement.node, Statement::Expression(Some(e))
            if matches!(&e.node, Expression::BinaryOperator(b)
                if b.node.operator.node == BinaryOperator::Assign
                    && super::worksharing::name_of(&b.node.lhs) == Some(counter)
                    && super::worksharing::constant(&b.node.rhs) == Some(0)));
    (t == ticket && c1 == counter && incremented && reset_ok && ticket != counter).then(|| Single {
        at,
        counter: counter.to_string(),
        ticket: ticket.to_string(),
    })
}

/// Does the [`Single`] of routine `f` hold: its counter a file-scope object no thread has
/// its own copy of (not thread-local, declared nowhere else), named only in its section
/// (5 times: nothing else reads, writes or takes its address); its ticket declared once
/// in `f`, named only by its declaration's havoc, the take and the test?
fn single_holds(unit: &TranslationUnit, f: &FunctionDefinition, s: &Single) -> bool {
    let mut file_scope = 0;
    let mut shared = true;
    for e in &unit.0 {
        if let ExternalDeclaration::Declaration(d) = &e.node {
            let declares = d.node.declarators.iter().any(|x| {
                ladr_c::syntax::build::declarator_name(&x.node.declarator.node)
                    == Some(s.counter.as_str())
            });
            if declares {
                file_scope += 1;
                shared &= !d.node.specifiers.iter().any(|x| {
                    matches!(&x.node, DeclarationSpecifier::StorageClass(c)
                        if matches!(c.node, StorageClassSpecifier::ThreadLocal | StorageClassSpecifier::Typedef))
                });
            }
        }
    }
    let declared = |name: &str| {
        let mut n = 0;
        for e in &unit.0 {
            if let ExternalDeclaration::FunctionDefinition(g) = &e.node {
                n += declarations(&g.node.statement, name);
            }
        }
        n
    };
    file_scope >= 1
        && shared
        && declared(&s.counter) == 0
        && names(unit, &s.counter) == 5
        && declarations(&f.statement, &s.ticket) == 1
        && names(&f.statement, &s.ticket) == 3
        && super::worksharing::havocs(&f.statement, &s.ticket) == 1
}

/// How many times `node` names `name` in an expression.
fn names(node: &(impl ladr_c::syntax::query::Walkable + ?Sized), name: &str) -> usize {
    let mut n = 0;
    for_each_expr(node, Operands::All, |e| {
        n += usize::from(matches!(&e.node, Expression::Identifier(i) if i.node.name == name));
    });
    n
}

/// How many declarators of `s` declare `name`.
fn declarations(s: &Node<Statement>, name: &str) -> usize {
    super::bounds::Body::of_statement(s, name).declarations
}
