//! The terminal report: a codespan diagnostic for each race (error on the second access, a
//! secondary label on the first, a note naming the threads, the interleaving as a numbered
//! list of contexts with original lines; "race 1 of 2" in its message when there are
//! several), then a line on how the search for more races ended when it looked for more
//! than one; or one line for "no race" / "unknown".

use super::{AccessInfo, Outcome, Position, Race, Thread};
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::term::termcolor::{NoColor, WriteColor};
use ladr_c::diag::SourceFiles;
use ladr_c::frontend::Parsed;
use ladr_c::source_map::Loc;

/// Writes the report of `o`. `verbose` adds every step of every context.
pub fn write<W: WriteColor>(out: &mut W, o: &Outcome, parsed: &Parsed, verbose: bool) {
    if o.races.is_empty() {
        let _ = writeln!(out, "{}", summary(o));
        for a in &o.assumptions {
            let _ = writeln!(out, "  assumed: {a}");
        }
        return;
    }
    // One diagnostic per group of races of one cause, its other pairs folded under it.
    let ids = group_ids(o);
    let groups = ids.len();
    for (k, id) in ids.iter().enumerate() {
        let members: Vec<&Race> = o.races.iter().filter(|r| r.group == *id).collect();
        let Some((first, folded)) = members.split_first() else {
            continue;
        };
        let g = k + 1;
        let number = match (groups, members.len()) {
            (1, 1) => String::new(),
            (_, 1) => format!(" (race {g} of {groups})"),
            (1, k) => format!(" ({k} racing pairs of one cause)"),
            (_, k) => format!(" (race {g} of {groups}: {k} racing pairs of one cause)"),
        };
        write_race(out, o, first, &number, parsed, verbose, folded);
    }
    if let Some(line) = search_text(o) {
        let _ = writeln!(out, "{line}");
    }
}

/// How the search for more races ended, when it looked for more than the one race found
/// (nothing for `ladr FILE`'s default of one race).
pub fn search_text(o: &Outcome) -> Option<String> {
    let search = o.search.as_ref()?;
    let n = o.races.len();
    let groups = group_ids(o).len();
    let found = if groups < n {
        format!("{n} racing pairs of {groups} cause{} found", plural(groups))
    } else {
        format!("{n} race{} found", plural(n))
    };
    match search.ended.as_str() {
        "max-races" if n == 1 => None,
        "max-races" => Some(format!(
            "{found}: the most asked for (--max-races); there may be more"
        )),
        "all-found" => Some(format!("{found}: no other race within {}", bounds_text(o))),
        _ => Some(format!(
            "{found}; the search for more stopped: {}",
            search.reason.as_deref().unwrap_or("no answer")
        )),
    }
}

