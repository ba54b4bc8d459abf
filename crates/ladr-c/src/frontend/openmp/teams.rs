//! `teams` and `distribute`: a league of teams on the host, as the host fallback of a
//! `target teams` region (and OpenMP 5.0's host `teams`) runs it.
//!
//! `teams num_teams(n)` starts `n` initial threads (`--omp-threads` where no `num_teams`
//! says), each of which runs the region; the encountering thread continues when all have
//! ended. That is a `parallel` region of `n` threads as [`super::outline`] lowers it (the
//! encountering thread runs as team 0), with `teams`'s data-sharing clauses (`private`,
//! `firstprivate`, `shared`, `default`, `reduction`). `distribute` divides its loop's
//! iterations among the teams' initial threads, with no barrier at its end: a worksharing
//! `for nowait` of that team, whose iteration-to-thread assignment is open, as the
//! implementation-defined default `dist_schedule` leaves it.
//!
//! What makes the league differ from a team is kept out, and so refused: the initial thread
//! of each team is thread 0 of a team of one (`omp_get_thread_num()` is 0 there, not the
//! team number), and `critical`, locks and barriers bind to one team (contention group),
//! not the league. So inside a `teams` region only `distribute` and `atomic` (which binds
//! to every thread of the device) are modelled; the region may call the runtime's team and
//! thread numbers and counts itself ([`LeagueCalls`]), but no other runtime function and
//! no function with OpenMP in it; a `parallel` inside is a nested `parallel` (refused).
//! `teams` is modelled in `main`, outside every `parallel` region, alone or under `target`
//! (also combined: `target teams`, `teams distribute`, `target teams distribute`, each
//! clause given to its leaf). `[target] teams distribute parallel for` is one `parallel
//! for` of every thread of the league ([`Lowering::league_loop`]); `distribute parallel for`
//! otherwise, `distribute simd` and the clauses `dist_schedule`, `allocate`,
//! `num_teams(lower: upper)` are refused.

use super::callgraph::CallGraph;
use super::directive::{Clause, Directive};
use super::lower::{fail, Lowering, R};
use crate::syntax::build::{callee_name, ident, int};
use crate::syntax::names;
use crate::syntax::query::{any_expr, Operands};
use crate::syntax::walk::visit_mut::{self, VisitorMut};
use crate::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashSet;
use std::convert::Infallible;

/// The runtime functions a `teams` region may call itself, as a league answers them
/// ([`LeagueCalls`]).
const LEAGUE_CALLS: &[&str] = &[
    "omp_get_team_num",
    "omp_get_num_teams",
    "omp_get_thread_num",
    "omp_get_num_threads",
];

/// The clauses of a combined `target teams` that belong to `target`.
const TARGET_CLAUSES: &[&str] = &["map", "device", "if"];
/// The clauses of a combined `teams distribute` that belong to `teams` (the others are
/// `distribute`'s: `private`, `firstprivate` and `lastprivate` of the loop, `collapse`).
const TEAMS_CLAUSES: &[&str] = &[
    "num_teams",
    "thread_limit",
    "shared",
    "default",
    "reduction",
];

impl Lowering {
    /// The directives governing `s`, with `teams` and `distribute` as the `parallel` and
    /// `for nowait` that model them (checked: see the module); `target teams` split in two.
    /// Refuses any other directive inside a `teams` region. Also whether one of them
    /// starts a `teams` region (`s` is inside it).
    pub(super) fn league(
        &mut self,
        governing: Vec<Directive>,
        s: &mut Node<Statement>,
    ) -> R<(Vec<Directive>, bool)> {
        let mut out = Vec::with_capacity(governing.len() + 1);
        // `teams` and `distribute` may govern the same statement (`#pragma omp teams` on
        // the line before `#pragma omp distribute`).
        let outer = self.in_teams;
        let r = self.league_of(governing, s, &mut out);
        let opened = self.in_teams && !outer;
        self.in_teams = outer;
        r.map(|()| (out, opened))
    }

