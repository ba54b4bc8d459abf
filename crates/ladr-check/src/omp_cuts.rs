//! OpenMP "no race" answers that the bounds make say nothing: a recursive task tree cut
//! by the thread bound, a loop a team thread runs iteration after iteration cut by the
//! unwinding (docs/openmp.md). Both turn the answer into "unknown".

use crate::{Answer, Request, Verdict};
use ladr_c::frontend::openmp::Construct;
use ladr_c::frontend::Parsed;
use ladr_c::syntax::build::{callee_name, declarator_name};
use ladr_c::syntax::query::{for_each_expr, Operands};
use lang_c::ast::{Expression, ExternalDeclaration, FunctionDefinition};
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// An OpenMP program whose "no race" rests on a task tree cut by the bounds: no answer. A
/// recursive task tree (DataRaceBench's `fib`) is cut where a task creates its own kind of
/// task again beyond `--max-threads` (or deeper than `--unwind`): every execution in which
/// a task's subtree completes is gone — also those in which a task races with its parent
/// after its children ran (DRB106): the "no race" said nothing about them
/// (docs/openmp.md, "Tasks beyond --max-threads").
pub(crate) fn omp_threads_cut(parsed: &Parsed, request: &Request, answer: &mut Answer) {
    let openmp = parsed.omp_threads.is_some() || !parsed.omp_constructs.is_empty();
    let cut = answer
        .bounds
        .cuts
        .iter()
        .any(|c| c.as_str() == "thread-nesting");
    if !openmp || !cut || answer.verdict != Verdict::NoRace {
        return;
    }
    let max = request.bounds.max_threads.unwrap_or(0);
    answer.verdict = Verdict::Unknown {
        reason: format!(
            "no race among the executions run, but the bounds (--max-threads {max}, \
             --unwind) cut a recursive tree of OpenMP tasks: no execution in which a \
             task's subtree completes was checked; may help: a larger --max-threads and \
             --unwind"
        ),
    };
}

/// An OpenMP "no race" whose bounds cut a loop that a thread of a team runs one iteration
/// after another (a loop inside a `parallel` region or inside the body of a worksharing
/// loop, or a worksharing loop whose claims do not skip ahead, `static` schedules), or a
/// worksharing loop with code after it: no answer. The iterations of a skipping
/// worksharing loop are claimed in any order, so its cut still lets any two of them meet on
/// two threads; an inner loop's later iterations are never run, and a race between them and
/// another thread's (DataRaceBench's `b[i][j-1]` reaching the previous row's last element)
/// was never looked for. And a cut worksharing loop is finished by no execution (its last
/// thread out needs every iteration claimed): its barrier, the rest of its region and the
/// later regions were never reached ([`ladr_c::frontend::openmp::Construct::code_after`]).
/// Loops are matched by where they are written: inside a construct's statement, or in a
/// function such a statement calls (directly or through other functions; calls through
/// pointers are not followed).
pub(crate) fn omp_inner_loop_cut(parsed: &Parsed, answer: &mut Answer) {
    if parsed.omp_constructs.is_empty() || answer.verdict != Verdict::NoRace {
        return;
    }
    let at = |offset: usize| {
        let l = parsed.map.lookup(offset);
        (l.file, l.line, l.column)
    };
    let called = called_from_constructs(parsed);
    let mut inner: Vec<String> = vec![];
    let mut unfinished: Vec<String> = vec![];
    for p in &answer.bounds.cut_loops {
        let loop_at = (p.file.clone(), p.line, p.column);
        let inside = parsed
            .omp_constructs
            .iter()
            .map(|c| c.body)
            .chain(called.iter().copied())
            .any(|(from, to)| {
                let (start, end) = (at(from), at(to));
                start.0 == loop_at.0 && start <= loop_at && loop_at < end
            });
        // The lowered claim loop is where its directive is; the loop it shares out where
        // its `for` is.
        let same_line = |offset: usize| {
            let a = at(offset);
            a.0 == loop_at.0 && a.1 == loop_at.1
        };
        let worksharing: Vec<&Construct> = parsed
            .omp_constructs
            .iter()
            .filter(|c| is_loop_construct(&c.name) && (same_line(c.at) || same_line(c.body.0)))
            .collect();
        let named = format!("{}:{}", p.file, p.line);
        // The claim loop (at its directive's line, where no other loop is) of a worksharing
        // loop of a constant count below the unwinding lets each thread claim every
        // iteration and fail once more: the cut ends no execution. A cut at the `for`'s
        // line may be an inner loop's written on that line.
        let unwind = u64::from(answer.bounds.unwind);
        if !worksharing.is_empty()
            && worksharing
                .iter()
                .all(|c| same_line(c.at) && c.trip.is_some_and(|n| n < unwind))
        {
            continue;
        }
        // A loop whose claims take the iterations in order is like an inner loop: its
        // threads never reach the iterations past the cut.
        if (inside && worksharing.iter().all(|c| c.claims_in_order))
            || worksharing.iter().any(|c| c.claims_in_order)
        {
            inner.push(named);
        } else if worksharing
            .iter()
            .any(|c| c.code_after && !finishable(parsed, c, &answer.bounds))
        {
            unfinished.push(named);
        }
    }
    let plural = |v: &[String]| if v.len() == 1 { "" } else { "s" };
    let reason = if !inner.is_empty() {
        format!(
            "no race among the executions run, but the unwinding cut the loop{} at {} that a \
             thread of an OpenMP team runs iteration after iteration: its later iterations \
             were never checked against the other threads; may help: --max-unwind at least \
             its iteration count",
            plural(&inner),
            inner.join(", ")
        )
    } else if !unfinished.is_empty() {
        format!(
            "no race among the executions run, but the unwinding cut the worksharing loop{} \
             at {}, so no execution within the bounds finished it: the code after it (its \
             barrier, the rest of its region, later regions) was never checked; may help: \
             --max-unwind and --unwind at least its iterations per thread",
            plural(&unfinished),
            unfinished.join(", ")
        )
    } else {
        return;
    };
    answer.verdict = Verdict::Unknown { reason };
}

