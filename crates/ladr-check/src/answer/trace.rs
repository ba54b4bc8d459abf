//! The counterexample in the user's terms: the two racing accesses (file, line, column,
//! lvalue, thread, values), the interleaving that leads there and the locks held, built from
//! CBMC's trace and the printer's line map.
//!
//! The interleaving comes from the trace: every call of a slot function `__ladr_threadK` by
//! the driver is one context of slot K; the steps inside it (assignments and calls whose
//! source line in the sequential program maps back to an original statement) give the
//! original lines that context ran. Which steps are the user's is read from the printer's
//! line map (`Origin::Source` lines of `seq.i`), never from the names of the functions they
//! are in. CBMC's own naming (renaming suffixes, heap objects, padding members, its
//! temporaries) is read with `ladr_cbmc::names`.

use super::locks;
use super::steps::{context_ranges, position, user_span, user_text};
use super::{AccessInfo, Context, OmpConstruct, Position, Race, StepInfo, Thread, Value, Word};
use crate::{Access, Finding, Report};
use ladr_c::frontend::openmp::Construct;
use ladr_c::frontend::Parsed;
use ladr_c::syntax::names;
use ladr_cbmc::names as cbmc_names;
use ladr_ir::abi;
use ladr_ir::program::CutKind;

/// The race happens at the second access: C2, the last context, is shown up to that
/// access, not as far as CBMC's trace ran it on (the values of C2's variables are read
/// before, from the whole context).
fn end_at_access(interleaving: &mut [Context], second: &AccessInfo) {
    let Some(c2) = interleaving.last_mut() else {
        return;
    };
    if c2.thread.slot != second.thread.slot {
        return;
    }
    let at = |p: &Position| p.file == second.file && p.line == second.line;
    if let Some(i) = c2.lines.iter().position(at) {
        c2.lines.truncate(i + 1);
    }
    if let Some(i) = c2.steps.iter().position(|s| at(&s.pos)) {
        let end = c2.steps[i..]
            .iter()
            .position(|s| !at(&s.pos))
            .map_or(c2.steps.len(), |n| i + n);
        c2.steps.truncate(end);
    }
}

/// The race a report found, with its interleaving.
pub(super) fn race(report: &Report, parsed: &Parsed) -> Option<Race> {
    let Finding::Race { first, second } = &report.verdict else {
        return None;
    };
    let mut interleaving = interleaving(report, parsed);
    let mut accesses = [
        access_info(first, report, parsed, &interleaving, true),
        access_info(second, report, parsed, &interleaving, false),
    ];
    let held = locks::held_at_race(report, parsed);
    for a in &mut accesses {
        a.locks_held = held.get(a.thread.slot).cloned().unwrap_or_default();
    }
    end_at_access(&mut interleaving, &accesses[1]);
    Some(Race {
        accesses,
        interleaving,
    })
}

/// The places in the user's code of `report`'s program's cuts of `kind` (the loops the
/// unwinding cut, the allocations of a `heap-size` cut), each once, in order.
pub(super) fn cut_places(report: &Report, parsed: &Parsed, kind: CutKind) -> Vec<Position> {
    let mut starts: Vec<usize> = report
        .program
        .cuts
        .iter()
        .filter(|c| c.kind == kind && c.span.start < ladr_c::origin::BUILTIN_BASE)
        .map(|c| c.span.start)
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let mut out: Vec<Position> = starts
        .into_iter()
        .map(|s| position(&parsed.map.lookup(s)))
        .collect();
    out.dedup_by(|a, b| a.file == b.file && a.line == b.line);
    out
}

