//! What a run yields: ladr's exit status classified as an [`Answer`], judged against the
//! expected verdict as a [`Status`] with SV-COMP's score, one [`TaskResult`] per task, the
//! whole [`Run`] as the results file (`--out`) holds it, and [`Tally`] sums over results.

use crate::stats::TaskStats;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What ladr answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    /// Exit 0: no race found.
    True,
    /// Exit 1: race found.
    False,
    /// Exit 3, or killed (time or memory limit, signal).
    Unknown,
    /// Exit 2 (input ladr cannot handle) or any other status.
    Error,
}

/// The answer from ladr's exit code; `None` means killed by a signal.
pub fn classify(code: Option<i32>) -> Answer {
    match code {
        Some(0) => Answer::True,
        Some(1) => Answer::False,
        Some(3) | None => Answer::Unknown,
        Some(_) => Answer::Error,
    }
}

/// The answer judged against the expected verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    CorrectTrue,
    CorrectFalse,
    /// Answered true, but the program has a race (a missed race).
    WrongTrue,
    /// Answered false, but the program has no race (a false alarm).
    WrongFalse,
    Unknown,
    Error,
}

impl Status {
    pub fn of(expected: bool, answer: Answer) -> Status {
        match (expected, answer) {
            (true, Answer::True) => Status::CorrectTrue,
            (false, Answer::False) => Status::CorrectFalse,
            (false, Answer::True) => Status::WrongTrue,
            (true, Answer::False) => Status::WrongFalse,
            (_, Answer::Unknown) => Status::Unknown,
            (_, Answer::Error) => Status::Error,
        }
    }

    /// SV-COMP's score.
    pub fn score(self) -> i64 {
        match self {
            Status::CorrectTrue => 2,
            Status::CorrectFalse => 1,
            Status::WrongTrue => -32,
            Status::WrongFalse => -16,
            Status::Unknown | Status::Error => 0,
        }
    }

    pub fn is_wrong(self) -> bool {
        matches!(self, Status::WrongTrue | Status::WrongFalse)
    }

    pub fn name(self) -> &'static str {
        match self {
            Status::CorrectTrue => "correct-true",
            Status::CorrectFalse => "correct-false",
            Status::WrongTrue => "wrong-true",
            Status::WrongFalse => "wrong-false",
            Status::Unknown => "unknown",
            Status::Error => "error",
        }
    }
}

/// One task's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    /// The task file relative to DIR.
    pub task: String,
    pub subfolder: String,
    /// The input file as passed to ladr.
    pub input: String,
    pub expected: bool,
    pub answer: Answer,
    pub status: Status,
    /// ladr's exit code; `null` if it was killed by a signal.
    #[serde(default)]
    pub exit_code: Option<i32>,
    /// The first line of ladr's stdout for a true/false answer (the verdict line); for
    /// unknown and error the first line of stderr (else stdout), or why it was killed.
    #[serde(default)]
    pub reason: Option<String>,
    pub wall_s: f64,
    #[serde(default)]
    pub cpu_s: f64,
    /// Peak resident memory of ladr plus its children (sampled), in MB.
    #[serde(default)]
    pub peak_mb: Option<f64>,
    /// The measures of ladr's JSON document (none: no document, an error before a verdict,
    /// or a results file older than this field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<TaskStats>,
}

/// The settings of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub ladr_version: String,
    /// Start of the run, seconds since the Unix epoch.
    pub date: u64,
    pub dir: String,
    pub filter: Option<String>,
    pub rounds: u32,
    pub unwind: u32,
    /// Per-task limit in seconds (ladr's `--timeout`; killed 10 s later).
    pub timeout_s: f64,
    /// Per-process virtual memory limit in MB.
    pub memory_mb: u64,
    pub jobs: u32,
    pub cbmc: String,
    /// ladr ran with `--deepen` (bounds grown from rounds/unwind while time lasted).
    #[serde(default)]
    pub deepen: bool,
    /// The ladr binary that was evaluated (`--ladr`; absent in older results files).
    #[serde(default)]
    pub ladr: Option<String>,
}

