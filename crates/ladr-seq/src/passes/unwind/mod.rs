//! `unwind` — make every function loop-free: each `while` loop and each backward `goto`
//! region is copied a bounded number of times.
//!
//! ```text
//! while (c) S          ──U=2──▶   if (c) { S1; if (c) { S2; __CPROVER_assume(!(c)); } }
//!
//! L: A; if (b) goto L; B;   ──U=2──▶   L: A1; if (b) goto L2; B1; goto E;
//!                                      L2: A2; if (b) __CPROVER_assume(0); B2; E: ;
//! ```
//!
//! * Each copy gets fresh labels (gotos inside it retargeted) and fresh names for the locals
//!   declared inside it ([`Names::local`]), so every copy is a distinct object. A `break`
//!   label lies after the loop and is kept once; a `continue` label is inside S and copied.
//! * The `assume` after the last copy is a [`CutKind::Loop`] cut. Loops with a constant
//!   bound (`i = c0; while (i < c1) { …; i++; }`, `i` a local written nowhere else in the
//!   body and never address-taken) of at most `max_unwind` iterations are unwound exactly
//!   and need no cut — a nest of them while their iterations together stay within
//!   `max_unwind` (`Unwinder::within_nest`: beyond, the outer loops are cut). The same shape with a global or address-taken `i` gets that many
//!   copies too, but keeps its cut (another thread may change `i`).
//! * A loop that only waits (`wait`: a condition that only reads, a body that only waits or
//!   reads: `while (!flag);`, `while (!ready) pthread_cond_wait(&cv, &m);`) is one copy with
//!   its exit condition assumed, and no cut: the unwinding is not spent on it.
//! * A backward `goto L` is handled when `L` labels an item of a block that also contains
//!   (at any depth) the gotos: the items from `L` to the last such goto are copied U times;
//!   in copy k `goto L` jumps to the start of copy k+1, in the last copy it becomes
//!   `__CPROVER_assume(0);` (a loop cut). Declarations at the top of the region move before
//!   it. When `L` is inside a block that does not hold the gotos (a loop built with `goto`
//!   across blocks: `{ L: … } if (c) goto L;`), the region runs from the item holding `L`
//!   to the last goto's, and copy k's `goto L` enters copy k+1 at its `L`, as C re-enters
//!   the block there ([`nested_backward_region`]); a forward goto to `L` before it in the
//!   region jumps to a second label on `L`'s statement, so it stays in its copy.
//!
//! Needs the normal form (N1: only `while`; N2: side-effect-free conditions) and `inline`
//! having removed calls and static locals. Guarantees (checked by
//! [`crate::invariants::check_bounded`]): no loops, no backward goto, no call of a function
//! with a body but of the kept ones (`Program::kept`, which have no loop to unwind).
//!
//! The pass by concern: this module walks each function and unwinds what it meets; `loops`
//! unwinds `while` loops (constant bounds, certain cuts, loops that fill an object);
//! `regions` the regions of backward `goto`s; `constants` finds the constant globals and
//! locals that bound loops; `prune` drops the code a certain cut makes
//! unreachable; `solo` turns a set-up loop of `main` that runs before any thread exists and
//! that the bounds would not copy whole (no constant bound up to `max_unwind`) into one step
//! that gives what it writes arbitrary values (sound: it only adds executions; no cut), or,
//! where it calls nothing and is small enough, into all its copies (exact).
//!
//! [`CutKind::Loop`]: ladr_ir::program::CutKind::Loop

mod constants;
mod loops;
mod prune;
mod regions;
mod sample;
mod solo;
mod wait;

use constants::{
    constant_globals, constant_locals, enumerator_values, foldable_globals, foldable_locals,
    locals_and_taken,
};
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use ladr_ir::program::{Cut, Options, Program};
use lang_c::ast::*;
use lang_c::span::Node;
use prune::prune;

/// Removes the statements of `s` that cannot run behind a certain cut (`assume(0)`), a
/// `goto` or a `return` ([`prune`], with no constant globals). `threads` runs it on each
/// slot's body: a `pthread_create` beyond `--max-threads` becomes `assume(0)`, and what
/// follows it (a loop's later copies creating more teams) is dead.
pub(crate) fn prune_dead(s: &mut Node<Statement>) {
    prune(s, &HashMap::new());
}
pub(crate) use constants::exact_globals;
use regions::{backward_goto, backward_region, nested_backward_region};
use std::collections::{HashMap, HashSet};