/// The thread of slot `k`.
pub fn thread(report: &Report, parsed: &Parsed, k: usize) -> Thread {
    let slot = &report.program.slots[k];
    // The team's thread number: a local of the lowered region, copied per inlining
    // (`__ladr_28_omp_thread_num`), so matched by the name behind the copy.
    let num = last_assignment(report, k, report.trace.len(), |lhs| {
        names::original_name(lhs) == names::original_name(names::OMP_THREAD_NUM)
    })
    .and_then(|v| v.trim().parse().ok());
    // A thread a `teams` construct starts is the initial thread of a team of the league.
    let league = slot.created_at.is_some_and(|s| {
        parsed
            .omp_constructs
            .iter()
            .any(|c| c.at == s.start && c.league)
    });
    Thread {
        slot: k,
        // A start routine library mode generated is named after the entry it calls.
        function: ladr_c::syntax::names::entry_of(&slot.routine)
            .unwrap_or(&slot.routine)
            .to_string(),
        created_at: slot
            .created_at
            .map(|s| position(&parsed.map.lookup(s.start))),
        omp_thread_num: num.filter(|_| !league),
        omp_team_num: num.filter(|_| league),
        call_end: slot.created_at.and_then(|s| {
            let text = parsed.text.get(s.start..s.end)?;
            let close = s.start + text.rfind(')')?;
            Some(position(&parsed.map.lookup(close)))
        }),
    }
}

fn access_info(
    a: &Access,
    report: &Report,
    parsed: &Parsed,
    contexts: &[Context],
    first: bool,
) -> AccessInfo {
    let omp_construct =
        Construct::innermost(&parsed.omp_constructs, a.site.span.start).map(|c| OmpConstruct {
            name: c.name.clone(),
            at: position(&parsed.map.lookup(c.at)),
        });
    let mut expr = a.site.expr.clone();
    let mut values = values(a, report, contexts, first);
    if omp_construct.is_some() {
        // The OpenMP lowering reaches a shared variable `x` of the function through a
        // pointer (`(*x)` at the user's `x`): the user wrote `x`, and that pointer's value
        // (an address) says nothing the user wrote.
        let written = parsed
            .text
            .get(a.site.span.start..a.site.span.end)
            .map(str::trim);
        if let Some(w) = written.filter(|w| pointer_free(&expr, w)) {
            expr = w.to_string();
        }
        values.retain(|v| !v.value.starts_with('&') && v.name != expr);
    }
    AccessInfo {
        file: a.loc.file.clone(),
        line: a.loc.line,
        column: a.loc.column,
        kind: Word::new(if a.site.write { "write" } else { "read" }),
        atomic: a.site.atomic,
        expr,
        libc_state: a.site.libc_state.clone(),
        function: enclosing_function(&parsed.unit, a.site.span.start),
        omp_construct,
        thread: thread(report, parsed, a.slot.index),
        values,
        locks_held: vec![],
        atomic_section: locks::in_atomic_section(parsed, a.site.span.start),
        offset: (a.site.span.start, a.site.span.end),
    }
}

/// Whether `written` is `lowered` without some of its `*`, `(` and `)` (whitespace aside):
/// the OpenMP lowering's `(*x)` for a shared `x`, anywhere in the expression (`c[*j]`
/// where the user wrote `c[j]`).
fn pointer_free(lowered: &str, written: &str) -> bool {
    let mut w = written.chars().filter(|c| !c.is_whitespace()).peekable();
    for c in lowered.chars().filter(|c| !c.is_whitespace()) {
        if w.peek() == Some(&c) {
            w.next();
        } else if !matches!(c, '*' | '(' | ')') {
            return false;
        }
    }
    w.next().is_none()
}

/// The user's function whose definition holds offset `at` of the parsed text.
fn enclosing_function(unit: &lang_c::ast::TranslationUnit, at: usize) -> Option<String> {
    unit.0.iter().find_map(|d| match &d.node {
        lang_c::ast::ExternalDeclaration::FunctionDefinition(f)
            if f.span.start <= at && at < f.span.end =>
        {
            ladr_c::syntax::build::function_name(&f.node)
                .map(|n| ladr_c::syntax::names::original_name(n).to_string())
        }
        _ => None,
    })
}