/// Whether executions within `bounds` finish worksharing loop `c`: its constant iteration
/// count fits in its team's claims. Each thread's claim loop runs at most `unwind` times,
/// one of them its failing claim, so a team of T threads runs at most T·(unwind−1)
/// iterations — the last thread out needs all of them claimed. The team is the innermost
/// `parallel` holding the loop (itself for `parallel for`): its fixed size, or
/// `--omp-threads` (as grown by the deepening); 1 where there is none (an orphaned loop
/// may be run by a team of one) or under `if`.
fn finishable(parsed: &Parsed, c: &Construct, bounds: &crate::answer::Bounds) -> bool {
    let region = parsed
        .omp_constructs
        .iter()
        .filter(|r| r.name.starts_with("parallel") && r.body.0 <= c.body.0 && c.body.1 <= r.body.1)
        .min_by_key(|r| r.body.1 - r.body.0);
    let team = match region {
        Some(r) => r.team.unwrap_or(bounds.omp_threads.unwrap_or(1) as u64),
        None => 1,
    };
    let per_thread = u64::from(bounds.unwind.saturating_sub(1));
    c.trip.is_some_and(|n| n <= team * per_thread)
}

/// Is the OpenMP construct named `name` (`parallel for`, `taskloop simd`) a loop whose
/// iterations are shared out?
fn is_loop_construct(name: &str) -> bool {
    name.split_whitespace()
        .any(|w| matches!(w, "for" | "taskloop" | "simd" | "distribute" | "loop"))
}

/// The text spans of the functions that the statements of `parsed`'s OpenMP constructs
/// call, directly or through other functions (calls through pointers not followed).
fn called_from_constructs(parsed: &Parsed) -> Vec<(usize, usize)> {
    let defs: HashMap<&str, &Node<FunctionDefinition>> = parsed
        .unit
        .0
        .iter()
        .filter_map(|ext| match &ext.node {
            ExternalDeclaration::FunctionDefinition(f) => {
                Some((declarator_name(&f.node.declarator.node)?, f))
            }
            _ => None,
        })
        .collect();
    let inside = |at: usize| {
        parsed
            .omp_constructs
            .iter()
            .any(|c| c.body.0 <= at && at < c.body.1)
    };
    let mut todo: Vec<String> = vec![];
    for f in defs.values() {
        for_each_expr(*f, Operands::All, |e| {
            if let Expression::Call(c) = &e.node {
                if let Some(n) = callee_name(&c.node).filter(|_| inside(e.span.start)) {
                    todo.push(n.to_string());
                }
            }
        });
    }
    let mut seen: HashSet<String> = HashSet::new();
    while let Some(n) = todo.pop() {
        let Some(f) = defs.get(n.as_str()).filter(|_| seen.insert(n.clone())) else {
            continue;
        };
        for_each_expr(*f, Operands::All, |e| {
            if let Expression::Call(c) = &e.node {
                todo.extend(callee_name(&c.node).map(str::to_string));
            }
        });
    }
    seen.iter()
        .filter_map(|n| defs.get(n.as_str()))
        .map(|f| (f.span.start, f.span.end))
        .collect()
}
