//! Doacross loops: `for ordered(n)` with stand-alone `ordered depend(sink: v)` and
//! `ordered depend(source)` (also spelled `doacross(sink: v)`, `doacross(source:)`).
//!
//! The `n` loops of the nest have constant bounds and steps (else refused), so each
//! iteration has a number `lin = Σ idx_d · D_d` in a constant space (row-major over the
//! nest, at most [`MAX_ITERATIONS`]). Each loop has an internal array `posted` of that
//! size and an `epoch`:
//!
//! ```text
//! ordered depend(source)     atomic { posted[lin(i, j)] = epoch + 1; }
//! ordered depend(sink: v)    atomic { assume(!in_space(v) || posted[lin(v)] == epoch + 1); }
//! ```
//!
//! A sink waits (as the model's mutex does) until the iteration it names has passed its
//! source in this encounter of the loop; a sink naming an iteration outside the space
//! waits for nothing, as OpenMP says. The last thread out of the loop (the worksharing
//! loop's re-arm, [`super::work`]) increments `epoch`, so the marks of one encounter mean
//! nothing in the next. The worksharing loop does not skip (`Construct::claims_in_order`):
//! a thread that skipped to iteration `k` could never pass a sink on `k - 1`, which no
//! thread would claim, so the late iterations are reached only through the earlier ones
//! and a "no race" whose bounds cut the loop is "unknown" (docs/openmp.md).
//!
//! Refused: a nest whose loops' bounds or steps are not constants, `collapse` with
//! `ordered(n)`, a body that may skip its source (`continue`, `goto`, `return`, the source
//! under control flow or missing, or two of them), a sink vector that does not name an
//! iteration lexicographically before the current one (its wait could never end), and
//! `ordered` regions in a doacross loop.

use super::directive::{Clause, Directive};
use super::loops::{long, perfect_nest};
use super::lower::{atomic_section, dspan, fail, Lowering, R};
use super::work::constant_trip;
use crate::syntax::build::*;
use crate::syntax::constant::{value, Env};
use crate::syntax::names;
use crate::syntax::query::{any_stmt, InExpressions};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// The largest iteration space of a doacross nest (the size of its `posted` array).
pub const MAX_ITERATIONS: u64 = 1 << 20;

/// One loop of a doacross nest: `for (var = lb; …; var += step)`, `trip` iterations.
#[derive(Clone, Debug)]
pub struct Dim {
    pub var: String,
    pub lb: i64,
    pub step: i64,
    pub trip: i64,
}

/// A `for ordered(n)` nest and its internal objects.
#[derive(Clone, Debug)]
pub struct Nest {
    pub dims: Vec<Dim>,
    pub posted: String,
    pub epoch: String,
    /// The innermost body, a block: where its sinks and its source must be.
    pub body: (usize, usize),
}

/// `depend(sink: …)` / `depend(source)` of a stand-alone `ordered`.
enum Dependence {
    Source,
    Sink(Vec<i64>),
}

/// Whether stand-alone directive `d` is a doacross `ordered`.
pub fn is_doacross(d: &Directive) -> bool {
    d.is(&["ordered"]) && d.clauses.iter().any(is_dependence)
}

fn is_dependence(c: &Clause) -> bool {
    c.name == "depend" || c.name == "doacross"
}

/// `depend(kind: rest)`: `kind` and `rest`, trimmed.
fn kind_of(c: &Clause) -> (&str, &str) {
    let args = c.args.as_deref().unwrap_or("").trim();
    let (kind, rest) = args.split_once(':').unwrap_or((args, ""));
    (kind.trim(), rest.trim())
}

fn dependences(d: &Directive, dims: &[Dim]) -> R<Vec<Dependence>> {
    let mut out = vec![];
    for c in &d.clauses {
        if !is_dependence(c) {
            return fail(
                d,
                format!("the clause `{}` on a doacross `ordered`", c.name),
            );
        }
        let args = c.args.as_deref().unwrap_or("").trim();
        match kind_of(c) {
            ("source", "" | "omp_cur_iteration") => out.push(Dependence::Source),
            ("sink", vector) => out.push(Dependence::Sink(sink_vector(d, vector, dims)?)),
            _ => return fail(d, format!("`{}({args})` on a doacross `ordered`", c.name)),
        }
    }
    Ok(out)
}