/// The last values CBMC assigned, up to the access (for the first, where the encoding
/// recorded it; for the second, where the race flag was set), to the variables named in
/// the access's lvalue (`i` in `buf[i]`, `p` in `*p`).
fn values(a: &Access, report: &Report, contexts: &[Context], first: bool) -> Vec<Value> {
    let second = contexts.last();
    let ctx = if first {
        let n = contexts.len().saturating_sub(1);
        contexts[..n]
            .iter()
            .rev()
            .find(|c| c.thread.slot == a.slot.index)
    } else {
        second
    };
    let Some(ctx) = ctx else {
        return vec![];
    };
    // C2 runs on after the race (CBMC's trace goes to the context's end): the second
    // access's values are those when the race flag is set, not after the thread's next
    // assignments (a worksharing loop's next claim).
    let mut end = ctx.end_step;
    // C1 runs on after its access too (`j++` of the loop around it): the first access's
    // values are those when the encoding recorded it as C1's.
    if first {
        if let Some(at) = report.trace[..end]
            .iter()
            .rposition(|s| s.kind == "assignment" && s.lhs.as_deref() == Some(abi::C1_SITE))
        {
            end = at;
        }
    } else {
        let before = contexts
            .len()
            .checked_sub(2)
            .map_or(0, |n| contexts[n].end_step);
        if let Some(at) = report.trace[..end]
            .iter()
            .rposition(|s| s.kind == "assignment" && s.lhs.as_deref() == Some(abi::DRD))
            .filter(|at| *at >= before)
        {
            end = at;
        }
    }
    let mut out = vec![];
    // A library function's hidden state has no variables of the program.
    if a.site.libc_state.is_some() {
        return out;
    }
    // The accessed variable itself is not what the values explain (`i` in `a[i]` is).
    for (user, name) in a.site.vars.iter().filter(|(user, _)| *user != a.site.expr) {
        let v = last_assignment(report, a.slot.index, end, |lhs| lhs == name);
        // Whole arrays and structs say nothing about which element raced.
        if let Some(value) = v.filter(|v| !v.starts_with('{') && v != "unknown") {
            out.push(Value {
                name: user.clone(),
                value: user_text(&value),
            });
        }
    }
    out
}

/// The value CBMC last assigned, before step `end`, to a variable whose name in the
/// sequential program is one `is_it` accepts, in a context of thread slot `slot` (another
/// slot may have a variable of that name: only this slot's contexts count).
fn last_assignment(
    report: &Report,
    slot: usize,
    end: usize,
    is_it: impl Fn(&str) -> bool,
) -> Option<String> {
    let ranges = context_ranges(&report.trace, report.program.slots.len());
    ranges
        .iter()
        .rev()
        .filter(|(k, _, start, _)| *k == slot && *start < end)
        .find_map(|(_, _, start, stop)| {
            report.trace[*start..(*stop).min(end)]
                .iter()
                .rev()
                .find_map(|s| {
                    let lhs = s.lhs.as_deref()?;
                    (s.kind == "assignment" && is_it(lhs) && !s.is_internal())
                        .then(|| s.value.clone())
                        .flatten()
                })
        })
}

/// Is `lhs` (as CBMC names an assigned lvalue) one of the user's variables? Not ladr's own
/// (model, scheduler, flags), not its temporaries (`__ladr_t7`), not CBMC's (`tmp_if_expr`,
/// `return_value_f`, `x$1`).
fn is_user_variable(lhs: &str) -> bool {
    let base = lhs
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()
        .unwrap_or(lhs);
    !names::is_internal(base)
        && !names::is_temporary(base)
        && !lhs.contains('$')
        && !cbmc_names::is_own(base)
}