/// A whole run: what `--out` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub settings: Settings,
    /// False while the run is in progress (the file is rewritten after every task).
    pub complete: bool,
    /// Wall-clock seconds of the whole run.
    pub elapsed_s: f64,
    /// CPU seconds of all children of the run (`cutime + cstime` of `/proc/self/stat`).
    pub cpu_s: f64,
    /// Finished tasks in task order.
    pub tasks: Vec<TaskResult>,
}

/// Counts and sums over a set of results.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub correct_true: u32,
    pub correct_false: u32,
    pub wrong_true: u32,
    pub wrong_false: u32,
    pub unknown: u32,
    pub error: u32,
    /// Answered "no race in any execution" by the static proof (no CBMC ran): a part of
    /// the correct and wrong true answers.
    pub proved: u32,
    pub score: i64,
    pub cpu_s: f64,
    pub wall_s: f64,
}

impl Tally {
    pub fn add(&mut self, r: &TaskResult) {
        match r.status {
            Status::CorrectTrue => self.correct_true += 1,
            Status::CorrectFalse => self.correct_false += 1,
            Status::WrongTrue => self.wrong_true += 1,
            Status::WrongFalse => self.wrong_false += 1,
            Status::Unknown => self.unknown += 1,
            Status::Error => self.error += 1,
        }
        if r.stats.as_ref().is_some_and(|s| s.proved) {
            self.proved += 1;
        }
        self.score += r.status.score();
        self.cpu_s += r.cpu_s;
        self.wall_s += r.wall_s;
    }

    pub fn of<'a>(results: impl IntoIterator<Item = &'a TaskResult>) -> Tally {
        let mut t = Tally::default();
        for r in results {
            t.add(r);
        }
        t
    }

    pub fn tasks(&self) -> u32 {
        self.correct() + self.wrong() + self.unknown + self.error
    }

    pub fn correct(&self) -> u32 {
        self.correct_true + self.correct_false
    }

    pub fn wrong(&self) -> u32 {
        self.wrong_true + self.wrong_false
    }

    /// The integer columns of the table, with their headers.
    pub(crate) fn counts(&self) -> [(&'static str, i64); 8] {
        [
            ("correct true", self.correct_true.into()),
            ("proved", self.proved.into()),
            ("correct false", self.correct_false.into()),
            ("wrong true", self.wrong_true.into()),
            ("wrong false", self.wrong_false.into()),
            ("unknown", self.unknown.into()),
            ("error", self.error.into()),
            ("score", self.score),
        ]
    }
}

/// Reads a results file (`--out` of a past run).
pub(crate) fn read_run(path: &Path) -> Result<Run, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub(crate) fn write_json(path: &Path, run: &Run) -> Result<(), String> {
    let text = serde_json::to_string_pretty(run).map_err(|e| e.to_string())?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text + "\n")
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classification_and_scores() {
        assert_eq!(classify(Some(0)), Answer::True);
        assert_eq!(classify(Some(1)), Answer::False);
        assert_eq!(classify(Some(3)), Answer::Unknown);
        assert_eq!(classify(None), Answer::Unknown);
        assert_eq!(classify(Some(2)), Answer::Error);
        assert_eq!(classify(Some(101)), Answer::Error);
        let cases = [
            (true, Answer::True, Status::CorrectTrue, 2),
            (false, Answer::False, Status::CorrectFalse, 1),
            (false, Answer::True, Status::WrongTrue, -32),
            (true, Answer::False, Status::WrongFalse, -16),
            (true, Answer::Unknown, Status::Unknown, 0),
            (false, Answer::Error, Status::Error, 0),
        ];
        for (expected, answer, status, score) in cases {
            assert_eq!(Status::of(expected, answer), status);
            assert_eq!(status.score(), score);
        }
    }
}
