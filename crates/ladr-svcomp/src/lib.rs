//! SV-COMP mode: the property file, task files (`.yml`) and the verdict line.
//!
//! `ladr --svcomp --property-file no-data-race.prp [--32|--64] FILE|TASK.yml` checks FILE
//! (or the task's input file, with the task's data model) and ends its output with
//! `SV-COMP result: false(no-data-race)`, `true` or `unknown`. Only the no-data-race
//! property is supported; any other property file is refused.
//!
//! Architecture invariant: SV-COMP's formats only (task files in [`task`], the property,
//! the result line); it does not know the evaluation harness (`ladr-eval` depends on it,
//! not the other way round).

pub mod task;

use crate::task::yaml::{self, Value};
use ladr_c::diag::{Error, ErrorKind, Result};
use std::path::{Path, PathBuf};

/// The formula of SV-COMP's no-data-race property.
pub const DATA_RACE_FORMULA: &str = "CHECK( init(main()), LTL(G ! data-race) )";

pub use crate::task::DataModel;

/// What to check: the input file and, from a task file, its data model.
#[derive(Clone, Debug)]
pub struct Input {
    pub file: PathBuf,
    pub data_model: Option<DataModel>,
    /// The property file a task file names for no-data-race (if it is a task file).
    pub property: Option<PathBuf>,
}

/// Resolves FILE: a task `.yml` gives its single input file (relative to the task file),
/// its data model and its no-data-race property file; anything else is the input itself.
pub fn input(file: &Path) -> Result<Input> {
    let is_task = matches!(
        file.extension().and_then(|e| e.to_str()),
        Some("yml" | "yaml")
    );
    if !is_task {
        return Ok(Input {
            file: file.to_path_buf(),
            data_model: None,
            property: None,
        });
    }
    let text = std::fs::read_to_string(file).map_err(|e| {
        Error::new(
            ErrorKind::Usage,
            format!("cannot read {}: {e}", file.display()),
        )
    })?;
    let doc = yaml::parse(&text);
    let dir = file.parent().unwrap_or(Path::new("."));
    let bad = |what: String| Error::new(ErrorKind::Usage, format!("{}: {what}", file.display()));
    let input = crate::task::input_file(&doc).map_err(bad)?;
    let data_model = crate::task::data_model(&doc).map_err(bad)?;
    let property = match doc.get("properties") {
        Some(Value::List(props)) => props
            .iter()
            .filter_map(|p| p.get("property_file").and_then(Value::as_str))
            .find(|f| f.ends_with("no-data-race.prp"))
            .map(|f| dir.join(f)),
        _ => None,
    };
    Ok(Input {
        file: dir.join(input),
        data_model,
        property,
    })
}

/// Accepts a property file only if it is the no-data-race property.
pub fn check_property(path: &Path) -> Result<()> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::new(
            ErrorKind::Usage,
            format!("cannot read property file {}: {e}", path.display()),
        )
    })?;
    let normal = |s: &str| s.split_whitespace().collect::<String>();
    if normal(&text) == normal(DATA_RACE_FORMULA) {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::Usage,
        format!(
            "property file {} is not the no-data-race property; ladr checks only `{}` (found `{}`)",
            path.display(),
            DATA_RACE_FORMULA,
            text.trim()
        ),
    ))
}

/// The last line of SV-COMP mode for a verdict (`race`, `no-race`, `unknown`).
pub fn result_line(verdict: &str) -> &'static str {
    match verdict {
        "race" => "SV-COMP result: false(no-data-race)",
        "no-race" => "SV-COMP result: true",
        _ => "SV-COMP result: unknown",
    }
}

/// What a bounded "no race" leaves out, for the rule of SV-COMP's `true`.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoRaceBounds {
    /// No execution within the bounds created a thread.
    pub vacuous: bool,
    /// The thread bound (`--max-threads`) left threads out.
    pub threads_cut: bool,
    /// The answer is the probe's, whose loops of a constant bound were cut.
    pub probe: bool,
    /// The answer holds for SV-COMP's least bounds ([`reaches_least_bounds`]).
    pub least_bounds: bool,
    /// The static proof answered: every execution, no bounds.
    pub proved: bool,
}