/// The contexts of the counterexample that ran at least one original statement.
pub fn interleaving(report: &Report, parsed: &Parsed) -> Vec<Context> {
    let slots = report.program.slots.len();
    // The functions of the sequential program: a call of any other enters CBMC's own
    // library (`__atomic_fetch_add_S32` calling `__atomic_thread_fence`) or an external
    // function, whose steps until it returns are not the user's: CBMC locates its one body
    // at the first call of it, so they showed that call's line in every thread (issue 27,
    // item 11).
    let defined: std::collections::HashSet<&str> = report
        .program
        .unit
        .0
        .iter()
        .filter_map(|d| match &d.node {
            lang_c::ast::ExternalDeclaration::FunctionDefinition(f) => {
                ladr_c::syntax::build::function_name(&f.node)
            }
            _ => None,
        })
        .collect();
    let mut out: Vec<Context> = vec![];
    for (k, round, start, end) in context_ranges(&report.trace, slots) {
        let mut lines: Vec<Position> = vec![];
        let mut steps = vec![];
        // After a call, the bindings of the callee's parameters: not the user's assignments
        // (the user's own functions are inlined, so every call left is one of the model, of
        // CBMC's library (`malloc`) or of an external function).
        let mut in_call = false;
        // The array last written at a symbolic index, on its line: CBMC's trace then lists
        // every element and member again (`a[0l] = { … }`, `a[0l].datum = 0`, …), which are
        // no writes of the user's (a write of a constant element later on the same line is
        // not shown either; its line is).
        let mut symbolic: Option<(u32, String)> = None;
        // Calls into a function the program does not define, not yet returned from.
        let mut library_depth = 0usize;
        for s in &report.trace[start + 1..end] {
            if library_depth > 0 {
                // The call's parameter bindings are inside it too.
                in_call = false;
                match s.kind.as_str() {
                    "function-call" => library_depth += 1,
                    "function-return" => library_depth -= 1,
                    _ => {}
                }
                continue;
            }
            if s.kind == "function-call"
                && s.callee.as_deref().is_some_and(|c| !defined.contains(c))
            {
                library_depth = 1;
            }
            if s.kind != "assignment" {
                in_call = false;
            }
            if s.hidden || s.is_internal() || in_call {
                continue;
            }
            if s.kind == "function-call" {
                in_call = true;
            }
            // Only lines of the sequential program that came from the user's source are the
            // user's code: steps inside the model, in generated code or in CBMC's own
            // library (`malloc`) are shown as the call that led there.
            let Some(span) = user_span(report, s) else {
                continue;
            };
            let loc = parsed.map.lookup(span.start);
            let pos = position(&loc);
            // A step runs its line (also an assignment of a temporary of the user's
            // expression); only the user's own variables and calls are shown as steps.
            let what = match s.kind.as_str() {
                "assignment" => match (&s.lhs, &s.value) {
                    // The race found: its line is the second access's, which runs even
                    // when it assigns nothing of the user's (`if (lvl < level) return;`).
                    (Some(l), Some(_)) if l == abi::DRD => None,
                    (Some(l), Some(_)) if names::is_internal(l) || l.contains('$') => continue,
                    (Some(l), Some(_))
                        if symbolic.as_ref().is_some_and(|(line, base)| {
                            *line == pos.line && constant_element_of(l, base)
                        }) =>
                    {
                        continue
                    }
                    (Some(l), Some(v)) if is_user_variable(l) => Some(match v.as_str() {
                        // CBMC could not show the value (a pointer into an array, …).
                        "unknown" => format!("{} assigned", user_text(l)),
                        v => format!("{} = {}", user_text(l), user_text(v)),
                    }),
                    (Some(_), Some(_)) => None,
                    _ => continue,
                },
                "function-call" => match s.callee.as_deref() {
                    Some(c) => Some(format!("call {}", abi::modelled_function(c))),
                    None => continue,
                },
                _ => continue,
            };
            if s.kind == "assignment" {
                if let Some(base) = s.lhs.as_deref().and_then(symbolic_index_base) {
                    symbolic = Some((pos.line, base.to_string()));
                }
            }
            if lines.last().map(|l| l.line) != Some(pos.line) {
                lines.push(Position {
                    column: 1,
                    ..pos.clone()
                });
            }
            if let Some(what) = what {
                steps.push(StepInfo { pos, what });
            }
        }
        if lines.is_empty() {
            continue;
        }
        out.push(Context {
            index: out.len() + 1,
            round,
            thread: thread(report, parsed, k),
            lines,
            steps,
            end_step: end,
        });
    }
    out
}