    fn league_of(
        &mut self,
        governing: Vec<Directive>,
        s: &mut Node<Statement>,
        out: &mut Vec<Directive>,
    ) -> R<()> {
        for d in governing {
            let words: Vec<&str> = d.words.iter().map(String::as_str).collect();
            match words.as_slice() {
                ["target", "teams", "distribute", "parallel", "for"]
                | ["teams", "distribute", "parallel", "for"] => {
                    self.league_loop(&d, s, out)?;
                }
                ["target", "teams", ..] | ["teams", "distribute"] => {
                    for part in split(&d) {
                        self.league_of(vec![part], s, out)?;
                    }
                }
                ["teams"] => {
                    out.push(self.teams(&d, s, LEAGUE_CALLS)?);
                    let Ok(()) = visit_mut::stmt(&mut LeagueCalls, s);
                    for c in self.constructs.iter_mut().filter(|c| c.at == d.at) {
                        c.league = true;
                    }
                    self.in_teams = true;
                }
                ["distribute"] => out.push(self.distribute(&d)?),
                ["atomic", ..] => out.push(d),
                _ if self.in_teams => {
                    return fail(&d, format!("OpenMP `{}` inside a `teams` region", d.name()))
                }
                _ => out.push(d),
            }
        }
        Ok(())
    }

    /// `[target] teams distribute parallel for`: every iteration runs on one thread of one
    /// team, any iteration on any thread (neither `dist_schedule` nor `schedule` says
    /// which), and nothing of the construct follows the loop; so its iterations race as
    /// those of one `parallel for` whose team is every thread of the league (`num_teams` ×
    /// `num_threads`; `--omp-threads` where either is not given). Checked as `teams`
    /// (where it is, what it calls); directives inside are refused as in a `teams` region.
    fn league_loop(
        &mut self,
        d: &Directive,
        s: &Node<Statement>,
        out: &mut Vec<Directive>,
    ) -> R<()> {
        let name = d.name();
        let loop_clauses = [
            "num_teams",
            "thread_limit",
            "num_threads",
            "shared",
            "default",
            "private",
            "firstprivate",
            "lastprivate",
            "reduction",
            "collapse",
        ];
        let mut parts = split(d);
        if d.words[0] == "target" {
            out.push(parts.remove(0));
        }
        let mut known = loop_clauses.to_vec();
        known.extend(TARGET_CLAUSES);
        self.no_clauses(d, &known)?;
        let teams = Directive {
            words: vec!["teams".into()],
            clauses: d
                .clauses
                .iter()
                .filter(|c| c.name == "num_teams")
                .cloned()
                .collect(),
            ..d.clone()
        };
        self.teams(&teams, s, &[])?;
        let count = |c: &str| -> R<Option<u64>> {
            match d.clause(c).map(|c| c.args.as_deref().unwrap_or("").trim()) {
                None => Ok(None),
                Some(a) => match a.parse::<u64>() {
                    Ok(n) if n >= 1 => Ok(Some(n)),
                    _ => fail(d, format!("`{c}({a})` of `{name}` that is not a number")),
                },
            }
        };
        let mut clauses: Vec<Clause> = d
            .clauses
            .iter()
            .filter(|c| {
                loop_clauses.contains(&c.name.as_str())
                    && !["num_teams", "thread_limit", "num_threads"].contains(&c.name.as_str())
            })
            .cloned()
            .collect();
        if let (Some(t), Some(n)) = (count("num_teams")?, count("num_threads")?) {
            if t * n > 16 {
                return fail(
                    d,
                    format!("`{name}` with {t} teams of {n} threads (ladr runs at most 16)"),
                );
            }
            clauses.push(Clause {
                name: "num_threads".into(),
                args: Some((t * n).to_string()),
            });
        }
        out.push(Directive {
            words: vec!["parallel".into(), "for".into()],
            clauses,
            ..d.clone()
        });
        self.in_teams = true;
        Ok(())
    }