pub fn run(mut p: Program, opts: &Options) -> Result<Program> {
    let enumerators = enumerator_values(&p.unit);
    let globals = constant_globals(&p.unit, &enumerators);
    // The values a condition may be folded with: enumeration constants and constant globals.
    let mut foldable = foldable_globals(&p.unit, &globals);
    foldable.extend(enumerators.iter().map(|(n, v)| (n.clone(), *v)));
    let global_arrays = solo::global_array_dims(&p.unit);
    for ext in &mut p.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &mut ext.node {
            let (locals, taken) = locals_and_taken(&f.node);
            let consts = constant_locals(&f.node, &locals, &taken, &enumerators);
            let global_consts = globals
                .iter()
                .filter(|(g, _)| !locals.contains(*g))
                .map(|(g, v)| (g.clone(), *v))
                .collect();
            let is_main = declarator_name(&f.node.declarator.node) == Some("main");
            let backward = solo::backward_labels(&f.node.statement);
            let array_dims = solo::array_dims(&global_arrays, &f.node);
            let mut unwinder = Unwinder {
                names: &mut p.names,
                cuts: &mut p.cuts,
                summaries: &mut p.summaries,
                sample: opts.sample_loops,
                sampled: &mut p.sampled,
                unwind: opts.unwind.max(1) as usize,
                max_unwind: opts.max_unwind as i128,
                locals,
                taken,
                consts,
                global_consts,
                solo: is_main,
                array_dims,
                backward,
                kept: &p.kept,
            };
            unwinder.stmt(&mut f.node.statement)?;
            let mut known: HashMap<String, i128> = foldable
                .iter()
                .filter(|(g, _)| !unwinder.locals.contains(*g))
                .map(|(g, v)| (g.clone(), *v))
                .collect();
            known.extend(foldable_locals(&f.node, &unwinder.consts));
            prune(&mut f.node.statement, &known);
            if let Some((span, l)) = backward_goto(&f.node.statement) {
                return Err(Error::unsupported(
                    span,
                    format!("backward `goto {l}` (internal: not unwound)"),
                ));
            }
        }
    }
    Ok(p)
}

/// What [`Unwinder::constant_bound`] knows about a loop's trip count.
enum Bound {
    /// It runs this many times; `true`: exactly (a private counter), so no cut.
    Known(usize, bool),
    /// A private counter runs it more than `max_unwind` times.
    Beyond,
    /// A counter with constant bounds runs it more than `max_unwind` times, but another
    /// write might change it (a global counter, a bound assigned once): unwound as usual.
    Long,
}

/// The unwinding of one function's loops and backward `goto` regions.
struct Unwinder<'a> {
    names: &'a mut Names,
    cuts: &'a mut Vec<Cut>,
    /// The set-up loops made one step (`Program::summaries`).
    summaries: &'a mut Vec<lang_c::span::Span>,
    /// Loops run as one iteration (`sample`), counted (`Program::sampled`).
    sample: bool,
    sampled: &'a mut usize,
    unwind: usize,
    max_unwind: i128,
    /// Locals and parameters of the function.
    locals: HashSet<String>,
    /// Names whose address is taken in the function.
    taken: HashSet<String>,
    /// Private locals written exactly once in the function, by `x = constant`.
    consts: HashMap<String, i128>,
    /// The program's constant globals (`constant_globals`) no local of the function shadows.
    global_consts: HashMap<String, i128>,
    /// Walking `main` before any thread can exist (`solo`): set-up loops are one step.
    solo: bool,
    /// Variables declared as arrays, with their dimensions (`solo::array_dims`).
    array_dims: HashMap<String, usize>,
    /// Labels a later `goto` jumps back to (`solo::backward_labels`).
    backward: HashSet<String>,
    /// The kept functions (not inlined: they may create threads).
    kept: &'a std::collections::BTreeSet<String>,
}