/// The offsets of sink vector `v` (`i - 1, j`), one per loop of the nest, in order; the
/// iteration named must come before the current one.
fn sink_vector(d: &Directive, v: &str, dims: &[Dim]) -> R<Vec<i64>> {
    let parts: Vec<&str> = v.split(',').map(str::trim).collect();
    if parts.len() != dims.len() {
        return fail(
            d,
            format!(
                "a sink vector of {} elements for a nest of {} loops",
                parts.len(),
                dims.len()
            ),
        );
    }
    let mut offsets = vec![];
    for (p, dim) in parts.iter().zip(dims) {
        let rest = p.strip_prefix(dim.var.as_str()).map(str::trim);
        let off = match rest {
            Some("") => Some(0),
            Some(r) => {
                let (sign, digits) = r.split_at(1);
                let n = digits.trim().parse::<i64>().ok();
                match sign {
                    "+" => n,
                    "-" => n.map(|n| -n),
                    _ => None,
                }
            }
            None => None,
        };
        let Some(off) = off else {
            return fail(
                d,
                format!(
                    "the sink vector element `{p}` (expected `{} ± constant`)",
                    dim.var
                ),
            );
        };
        offsets.push(off);
    }
    // The first loop that moves decides: a step back in that loop's direction.
    let first = offsets.iter().zip(dims).find(|(o, _)| **o != 0);
    match first {
        Some((o, dim)) if (*o < 0) == (dim.step > 0) => Ok(offsets),
        _ => fail(
            d,
            "a sink vector that does not name an earlier iteration (its wait would never end)",
        ),
    }
}

fn constant(v: i64, span: Span) -> Node<Expression> {
    let n = long(int(v.unsigned_abs(), span), span);
    if v < 0 {
        unop(UnaryOperator::Minus, n, span)
    } else {
        n
    }
}

impl Nest {
    /// `(long)var + off - lb` of loop `d`: the distance from its first iteration.
    fn distance(&self, d: usize, off: i64, span: Span) -> Node<Expression> {
        let dim = &self.dims[d];
        let var = long(ident(&dim.var, span), span);
        match off.checked_sub(dim.lb) {
            Some(0) => var,
            Some(c) => binop(BinaryOperator::Plus, var, constant(c, span), span),
            None => binop(
                BinaryOperator::Minus,
                binop(BinaryOperator::Plus, var, constant(off, span), span),
                constant(dim.lb, span),
                span,
            ),
        }
    }

    /// The iteration number of the iteration `var + offsets` (row-major), and the test
    /// that it is an iteration of the nest (`None`: always, the offsets being zero).
    fn number(&self, offsets: &[i64], span: Span) -> (Node<Expression>, Option<Node<Expression>>) {
        let mut lin: Option<Node<Expression>> = None;
        let mut test: Option<Node<Expression>> = None;
        let mut scale: i64 = 1;
        for d in (0..self.dims.len()).rev() {
            let dim = &self.dims[d];
            let idx = || {
                binop(
                    BinaryOperator::Divide,
                    self.distance(d, offsets[d], span),
                    constant(dim.step, span),
                    span,
                )
            };
            let term = binop(BinaryOperator::Multiply, idx(), constant(scale, span), span);
            lin = Some(match lin {
                None => term,
                Some(l) => binop(BinaryOperator::Plus, term, l, span),
            });
            if offsets[d] != 0 {
                let mut here = and(
                    binop(
                        BinaryOperator::GreaterOrEqual,
                        idx(),
                        constant(0, span),
                        span,
                    ),
                    binop(BinaryOperator::Less, idx(), constant(dim.trip, span), span),
                    span,
                );
                if dim.step.abs() != 1 {
                    let exact = eq(
                        binop(
                            BinaryOperator::Modulo,
                            self.distance(d, offsets[d], span),
                            constant(dim.step, span),
                            span,
                        ),
                        constant(0, span),
                        span,
                    );
                    here = and(exact, here, span);
                }
                test = Some(match test {
                    None => here,
                    Some(t) => and(here, t, span),
                });
            }
            scale = scale.saturating_mul(dim.trip);
        }
        (lin.unwrap_or_else(|| constant(0, span)), test)
    }
}

