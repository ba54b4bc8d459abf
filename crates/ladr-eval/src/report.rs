//! What the run prints: the table per subfolder, the wrong answers and errors, the changes
//! against an earlier run, and the progress line on stderr.

use crate::results::{Status, Tally, TaskResult};
use crate::stats;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::time::{Duration, Instant};

/// A Markdown table: one row per subfolder (sorted) and a total row.
pub fn table(results: &[TaskResult]) -> String {
    let mut groups: BTreeMap<&str, Tally> = BTreeMap::new();
    for r in results {
        groups.entry(&r.subfolder).or_default().add(r);
    }
    let total = Tally::of(results);
    let mut rows: Vec<(&str, Tally)> = groups.into_iter().collect();
    rows.push(("total", total));

    let mut header: Vec<String> = vec!["subfolder".into()];
    header.extend(total.counts().iter().map(|(h, _)| h.to_string()));
    header.extend(["CPU s".into(), "wall s".into()]);
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|(name, t)| {
            let mut row = vec![name.to_string()];
            row.extend(t.counts().iter().map(|(_, n)| n.to_string()));
            row.push(format!("{:.1}", t.cpu_s));
            row.push(format!("{:.1}", t.wall_s));
            row
        })
        .collect();
    stats::markdown(&header, &body)
}

/// The wrong answers and the errors, one task a line with its reason.
pub fn problems(results: &[TaskResult]) -> String {
    let mut out = String::new();
    let wrong: Vec<&TaskResult> = results.iter().filter(|r| r.status.is_wrong()).collect();
    let errors: Vec<&TaskResult> = results
        .iter()
        .filter(|r| r.status == Status::Error)
        .collect();
    for (title, list) in [("Wrong answers", wrong), ("Errors", errors)] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{title} ({}):", list.len());
        for r in list {
            let detail = match r.status {
                Status::WrongTrue => "missed race".to_string(),
                Status::WrongFalse => "false alarm".to_string(),
                _ => match r.exit_code {
                    Some(c) => format!("exit {c}"),
                    None => "killed".to_string(),
                },
            };
            let reason = r.reason.as_deref().unwrap_or("");
            let _ = writeln!(
                out,
                "  {} ({}, {detail}): {reason}",
                r.task,
                r.status.name()
            );
        }
    }
    out
}

/// The tasks whose status differs between `old` and `new`, and the totals (over the tasks
/// in both runs) before and after.
pub fn compare(old: &[TaskResult], new: &[TaskResult], old_name: &str) -> String {
    let old_by: BTreeMap<&str, &TaskResult> = old.iter().map(|r| (r.task.as_str(), r)).collect();
    let new_names: BTreeSet<&str> = new.iter().map(|r| r.task.as_str()).collect();
    let mut out = String::new();
    let mut changed = vec![];
    let (mut old_common, mut new_common) = (vec![], vec![]);
    for r in new {
        if let Some(o) = old_by.get(r.task.as_str()) {
            old_common.push(*o);
            new_common.push(r);
            if o.status != r.status {
                changed.push((r, o.status));
            }
        }
    }
    let only_old = old
        .iter()
        .filter(|r| !new_names.contains(r.task.as_str()))
        .count();
    let only_new = new.len() - new_common.len();
    let _ = writeln!(
        out,
        "Changes against {old_name} ({} in both runs):",
        count(new_common.len(), "task")
    );
    if changed.is_empty() {
        out.push_str("  none\n");
    }
    for (r, was) in &changed {
        let _ = writeln!(out, "  {}: {} → {}", r.task, was.name(), r.status.name());
    }
    if only_old + only_new > 0 {
        let _ = writeln!(
            out,
            "  ({} only in {old_name}, {only_new} only in this run: not compared)",
            count(only_old, "task")
        );
    }
    let (a, b) = (Tally::of(old_common), Tally::of(new_common));
    let mut deltas: Vec<String> = a
        .counts()
        .iter()
        .zip(b.counts())
        .map(|((h, x), (_, y))| format!("{h} {x} → {y} ({:+})", y - x))
        .collect();
    deltas.push(format!(
        "CPU s {:.1} → {:.1} ({:+.1})",
        a.cpu_s,
        b.cpu_s,
        b.cpu_s - a.cpu_s
    ));
    let _ = writeln!(out, "Totals: {}", deltas.join(", "));
    out
}

/// `1 task`, `2 tasks`.
pub(crate) fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// `m:ss`, or `h:mm:ss` from one hour.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The progress line on stderr: rewritten in place on a terminal, else printed at every
/// tenth of the tasks.
pub(crate) struct Progress {
    total: usize,
    done: usize,
    start: Instant,
    tally: Tally,
    tty: bool,
    last_decile: usize,
}

impl Progress {
    /// The progress of `total` tasks started at `start`, none done.
    pub(crate) fn new(total: usize, start: Instant) -> Progress {
        Progress {
            total,
            done: 0,
            start,
            tally: Tally::default(),
            tty: std::io::stderr().is_terminal(),
            last_decile: 0,
        }
    }

    pub(crate) fn update(&mut self, r: &TaskResult) {
        self.done += 1;
        self.tally.add(r);
        let decile = self.done * 10 / self.total.max(1);
        if !self.tty && decile == self.last_decile && self.done < self.total {
            return;
        }
        self.last_decile = decile;
        let t = &self.tally;
        let mut name: String = r.task.clone();
        if name.chars().count() > 48 {
            let tail: String = name.chars().skip(name.chars().count() - 47).collect();
            name = format!("…{tail}");
        }
        let line = format!(
            "[{}/{}] {} correct {}, wrong {}, unknown {}, error {} — {name}",
            self.done,
            self.total,
            clock(self.start.elapsed()),
            t.correct(),
            t.wrong(),
            t.unknown,
            t.error
        );
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r{line}\x1b[K");
            if self.done == self.total {
                let _ = writeln!(err);
            }
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_format() {
        assert_eq!(clock(Duration::from_secs(41)), "0:41");
        assert_eq!(clock(Duration::from_secs(754)), "12:34");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
    }
}
