//! Each task's measures, read from ladr's `--format json` document, and the `--stats`
//! reports over them: a table per subfolder (means and medians of translation time, CBMC
//! time, formula size, visible statements and instrumented accesses) and, against an older
//! run, the ratio of mean formula sizes.
//!
//! The document is read leniently (every field optional), so that `--ladr PATH` can run an
//! older ladr whose JSON lacks newer fields.

use crate::{count, Run, TaskResult};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// One task's measures: the `stats` of ladr's JSON document, with the bounds its answer
/// holds for. With several CBMC runs (deepening) the times are those of all runs, the sizes
/// those of the check whose answer is reported (docs/output.md, JSON schema).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskStats {
    pub translate_s: f64,
    pub cbmc_s: f64,
    pub slots: u64,
    pub visible_statements: u64,
    /// Null when the ladr that ran does not report it.
    pub instrumented_accesses: Option<u64>,
    /// Null when CBMC did not get as far as the formula (time limit during symbolic
    /// execution).
    pub formula_variables: Option<u64>,
    pub formula_clauses: Option<u64>,
    /// The bounds of the answer (`bounds` of the document).
    pub rounds: Option<u32>,
    pub unwind: Option<u32>,
    /// The static analysis proved the task race-free (no CBMC ran).
    pub proved: bool,
}