/// The groups of the races of `o`, each once, in the order of their first race.
fn group_ids(o: &Outcome) -> Vec<usize> {
    let mut ids: Vec<usize> = vec![];
    for r in &o.races {
        if !ids.contains(&r.group) {
            ids.push(r.group);
        }
    }
    ids
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// One line for a race: `` race on `x` at a.c:3 (write, `w`) and b.c:9 (read, `main`) ``.
pub fn race_line(race: &Race) -> String {
    let [a, b] = &race.accesses;
    let one = |x: &AccessInfo| {
        format!(
            "{}:{} ({}, `{}`)",
            x.file, x.line, x.kind, x.thread.function
        )
    };
    format!("race on `{}` at {} and {}", b.expr, one(a), one(b))
}

/// The diagnostic of one race; `number` is added to its message, and the other races of
/// its group (`folded`) are a note each.
fn write_race<W: WriteColor>(
    out: &mut W,
    o: &Outcome,
    race: &Race,
    number: &str,
    parsed: &Parsed,
    verbose: bool,
    folded: &[&Race],
) {
    let [first, second] = &race.accesses;
    let mut files = SourceFiles::new();
    let label = |files: &mut SourceFiles, a: &AccessInfo| {
        let loc = Loc {
            file: a.file.clone(),
            line: a.line,
            column: a.column,
        };
        // lang-c's spans of an assignment's left side can include the blank after it.
        let len = a
            .offset
            .1
            .saturating_sub(a.offset.0)
            .min(a.expr.len().max(1));
        files.range(&parsed.map, &loc, len)
    };
    let (id2, r2) = label(&mut files, second);
    let (id1, r1) = label(&mut files, first);
    let mut notes = vec![format!(
        "threads: {} and {}",
        thread_text(&first.thread),
        thread_text(&second.thread)
    )];
    if let Some(s) = &race.suppression {
        let place = match s.kind.as_str() {
            "inSource" => "in source",
            _ => "config",
        };
        notes.insert(
            0,
            format!(
                "suppressed ({place} at {}: {}): it does not fail the check",
                s.at, s.justification
            ),
        );
    }
    notes.push(locks_text(first, second));
    for a in [first, second] {
        let construct = construct_text(a).map(|c| format!(" ({c})"));
        if !a.values.is_empty() || construct.is_some() {
            let vals: Vec<String> = a
                .values
                .iter()
                .map(|v| format!("{} = {}", v.name, v.value))
                .collect();
            let colon = if vals.is_empty() { "" } else { ": " };
            notes.push(format!(
                "at {}:{}{}{colon}{}",
                a.file,
                a.line,
                construct.unwrap_or_default(),
                vals.join(", ")
            ));
        }
    }
    notes.push(format!("found within {}", bounds_text(o)));
    notes.extend(o.assumptions.iter().map(|a| format!("assumed: {a}")));
    notes.push(interleaving_text(o, race, verbose));
    for other in folded {
        notes.push(format!("the same cause: {}", race_line(other)));
    }
    let (d, suppressed) = match race.suppression {
        Some(_) => (Diagnostic::warning(), " (suppressed)"),
        None => (Diagnostic::error(), ""),
    };
    let d = d
        .with_message(format!(
            "data race on {} between thread {} and thread {}{number}{suppressed}",
            second.quoted(),
            first.thread.slot,
            second.thread.slot
        ))
        .with_code("data-race")
        .with_labels(vec![
            Label::primary(id2, r2).with_message(format!(
                "{} by thread {}",
                second.words(),
                second.thread.slot
            )),
            Label::secondary(id1, r1).with_message(format!(
                "{} by thread {}",
                first.words(),
                first.thread.slot
            )),
        ])
        .with_notes(notes);
    files.emit(out, &d);
}

/// "locks: thread 2 holds no lock; thread 0 holds `q->lock` (mutex)", and "— no lock is
/// held by both" when both hold locks but none in common.
pub fn locks_text(first: &AccessInfo, second: &AccessInfo) -> String {
    use super::locks::{held_text, no_common_lock};
    let mut s = format!(
        "locks: {}; {}",
        held_text(first.thread.slot, &first.locks_held, first.atomic_section),
        held_text(
            second.thread.slot,
            &second.locks_held,
            second.atomic_section
        )
    );
    if no_common_lock(&first.locks_held, &second.locks_held) {
        s.push_str(" (no lock is held by both)");
    }
    s
}

/// The report of `o` as [`write`] gives it without colour (what `ladr --color never` prints).
pub fn to_string(o: &Outcome, parsed: &Parsed, verbose: bool) -> String {
    let mut out = NoColor::new(Vec::new());
    write(&mut out, o, parsed, verbose);
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}

/// One line: the verdict in words (the first race, and how many more).
pub fn summary(o: &Outcome) -> String {
    match (o.races.first(), o.verdict.as_str()) {
        (Some(race), _) => {
            let [a, b] = &race.accesses;
            let more = match o.races.len() {
                1 => String::new(),
                2 => " (and 1 more race)".to_string(),
                n => format!(" (and {} more races)", n - 1),
            };
            format!(
                "race: {} at {}:{}:{} in thread {} and {} at {}:{}:{} in thread {}{more}",
                a.words(),
                a.file,
                a.line,
                a.column,
                a.thread.slot,
                b.words(),
                b.file,
                b.line,
                b.column,
                b.thread.slot,
            )
        }
        (None, "no-race") if o.proved => format!(
            "no data race in any execution{} (proved by the static analysis: {})",
            omp_team_text(&o.bounds)
                .map(|t| format!(" with {t}"))
                .unwrap_or_default(),
            o.proof_summary.as_deref().unwrap_or("every shared object")
        ),
        (None, "no-race") => {
            let cut = if o.bounds.cut {
                format!(
                    " (the bounds cut the program: {})",
                    o.bounds.cuts.join(", ")
                )
            } else if o.stats.slots <= 1 {
                // Nothing cut and no thread slot: no execution creates a thread.
                " (the program creates no thread, so it has no data race)".to_string()
            } else {
                " (no loop, recursion or thread creation was cut)".to_string()
            };
            let loops = match o.bounds.cut_loops.as_slice() {
                [] => String::new(),
                ls => format!(
                    "\nloop{} cut at {} unwinding{}: {}; a larger --unwind U (or --deepen) \
                     checks more iterations, and a loop whose bound is a constant up to \
                     --max-unwind N is unwound completely",
                    if ls.len() == 1 { "" } else { "s" },
                    o.bounds.unwind,
                    if o.bounds.unwind == 1 { "" } else { "s" },
                    Position::places(ls)
                ),
            };
            let heap = match (o.bounds.heap_block, o.bounds.cut_allocations.as_slice()) {
                (Some(bytes), places) => format!(
                    "\nheap blocks whose size is computed at run time are {bytes} bytes{}: an \
                     execution that allocates more stops there, unexplored; a larger \
                     --heap-block BYTES explores it",
                    match places {
                        [] => String::new(),
                        ps => format!(" ({})", Position::places(ps)),
                    }
                ),
                (None, _) => String::new(),
            };
            format!("no race found within {}{cut}{loops}{heap}", bounds_text(o))
        }
        (None, _) => {
            let limit = match o.time_limit_s {
                Some(t) => format!(" (time limit {t} s)"),
                None => String::new(),
            };
            format!(
                "unknown: {}{limit}",
                o.reason.as_deref().unwrap_or("no verdict")
            )
        }
    }
}

/// "in the `parallel for` at a.c:12": the OpenMP construct an access is in.
pub fn construct_text(a: &AccessInfo) -> Option<String> {
    a.omp_construct
        .as_ref()
        .map(|c| format!("in the `{}` at {}:{}", c.name, c.at.file, c.at.line))
}

pub fn thread_text(t: &Thread) -> String {
    let omp = match (t.omp_thread_num, t.omp_team_num) {
        (_, Some(n)) => format!(", initial thread of OpenMP team {n}"),
        (Some(n), None) => format!(", OpenMP thread {n}"),
        (None, None) => String::new(),
    };
    match &t.created_at {
        Some(c) => format!(
            "thread {} (`{}`, created at {}:{}{omp})",
            t.slot, t.function, c.file, c.line
        ),
        None => format!("thread {} (`{}`{omp})", t.slot, t.function),
    }
}

/// "interleaving:" and one line per context, with its original lines.
fn interleaving_text(o: &Outcome, race: &Race, verbose: bool) -> String {
    let mut s = String::from("interleaving:");
    for c in &race.interleaving {
        // Lines of the checked file are numbers; lines of other files (a header, another
        // source) say which file they are in.
        let home = &o.input;
        let lines: Vec<String> = c
            .lines
            .iter()
            .map(|p| match &p.file == home {
                true => p.line.to_string(),
                false => format!("{}:{}", p.file, p.line),
            })
            .collect();
        s.push_str(&format!(
            "\n  {}. round {}, {}: line{} {}",
            c.index,
            c.round,
            thread_text(&c.thread),
            if lines.len() == 1 { "" } else { "s" },
            lines.join(", ")
        ));
        if verbose {
            for st in &c.steps {
                s.push_str(&format!(
                    "\n       {}:{}  {}",
                    st.pos.file, st.pos.line, st.what
                ));
            }
        }
    }
    s
}

/// "2 rounds and 1 unwinding", and the OpenMP team size when it is a bound ("2 rounds
/// and 2 unwindings, with OpenMP teams of 2 threads set by --omp-threads").
fn bounds_text(o: &Outcome) -> String {
    let plural = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let team = omp_team_text(&o.bounds)
        .map(|t| format!(", with {t}"))
        .unwrap_or_default();
    format!(
        "{} and {}{team}",
        plural(o.bounds.rounds as u64, "round"),
        plural(o.bounds.unwind as u64, "unwinding")
    )
}

/// "OpenMP teams of 2 threads set by --omp-threads": the size of the OpenMP teams the program
/// does not size, when it has such a team.
pub(crate) fn omp_team_text(bounds: &super::Bounds) -> Option<String> {
    let threads = |n: usize| format!("{n} thread{}", if n == 1 { "" } else { "s" });
    bounds.omp_threads.map(|n| match bounds.omp_threads_from {
        Some(from) => format!(
            "OpenMP teams of {} grown by --deepen from {} set by --omp-threads",
            threads(n),
            threads(from)
        ),
        None => format!("OpenMP teams of {} set by --omp-threads", threads(n)),
    })
}