/// The least bounds a "no race" must hold for to be SV-COMP's `true`: 3 rounds and 4
/// unwindings (the deepening's fourth pair). Every racy task of `../shared/svcomp` has its
/// race found by then (88 of 93 at 2/2, four at 3/2, thread-join-binomial-race-2 at 3/4:
/// its race needs four threads of a creation loop of nondeterministic length). Without it
/// the answer hung on the load: a deepening that the time limit stopped at 3/3 answered
/// `true` for that task. Below these bounds the answer is `unknown`: it no longer depends
/// on how far the time let the deepening go, only whether it got there.
pub const TRUE_LEAST_BOUNDS: (u32, u32) = (3, 4);

/// The deepening steps of SV-COMP mode (and of `ladr eval`, which judges tasks as SV-COMP
/// does) unless asked otherwise: from 2/2 up to 5/4, past [`TRUE_LEAST_BOUNDS`], in its
/// 900 s. `ladr FILE` stops at 3/4 (`ladr_check::DEEPEN_STEPS`).
pub const DEEPEN_STEPS: u32 = 6;

/// Whether one of the bound pairs a "no race" holds for (the deepening's finished pairs)
/// has at least [`TRUE_LEAST_BOUNDS`]' rounds and unwindings.
pub fn reaches_least_bounds(finished: &[[u32; 2]]) -> bool {
    let (r, u) = TRUE_LEAST_BOUNDS;
    finished
        .iter()
        .any(|&[rounds, unwind]| rounds >= r && unwind >= u)
}

/// Why a bounded "no race" is no `true` in SV-COMP's terms, which claim every execution
/// (SV-COMP mode answers `unknown` for it); `None`: it may be answered `true`. The one
/// place of this rule: SV-COMP mode and `ladr eval` both ask it.
pub fn no_true_because(b: NoRaceBounds) -> Option<&'static str> {
    if b.proved {
        None
    } else if b.vacuous {
        Some("vacuous")
    } else if b.threads_cut {
        Some("the thread bound cut the program")
    } else if b.probe {
        Some("the probe's, with loops of a constant bound cut")
    } else if !b.least_bounds {
        Some("its bounds are below 3 rounds and 4 unwindings")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_file_gives_input_data_model_and_property() {
        let dir = tempfile::tempdir().unwrap();
        let yml = dir.path().join("t.yml");
        std::fs::write(
            &yml,
            "format_version: '2.0'\ninput_files: 'a.i'\nproperties:\n#  - property_file: ../properties/unreach-call.prp\n  - property_file: ../properties/no-data-race.prp\n    expected_verdict: false\noptions:\n  language: C\n  data_model: ILP32\n",
        )
        .unwrap();
        let i = input(&yml).unwrap();
        assert_eq!(i.file, dir.path().join("a.i"));
        assert_eq!(i.data_model, Some(DataModel::ILP32));
        assert_eq!(
            i.property,
            Some(dir.path().join("../properties/no-data-race.prp"))
        );
    }

    #[test]
    fn true_needs_the_least_bounds() {
        let at = |finished: &[[u32; 2]]| {
            no_true_because(NoRaceBounds {
                least_bounds: reaches_least_bounds(finished),
                ..NoRaceBounds::default()
            })
        };
        assert!(at(&[[2, 2]]).is_some());
        assert!(at(&[[2, 2], [3, 2], [3, 3]]).is_some());
        assert!(at(&[[4, 2]]).is_some());
        assert!(at(&[[2, 9]]).is_some());
        assert_eq!(at(&[[2, 2], [3, 2], [3, 3], [3, 4]]), None);
        assert_eq!(at(&[[2, 2], [3, 2], [3, 3], [3, 4], [4, 2]]), None);
        assert_eq!(at(&[[5, 4]]), None);
        // A proof needs no bounds.
        let proved = NoRaceBounds {
            proved: true,
            ..NoRaceBounds::default()
        };
        assert_eq!(no_true_because(proved), None);
        let vacuous = NoRaceBounds {
            vacuous: true,
            least_bounds: true,
            ..NoRaceBounds::default()
        };
        assert_eq!(no_true_because(vacuous), Some("vacuous"));
    }

    #[test]
    fn only_the_data_race_property_is_accepted() {
        let dir = tempfile::tempdir().unwrap();
        let race = dir.path().join("race.prp");
        std::fs::write(&race, "CHECK( init(main()), LTL(G ! data-race) )\n").unwrap();
        assert!(check_property(&race).is_ok());
        let reach = dir.path().join("reach.prp");
        std::fs::write(
            &reach,
            "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
        )
        .unwrap();
        let e = check_property(&reach).unwrap_err();
        assert!(
            e.message.contains("not the no-data-race property"),
            "{}",
            e.message
        );
    }
}