impl Lowering {
    /// The nest of `s`, governed by `d` with `ordered(n)`: its loops, its objects
    /// (declared here) and the checks of its body (see the module header).
    pub fn doacross_nest(&mut self, d: &Directive, s: &Node<Statement>, number: usize) -> R<()> {
        let n = match d.clause("ordered").and_then(|c| c.args.as_deref()) {
            Some(a) => match a.trim().parse::<usize>() {
                Ok(n) if (1..=4).contains(&n) => n,
                _ => return fail(d, "`ordered(n)` whose argument is not a number from 1 to 4"),
            },
            None => return Ok(()),
        };
        if d.clause("collapse").is_some() {
            return fail(
                d,
                "`collapse` with `ordered(n)` (a doacross loop) is not modelled",
            );
        }
        let span = dspan(d);
        let (levels, current) = perfect_nest(s.clone(), n, span, "`ordered(n)`")?;
        let mut dims = vec![];
        let mut total: u64 = 1;
        for l in &levels {
            let env = Env::none();
            let (lb, step) = (value(&l.lb.node, &env), value(&l.step.node, &env));
            let (Some(lb), Some(step), Some(trip)) = (lb, step, constant_trip(l)) else {
                return fail(
                    d,
                    "a doacross loop nest whose bounds and steps are not constants",
                );
            };
            total = total.saturating_mul(trip.max(1));
            dims.push(Dim {
                var: l.var.clone(),
                lb: lb as i64,
                step: step as i64,
                trip: trip as i64,
            });
        }
        if total > MAX_ITERATIONS {
            return fail(
                d,
                format!("a doacross loop nest of more than {MAX_ITERATIONS} iterations"),
            );
        }
        if !matches!(current.node, Statement::Compound(_)) {
            return fail(d, "a doacross loop nest whose body is not a block");
        }
        if any_stmt(&current, InExpressions::Enter, |s| {
            matches!(
                s.node,
                Statement::Continue | Statement::Goto(_) | Statement::Return(_)
            )
        }) {
            return fail(
                d,
                "a doacross loop whose body may skip its `ordered depend(source)` (`continue`, `goto`, `return`)",
            );
        }
        let body = (current.span.start, current.span.end);
        // The body's own source, at its top level: exactly one.
        let inside = |at: usize| s.span.start <= at && at < s.span.end;
        let mut sources = 0;
        for (at, block, dir) in &self.doacross_dirs {
            if !inside(*at) {
                continue;
            }
            let source = dir.clauses.iter().any(|c| kind_of(c).0 == "source");
            if source {
                if *block != body.0 {
                    return fail(dir, "`ordered depend(source)` under control flow or outside the innermost loop's body");
                }
                sources += 1;
            }
        }
        if sources != 1 {
            return fail(
                d,
                "a doacross loop whose innermost body does not have exactly one `ordered depend(source)`",
            );
        }
        let posted = names::omp("doacross_posted", number);
        let epoch = names::omp("doacross_epoch", number);
        self.global(&[TypeSpecifier::Long], &posted, Some(total));
        self.global(&[TypeSpecifier::Long], &epoch, None);
        self.doacross.insert(
            number,
            Nest {
                dims,
                posted,
                epoch,
                body,
            },
        );
        Ok(())
    }

    /// A stand-alone doacross `ordered`: its sinks' waits, then its source's mark.
    pub fn doacross_wait(&mut self, d: &Directive) -> R<Vec<Node<Statement>>> {
        let nest = self
            .ordered_loops
            .last()
            .and_then(|n| self.doacross.get(n))
            .filter(|nest| nest.body.0 <= d.at && d.at < nest.body.1)
            .cloned();
        let Some(nest) = nest else {
            return fail(
                d,
                "a doacross `ordered` outside the innermost body of a `for ordered(n)` loop",
            );
        };
        let span = dspan(d);
        let mark = || {
            binop(
                BinaryOperator::Plus,
                ident(&nest.epoch, span),
                constant(1, span),
                span,
            )
        };
        let mut out = vec![];
        let mut source = false;
        for dep in dependences(d, &nest.dims)? {
            match dep {
                Dependence::Source => source = true,
                Dependence::Sink(offsets) => {
                    let (lin, test) = nest.number(&offsets, span);
                    let done = eq(index(ident(&nest.posted, span), lin, span), mark(), span);
                    let wait = match test {
                        Some(t) => or(not(t, span), done, span),
                        None => done,
                    };
                    out.extend(atomic_section(vec![assume(wait, span)], span));
                }
            }
        }
        if source {
            let zeros = vec![0; nest.dims.len()];
            let (lin, _) = nest.number(&zeros, span);
            let set = expr_stmt(assign(
                index(ident(&nest.posted, span), lin, span),
                mark(),
                span,
            ));
            out.extend(atomic_section(vec![set], span));
        }
        Ok(out)
    }
}