    /// `teams` as the `parallel` region of the league; the runtime functions `calls` may be
    /// called in it (no other, no function that reaches one).
    fn teams(&mut self, d: &Directive, s: &Node<Statement>, calls: &[&str]) -> R<Directive> {
        let mut known = TEAMS_CLAUSES.to_vec();
        known.extend(["private", "firstprivate"]);
        self.no_clauses(d, &known)?;
        if self.parallel_depth > 0 || self.in_teams || self.function_name != "main" {
            return fail(
                d,
                "OpenMP `teams` outside `main` or inside a `parallel` or `teams` region",
            );
        }
        if d.clause("num_teams")
            .and_then(|c| c.args.as_deref())
            .is_some_and(|a| a.contains(':'))
        {
            return fail(d, "`num_teams` with a lower bound");
        }
        let reaches_omp = |e: &Node<Expression>| match &e.node {
            Expression::Call(c) => callee_name(&c.node).is_some_and(|n| {
                (n.starts_with("omp_") || self.omp_functions.contains(n)) && !calls.contains(&n)
            }),
            _ => false,
        };
        if any_expr(s, Operands::All, reaches_omp) {
            return fail(
                d,
                "a `teams` region calling an OpenMP runtime function or a function with OpenMP \
                 directives (each team's initial thread is thread 0 of a team of one there)",
            );
        }
        // A `thread_limit` limits the teams' `parallel` regions, which are refused inside.
        let clauses = d
            .clauses
            .iter()
            .filter(|c| c.name != "thread_limit")
            .map(|c| match c.name.as_str() {
                "num_teams" => Clause {
                    name: "num_threads".into(),
                    args: c.args.clone(),
                },
                _ => c.clone(),
            })
            .collect();
        Ok(Directive {
            words: vec!["parallel".into()],
            clauses,
            ..d.clone()
        })
    }

    /// `distribute` as the `for nowait` of the league.
    fn distribute(&self, d: &Directive) -> R<Directive> {
        self.no_clauses(d, &["private", "firstprivate", "lastprivate", "collapse"])?;
        if !self.in_teams {
            return fail(d, "OpenMP `distribute` outside a `teams` region");
        }
        let mut clauses = d.clauses.clone();
        clauses.push(Clause {
            name: "nowait".into(),
            args: None,
        });
        Ok(Directive {
            words: vec!["for".into()],
            clauses,
            ..d.clone()
        })
    }
}

/// The runtime calls of a `teams` region (before it is lowered as a team of the league's
/// initial threads): `omp_get_team_num()` is the team thread's number in that team,
/// `omp_get_num_teams()` its size; each initial thread is thread 0 of a team of one.
struct LeagueCalls;

impl VisitorMut for LeagueCalls {
    type Error = Infallible;
    fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk, Infallible> {
        let Expression::Call(c) = &e.node else {
            return Ok(Walk::Descend);
        };
        let span = e.span;
        *e = match callee_name(&c.node) {
            Some("omp_get_team_num") => ident(names::OMP_THREAD_NUM, span),
            Some("omp_get_num_teams") => ident(names::OMP_TEAM_SIZE, span),
            Some("omp_get_thread_num") => int(0, span),
            Some("omp_get_num_threads") => int(1, span),
            _ => return Ok(Walk::Descend),
        };
        Ok(Walk::Skip)
    }
}

/// The functions of `unit` that contain an OpenMP directive (one of `at`, offsets in the
/// text `unit` was parsed from) or call an `omp_` function, and those that call them.
pub(super) fn omp_functions(unit: &TranslationUnit, at: &[usize]) -> HashSet<String> {
    CallGraph::of(unit).callers_of(|_, callees, (start, end)| {
        callees.iter().any(|n| n.starts_with("omp_")) || at.iter().any(|a| (start..end).contains(a))
    })
}

/// A combined `target teams [distribute]` or `teams distribute` as its leaf directives,
/// outermost first, each clause with the leaf it belongs to.
fn split(d: &Directive) -> Vec<Directive> {
    d.words
        .iter()
        .map(|w| {
            let mine = |c: &&Clause| match w.as_str() {
                "target" => TARGET_CLAUSES.contains(&c.name.as_str()),
                "teams" => TEAMS_CLAUSES.contains(&c.name.as_str()),
                _ => {
                    !TARGET_CLAUSES.contains(&c.name.as_str())
                        && !TEAMS_CLAUSES.contains(&c.name.as_str())
                }
            };
            Directive {
                words: vec![w.clone()],
                clauses: d.clauses.iter().filter(mine).cloned().collect(),
                ..d.clone()
            }
        })
        .collect()
}