/// The parts of ladr's JSON document that eval reads (all optional: older binaries).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Document {
    pub verdict: Option<String>,
    pub reason: Option<String>,
    pub error: Option<serde_json::Value>,
    pub time_limit_s: Option<f64>,
    pub bounds: Option<DocBounds>,
    pub races: Vec<DocRace>,
    pub stats: Option<TaskStats>,
    pub deepening: Option<DocDeepening>,
    pub proved: bool,
    pub proof_summary: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DocDeepening {
    /// The answer is the constant-loop probe's.
    pub probe: bool,
    /// The bound pairs the "no race" holds for.
    pub finished: Vec<[u32; 2]>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DocBounds {
    pub rounds: u32,
    pub unwind: u32,
    pub cut: bool,
    pub cuts: Vec<String>,
    pub vacuous: bool,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DocRace {
    pub accesses: Vec<DocAccess>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DocAccess {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub kind: String,
    pub atomic: bool,
    pub expr: String,
    pub thread: DocThread,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DocThread {
    pub slot: u64,
}

impl Document {
    /// The document on ladr's stdout, if it is one.
    pub fn parse(stdout: &str) -> Option<Document> {
        serde_json::from_str(stdout.trim()).ok()
    }

    /// Why a "no race" of this document is no `true` in SV-COMP's terms
    /// (`ladr_svcomp::no_true_because`). `deepened`: the run grew its bounds as SV-COMP mode
    /// does, so SV-COMP's least bounds apply; a run at fixed bounds (`--no-deepen`) is
    /// judged at the bounds it was asked for.
    pub fn no_svcomp_true(&self, deepened: bool) -> Option<&'static str> {
        if self.verdict.as_deref() != Some("no-race") {
            return None;
        }
        let bounds = self.bounds.as_ref();
        ladr_svcomp::no_true_because(ladr_svcomp::NoRaceBounds {
            vacuous: bounds.is_some_and(|b| b.vacuous),
            threads_cut: bounds.is_some_and(|b| b.cuts.iter().any(|c| c == "threads")),
            probe: self.deepening.as_ref().is_some_and(|d| d.probe),
            least_bounds: !deepened
                || (self.deepening.as_ref())
                    .is_some_and(|d| ladr_svcomp::reaches_least_bounds(&d.finished)),
            proved: self.proved,
        })
    }

    /// The task's measures: the document's `stats` with its bounds, unless the check ended
    /// with an error before a verdict (then the stats are zeros, not measures).
    pub fn task_stats(&self) -> Option<TaskStats> {
        if self.error.is_some() || self.verdict.as_deref() == Some("error") {
            return None;
        }
        let mut s = self.stats.clone()?;
        if let Some(b) = &self.bounds {
            s.rounds = Some(b.rounds);
            s.unwind = Some(b.unwind);
        }
        s.proved = self.proved;
        Some(s)
    }

    /// ladr's one-line verdict (`ladr_report::text::summary`), built from the document: the
    /// first race's two accesses and how many more races, "no race found within …" with the
    /// cuts, or "unknown: …" with the reason and time limit. For no race and unknown it is
    /// the text output's first line (the eval test checks it); for a race the text output
    /// starts with a diagnostic instead, and this line says more (both accesses and places).
    /// Keep the two alike.
    pub fn summary(&self) -> String {
        let bounds = self.bounds.as_ref();
        let plural = |n: u32, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let bounds_text = format!(
            "{} and {}",
            plural(bounds.map_or(0, |b| b.rounds), "round"),
            plural(bounds.map_or(0, |b| b.unwind), "unwinding")
        );
        match (self.races.first(), self.verdict.as_deref()) {
            (Some(race), _) if race.accesses.len() == 2 => {
                let more = match self.races.len() {
                    1 => String::new(),
                    2 => " (and 1 more race)".to_string(),
                    n => format!(" (and {} more races)", n - 1),
                };
                let access = |a: &DocAccess| {
                    format!(
                        "{}{} of `{}` at {}:{}:{} in thread {}",
                        if a.atomic { "atomic " } else { "" },
                        a.kind,
                        a.expr,
                        a.file,
                        a.line,
                        a.column,
                        a.thread.slot
                    )
                };
                format!(
                    "race: {} and {}{more}",
                    access(&race.accesses[0]),
                    access(&race.accesses[1])
                )
            }
            // A race without the races list (a document this reader does not know).
            (_, Some("race")) => "race".to_string(),
            (_, Some("no-race")) if self.proved => format!(
                "no data race in any execution (proved by the static analysis: {})",
                self.proof_summary
                    .as_deref()
                    .unwrap_or("every shared object")
            ),
            (_, Some("no-race")) => {
                let cut = match bounds {
                    Some(b) if b.cut => {
                        format!(" (the bounds cut the program: {})", b.cuts.join(", "))
                    }
                    _ => " (no loop, recursion or thread creation was cut)".to_string(),
                };
                format!("no race found within {bounds_text}{cut}")
            }
            _ => {
                let limit = match self.time_limit_s {
                    Some(t) => format!(" (time limit {t} s)"),
                    None => String::new(),
                };
                format!(
                    "unknown: {}{limit}",
                    self.reason.as_deref().unwrap_or("no verdict")
                )
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------------------

/// Mean and median of `xs` (none when empty).
pub fn mean_median(xs: &[f64]) -> Option<(f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    Some((v.iter().sum::<f64>() / n as f64, median))
}

/// The measured columns: header, how to read the value, decimals shown.
type Column = (&'static str, fn(&TaskStats) -> Option<f64>, usize);

const COLUMNS: [Column; 6] = [
    ("translate s", |s| Some(s.translate_s), 2),
    ("CBMC s", |s| Some(s.cbmc_s), 2),
    ("variables", |s| s.formula_variables.map(|v| v as f64), 0),
    ("clauses", |s| s.formula_clauses.map(|v| v as f64), 0),
    ("visible", |s| Some(s.visible_statements as f64), 0),
    ("accesses", |s| s.instrumented_accesses.map(|v| v as f64), 0),
];

/// The `--stats` table: one row per subfolder (sorted) and a total row. `tasks` counts the
/// results, `stats` those with measures, `formula` those with a formula size; each measure
/// is shown as `mean / median` over the tasks that have it (`-` for none).
pub fn stats_table(results: &[TaskResult]) -> String {
    let mut groups: BTreeMap<&str, Vec<&TaskResult>> = BTreeMap::new();
    for r in results {
        groups.entry(&r.subfolder).or_default().push(r);
    }
    let mut rows: Vec<(&str, Vec<&TaskResult>)> = groups.into_iter().collect();
    rows.push(("total", results.iter().collect()));
    let mut header: Vec<String> = ["subfolder", "tasks", "stats", "formula"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    header.extend(
        COLUMNS
            .iter()
            .map(|(h, _, _)| format!("{h} (mean / median)")),
    );
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|(name, rs)| {
            let stats: Vec<&TaskStats> = rs.iter().filter_map(|r| r.stats.as_ref()).collect();
            let mut row = vec![
                name.to_string(),
                rs.len().to_string(),
                stats.len().to_string(),
                stats
                    .iter()
                    .filter(|s| s.formula_clauses.is_some())
                    .count()
                    .to_string(),
            ];
            for (_, get, decimals) in COLUMNS {
                let xs: Vec<f64> = stats.iter().filter_map(|s| get(s)).collect();
                row.push(match mean_median(&xs) {
                    Some((mean, median)) => {
                        format!("{mean:.d$} / {median:.d$}", d = decimals)
                    }
                    None => "-".into(),
                });
            }
            row
        })
        .collect();
    markdown(&header, &body)
}

/// A Markdown table, the first column left-aligned and the others right-aligned.
pub(crate) fn markdown(header: &[String], body: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            body.iter()
                .map(|r| r[c].chars().count())
                .chain([header[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    let line = |out: &mut String, cells: &[String]| {
        for (c, cell) in cells.iter().enumerate() {
            if c == 0 {
                let _ = write!(out, "| {cell:<w$} ", w = widths[c]);
            } else {
                let _ = write!(out, "| {cell:>w$} ", w = widths[c]);
            }
        }
        out.push_str("|\n");
    };
    line(&mut out, header);
    for (c, w) in widths.iter().enumerate() {
        let dashes = "-".repeat(*w);
        if c == 0 {
            let _ = write!(out, "|-{dashes}-");
        } else {
            let _ = write!(out, "|-{dashes}:");
        }
    }
    out.push_str("|\n");
    for row in body {
        line(&mut out, row);
    }
    out
}

/// Mean formula sizes of the tasks that have one in both runs, at the same bounds (tasks
/// whose bounds both runs know and differ are left out: their formulas are not comparable).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SizeRatio {
    pub tasks: usize,
    /// Tasks with a formula in both runs left out because their bounds differ.
    pub other_bounds: usize,
    pub old_clauses: f64,
    pub new_clauses: f64,
    pub old_variables: f64,
    pub new_variables: f64,
}

impl SizeRatio {
    pub fn clauses(&self) -> f64 {
        self.new_clauses / self.old_clauses
    }

    pub fn variables(&self) -> f64 {
        self.new_variables / self.old_variables
    }
}

/// The [`SizeRatio`] of `new` against `old` (none when no task has a formula in both).
pub fn size_ratio(old: &[TaskResult], new: &[TaskResult]) -> Option<SizeRatio> {
    let old_by: BTreeMap<&str, &TaskStats> = old
        .iter()
        .filter_map(|r| Some((r.task.as_str(), r.stats.as_ref()?)))
        .collect();
    let mut pairs = vec![];
    let mut other_bounds = 0;
    for r in new {
        let (Some(n), Some(o)) = (r.stats.as_ref(), old_by.get(r.task.as_str())) else {
            continue;
        };
        let (Some(nc), Some(oc)) = (n.formula_clauses, o.formula_clauses) else {
            continue;
        };
        let known = |s: &TaskStats| s.rounds.zip(s.unwind);
        if let (Some(a), Some(b)) = (known(n), known(o)) {
            if a != b {
                other_bounds += 1;
                continue;
            }
        }
        let nv = n.formula_variables.unwrap_or(0);
        let ov = o.formula_variables.unwrap_or(0);
        pairs.push((oc as f64, nc as f64, ov as f64, nv as f64));
    }
    if pairs.is_empty() {
        return None;
    }
    let k = pairs.len() as f64;
    let mean = |f: fn(&(f64, f64, f64, f64)) -> f64| pairs.iter().map(f).sum::<f64>() / k;
    Some(SizeRatio {
        tasks: pairs.len(),
        other_bounds,
        old_clauses: mean(|p| p.0),
        new_clauses: mean(|p| p.1),
        old_variables: mean(|p| p.2),
        new_variables: mean(|p| p.3),
    })
}

/// The line on the ratio of mean formula sizes against `old_name`.
pub fn ratio_text(old: &[TaskResult], new: &[TaskResult], old_name: &str) -> String {
    let Some(r) = size_ratio(old, new) else {
        return format!("Formula size against {old_name}: no task has a formula in both runs\n");
    };
    let mut out = format!(
        "Formula size against {old_name} (means over the {} with a formula in both runs at the same bounds): clauses {:.0} → {:.0} (ratio {:.3}), variables {:.0} → {:.0} (ratio {:.3})\n",
        count(r.tasks, "task"),
        r.old_clauses,
        r.new_clauses,
        r.clauses(),
        r.old_variables,
        r.new_variables,
        r.variables(),
    );
    if r.other_bounds > 0 {
        let _ = writeln!(
            out,
            "  ({} with a formula in both runs at different bounds: not compared)",
            count(r.other_bounds, "task")
        );
    }
    out
}

/// `--stats-only RESULTS.json`: the stats table of a past run and, with `compare`, the
/// ratio of formula sizes against that older run.
pub fn stats_only(results: &Path, compare: Option<&Path>) -> Result<String, String> {
    let run = crate::read_run(results)?;
    let mut out = stats_table(&run.tasks);
    if let Some(c) = compare {
        let old: Run = crate::read_run(c)?;
        out.push('\n');
        out.push_str(&ratio_text(&old.tasks, &run.tasks, &c.to_string_lossy()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_median() {
        assert_eq!(mean_median(&[]), None);
        assert_eq!(mean_median(&[3.0]), Some((3.0, 3.0)));
        assert_eq!(mean_median(&[4.0, 1.0, 10.0]), Some((5.0, 4.0)));
        assert_eq!(mean_median(&[4.0, 1.0, 10.0, 2.0]), Some((4.25, 3.0)));
    }

    #[test]
    fn summary_lines() {
        let race = r#"{"verdict":"race","bounds":{"rounds":2,"unwind":2,"cut":false,"cuts":[]},
            "races":[{"accesses":[
              {"file":"a.c","line":3,"column":5,"kind":"write","atomic":false,"expr":"x",
               "thread":{"slot":1}},
              {"file":"a.c","line":9,"column":7,"kind":"read","atomic":true,"expr":"p->y",
               "thread":{"slot":2}}]}, {"accesses":[]}]}"#;
        assert_eq!(
            Document::parse(race).unwrap().summary(),
            "race: write of `x` at a.c:3:5 in thread 1 and atomic read of `p->y` at a.c:9:7 \
             in thread 2 (and 1 more race)"
        );
        let no_race = r#"{"verdict":"no-race","bounds":{"rounds":1,"unwind":3,"cut":true,
            "cuts":["loop","heap-size"]},"races":[]}"#;
        assert_eq!(
            Document::parse(no_race).unwrap().summary(),
            "no race found within 1 round and 3 unwindings (the bounds cut the program: loop, \
             heap-size)"
        );
        let unknown = r#"{"verdict":"unknown","reason":"CBMC ran out of time",
            "time_limit_s":20.0,"races":[]}"#;
        assert_eq!(
            Document::parse(unknown).unwrap().summary(),
            "unknown: CBMC ran out of time (time limit 20 s)"
        );
    }

    /// SV-COMP mode never answers `true` past the thread bound, nor for a vacuous answer.
    #[test]
    fn no_true_past_the_thread_bound() {
        let doc = |cuts: &str, vacuous: bool| {
            Document::parse(&format!(
                r#"{{"verdict":"no-race","bounds":{{"rounds":3,"unwind":3,"cut":true,
                    "vacuous":{vacuous},"cuts":[{cuts}]}},"races":[]}}"#
            ))
            .unwrap()
        };
        assert_eq!(
            doc(r#""loop","threads""#, false).no_svcomp_true(false),
            Some("the thread bound cut the program")
        );
        assert_eq!(doc(r#""loop""#, false).no_svcomp_true(false), None);
        assert_eq!(
            doc(r#""loop""#, true).no_svcomp_true(false),
            Some("vacuous")
        );
        // Deepened as SV-COMP mode does: no finished pair reaches SV-COMP's least bounds.
        assert_eq!(
            doc(r#""loop""#, false).no_svcomp_true(true),
            Some("its bounds are below 3 rounds and 4 unwindings")
        );
    }

    #[test]
    fn document_of_an_older_ladr_and_of_an_error() {
        // No instrumented_accesses, no bounds: still measures.
        let d = Document::parse(
            r#"{"verdict":"no-race","stats":{"translate_s":0.5,"cbmc_s":1.5,"slots":2,
                "visible_statements":9,"formula_variables":10,"formula_clauses":30}}"#,
        )
        .unwrap();
        let s = d.task_stats().unwrap();
        assert_eq!(
            (s.instrumented_accesses, s.formula_clauses, s.rounds),
            (None, Some(30), None)
        );
        let e = Document::parse(
            r#"{"verdict":"error","reason":"x","error":{"kind":"syntax"},"stats":{}}"#,
        )
        .unwrap();
        assert_eq!(e.task_stats(), None);
        assert!(Document::parse("race: write of `x` at a.c:3:5").is_none());
    }
}