/// `a` of an lvalue `a[e]…` whose index `e` is no number (`a[(signed long int)i].datum`).
fn symbolic_index_base(lhs: &str) -> Option<&str> {
    let (base, rest) = lhs.split_once('[')?;
    let index = &rest[..rest.find(']')?];
    (!is_number(index) && !base.is_empty()).then_some(base)
}

/// Is `lhs` an element of `base` at a constant index, or a part of one (`a[0l].m.__lock`)?
fn constant_element_of(lhs: &str, base: &str) -> bool {
    lhs.strip_prefix(base)
        .and_then(|r| r.strip_prefix('['))
        .and_then(|r| r.split_once(']'))
        .is_some_and(|(i, _)| is_number(i))
}

/// An integer literal as CBMC prints an index (`0l`, `12ul`).
fn is_number(text: &str) -> bool {
    let digits = text.trim_end_matches(['l', 'L', 'u', 'U']);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::{is_user_variable, user_text};

    #[test]
    fn shared_pointers_of_the_lowering_are_named_as_written() {
        use super::pointer_free;
        assert!(pointer_free("c[*j]", "c[j]"));
        assert!(pointer_free("*x", "x"));
        assert!(pointer_free("(*s).f", "s.f"));
        assert!(pointer_free("**p", "*p"));
        assert!(!pointer_free("c[*j]", "c[k]"));
        assert!(!pointer_free("c[j + 1]", "c[j]"));
        assert!(!pointer_free("x", "*x"));
    }

    #[test]
    fn elements_rewritten_after_a_symbolic_index() {
        use super::{constant_element_of, symbolic_index_base};
        assert_eq!(
            symbolic_index_base("a[(signed long int)i].datum"),
            Some("a")
        );
        assert_eq!(symbolic_index_base("a[1l].datum"), None);
        assert_eq!(symbolic_index_base("x"), None);
        assert!(constant_element_of("a[0l].m.__data.__lock", "a"));
        assert!(constant_element_of("a[0l]", "a"));
        assert!(!constant_element_of("ab[0l]", "a"));
        assert!(!constant_element_of("a[(signed long int)i]", "a"));
    }

    #[test]
    fn user_text_uses_the_user_names() {
        assert_eq!(user_text("&__ladr_219_pool"), "&pool");
        assert_eq!(user_text("__ladr_3_a[1l]"), "a[1l]");
        assert_eq!(user_text("x!0@1 + 4"), "x + 4");
        assert_eq!(user_text("NULL"), "NULL");
        // CBMC's padding members are no member of the user's (`ladr_cbmc::names`).
        assert_eq!(user_text("{ .a=1, .$pad2=0 }"), "{ .a=1 }");
        assert_eq!(user_text("&dynamic_object$0"), "&(heap object 0)");
        assert_eq!(user_text("dynamic_object.a"), "(heap object).a");
        assert_eq!(user_text("&__ladr_argv"), "&(the command-line arguments)");
        assert!(is_user_variable("count"));
        assert!(is_user_variable("__ladr_12_count"));
        assert!(!is_user_variable("__ladr_t19"));
        assert!(!is_user_variable("tmp_if_expr"));
        assert!(!is_user_variable("tmp_if_expr$1"));
        assert!(!is_user_variable("__ladr_pc[1l]"));
        assert!(!is_user_variable("return_value___ladr_pthread_mutex_lock"));
    }
}