impl Unwinder<'_> {
    /// A local of the function whose address is never taken: no other code can write it.
    fn is_private(&self, v: &str) -> bool {
        self.locals.contains(v) && !self.taken.contains(v)
    }

    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<()> {
        match &mut s.node {
            Statement::Compound(items) => self.block(items, None)?,
            Statement::If(i) => {
                self.stmt(&mut i.node.then_statement)?;
                if let Some(e) = &mut i.node.else_statement {
                    self.stmt(e)?;
                }
            }
            Statement::Labeled(l) => self.stmt(&mut l.node.statement)?,
            // A loop that only waits: one copy, its exit assumed, no cut (`wait`).
            Statement::While(w) if wait::is_wait_loop(w) => *s = self.unwind_while(s, 1, true),
            Statement::While(w) => {
                self.stmt(&mut w.node.statement)?;
                let n = self.unwind;
                *s = self.unwind_while(s, n, false);
            }
            Statement::DoWhile(_) | Statement::For(_) | Statement::Switch(_) => {
                return Err(Error::unsupported(
                    s.span,
                    "`do`/`for`/`switch` statement (not in normal form)",
                ))
            }
            _ => {}
        }
        Ok(())
    }

    /// `before`: the statement just before this block in its parent list (a loop that
    /// opens a block may still have a constant bound set up before the block).
    fn block(
        &mut self,
        items: &mut Vec<Node<BlockItem>>,
        before: Option<Node<Statement>>,
    ) -> Result<()> {
        for k in 0..items.len() {
            let prev = match k.checked_sub(1).map(|j| &items[j].node) {
                Some(BlockItem::Statement(p)) => Some(p.clone()),
                Some(_) => None,
                None => before.clone(),
            };
            let exact = match (&items[k].node, &prev) {
                (BlockItem::Statement(w), Some(prev)) => {
                    self.constant_bound(prev, w).map(|b| self.within_nest(b, w))
                }
                _ => None,
            };
            if self.solo && solo::ends_solo(&items[k], self.kept, &self.backward) {
                self.solo = false;
            }
            if let BlockItem::Statement(s) = &mut items[k].node {
                // A loop of `main` before any thread known to run more than `max_unwind`
                // times is one step (`solo`); the others keep their copies (a loop of
                // unknown bound still reaches the threads with few iterations).
                let long = matches!(exact, Some(Bound::Beyond | Bound::Long));
                let whole = match &prev {
                    Some(prev) if self.solo && long => self.solo_whole(prev, s),
                    _ => None,
                };
                if let Some((n, exact)) = whole {
                    // A set-up loop small enough to copy whole: exact (`solo`).
                    if let Statement::While(w) = &mut s.node {
                        self.stmt(&mut w.node.statement)?;
                    }
                    *s = self.unwind_flat(s, n, exact);
                    continue;
                }
                if let Some(step) = (self.solo && long).then(|| self.setup_loop(s)).flatten() {
                    self.summaries.push(s.span);
                    *s = step;
                    continue;
                }
                if let Some((guard, fast)) = self.fill_loop(s) {
                    // The loop stays, unwound as usual, for the case the fast path excludes.
                    let slow = self.unwind_while(s, self.unwind, false);
                    *s = if_stmt(guard, fast, Some(slow), s.span);
                    continue;
                }
                // A loop copies would cut, outside the set-up: one iteration, any (`sample`).
                if self.sample && !self.solo && !matches!(exact, Some(Bound::Known(..))) {
                    if let Some(step) = self.sample_loop(s)? {
                        *self.sampled += 1;
                        self.summaries.push(s.span);
                        *s = step;
                        continue;
                    }
                }
                match (exact, &mut s.node) {
                    (Some(Bound::Known(n, exact)), Statement::While(w)) => {
                        self.stmt(&mut w.node.statement)?;
                        *s = self.unwind_while(s, n, exact);
                    }
                    (Some(Bound::Beyond), Statement::While(w)) => {
                        self.stmt(&mut w.node.statement)?;
                        *s = self.unwind_certain_cut(s);
                    }
                    (_, Statement::Compound(inner)) => self.block(inner, prev)?,
                    _ => self.stmt(s)?,
                }
            }
        }
        while let Some((pos, label, last, front)) = backward_region(items)
            .map(|(p, l, j)| (p, l, j, true))
            .or_else(|| nested_backward_region(items).map(|(p, l, j)| (p, l, j, false)))
        {
            self.unwind_region(items, pos, &label, last, front);
        }
        Ok(())
    }
}
