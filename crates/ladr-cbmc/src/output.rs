//! Reading CBMC's output: the verdict from its exit status and its `--json-ui` messages
//! and properties ([`interpret`]), the counterexample's steps as plain [`Step`]s, the size of
//! the propositional formula, and why a run gave no verdict in a line a user can read.

use crate::{FormulaSize, Step, Verdict};
use serde::Deserialize;

/// Reads the verdict and formula size from a finished CBMC run's exit code and output.
/// Public so recorded outputs can be interpreted without running CBMC.
pub fn interpret(
    exit_code: Option<i32>,
    stdout: &str,
    stderr: &str,
) -> (Verdict, Option<FormulaSize>) {
    // CBMC writes some string values (char arrays in a trace) with raw control characters,
    // which JSON forbids: blank them (line breaks between values are kept).
    let cleaned: std::borrow::Cow<str> = if stdout
        .bytes()
        .any(|b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t'))
    {
        stdout
            .chars()
            .map(|c| {
                if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') {
                    ' '
                } else {
                    c
                }
            })
            .collect::<String>()
            .into()
    } else {
        stdout.into()
    };
    let messages: Result<Vec<Message>, _> = serde_json::from_str(&cleaned);
    let formula = messages.as_ref().ok().and_then(|ms| {
        ms.iter()
            .rev()
            .find_map(|m| formula_size(m.message_text.as_deref()?))
    });
    let unknown = |why: String| Verdict::Unknown { reason: why };
    let verdict = match (exit_code, &messages) {
        (Some(0), Ok(ms)) => match ms.iter().flat_map(Message::properties).find(|p| p.failed()) {
            None => Verdict::Verified,
            Some(p) => unknown(format!(
                "CBMC exited with 0 but reports property {} as {}",
                p.property, p.status
            )),
        },
        (Some(10), Ok(ms)) => match ms.iter().flat_map(Message::properties).find(|p| p.failed()) {
            Some(p) => Verdict::Violated {
                property: p.property.clone(),
                description: p.description.clone().unwrap_or_default(),
                trace: p.trace.iter().flatten().map(RawStep::to_step).collect(),
            },
            None => unknown("CBMC exited with 10 but reports no failed property".into()),
        },
        (code, _) if out_of_memory(stdout, stderr).is_some() => {
            let phase = out_of_memory(stdout, stderr).unwrap_or(Phase::FrontEnd);
            let status = code.map_or("no exit status".into(), |c| format!("exit {c}"));
            unknown(format!(
                "CBMC ran out of memory in {} ({status})",
                phase.words()
            ))
        }
        (code, Ok(ms)) => {
            let errors: Vec<String> = ms.iter().filter_map(Message::error_text).collect();
            let what = if errors.is_empty() {
                tail(stderr, stdout)
            } else {
                errors.join("; ")
            };
            unknown(format!("{}: {what}", describe_exit(code)))
        }
        (code @ (Some(0) | Some(10)), Err(e)) => unknown(format!(
            "{} but its JSON output could not be read ({e}): {}",
            describe_exit(code),
            tail(stderr, stdout)
        )),
        (code, Err(_)) => unknown(format!(
            "{}: {}",
            describe_exit(code),
            last_words(stderr, stdout)
        )),
    };
    (verdict, formula)
}

pub(crate) fn describe_exit(code: Option<i32>) -> String {
    match code {
        Some(6) => "CBMC could not read the program (exit 6)".into(),
        Some(64) => "CBMC rejected its command line (exit 64)".into(),
        Some(134) => "CBMC crashed (exit 134)".into(),
        Some(c) => format!("CBMC exited with status {c}"),
        None => "CBMC did not exit normally".into(),
    }
}

/// What CBMC said last before it stopped: the last lines of stderr, else the text of the
/// last message of its (cut off) JSON output, else its last lines.
pub(crate) fn last_words(stderr: &str, stdout: &str) -> String {
    const TEXT: &str = "\"messageText\": \"";
    // CBMC's own bug report: where and which invariant, not its backtrace.
    if let Some(at) = stderr.find("Invariant check failed") {
        let report = &stderr[at..];
        let field = |name: &str| {
            report
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .map(str::trim)
        };
        let file = field("File:").map(|f| f.split(" function:").next().unwrap_or(f));
        return format!(
            "an invariant of CBMC failed{}{}",
            file.map(|f| format!(" at {f}")).unwrap_or_default(),
            field("Condition:")
                .map(|c| format!(": {c}"))
                .unwrap_or_default()
        );
    }
    if stderr.trim().is_empty() {
        if let Some(at) = stdout.rfind(TEXT) {
            let rest = &stdout[at + TEXT.len()..];
            // Up to the closing quote (an escaped quote `\"` is part of the text).
            let mut end = rest.len();
            let mut escaped = false;
            for (i, c) in rest.char_indices() {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        end = i;
                        break;
                    }
                    _ => escaped = false,
                }
            }
            return format!("its last message: {}", &rest[..end]);
        }
    }
    tail(stderr, stdout)
}

/// The last few non-empty lines of stderr, or of stdout if stderr is empty.
pub(crate) fn tail(stderr: &str, stdout: &str) -> String {
    let text = if stderr.trim().is_empty() {
        stdout
    } else {
        stderr
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return "no output".into();
    }
    lines[lines.len().saturating_sub(5)..].join(" | ")
}

/// Parses CBMC's "2026 variables, 9349 clauses".
pub(crate) fn formula_size(text: &str) -> Option<FormulaSize> {
    let (vars, rest) = text.trim().split_once(" variables, ")?;
    let clauses = rest.strip_suffix(" clauses")?;
    Some(FormulaSize {
        variables: vars.parse().ok()?,
        clauses: clauses.parse().ok()?,
    })
}

/// One element of CBMC's `--json-ui` array. Every element has exactly one of these
/// groups of fields; all are optional so unknown shapes are ignored.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Message {
    message_text: Option<String>,
    message_type: Option<String>,
    source_location: Option<RawLocation>,
    /// `{"result": [...]}`: property statuses (no `--stop-on-fail`, or all passed).
    result: Option<Vec<Property>>,
    /// With `--stop-on-fail`, a failed property is printed as an element of its own.
    #[serde(flatten)]
    property: Option<Property>,
}

impl Message {
    fn properties(&self) -> impl Iterator<Item = &Property> {
        self.result.iter().flatten().chain(self.property.as_ref())
    }

    fn error_text(&self) -> Option<String> {
        if self.message_type.as_deref() != Some("ERROR") {
            return None;
        }
        let text = self.message_text.clone()?;
        Some(match &self.source_location {
            Some(RawLocation {
                file: Some(f),
                line: Some(l),
                ..
            }) => format!("{f}:{}: {text}", l.0),
            _ => text,
        })
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct Property {
    property: String,
    status: String,
    description: Option<String>,
    trace: Option<Vec<RawStep>>,
}

impl Property {
    /// `FAILURE` in a `result` list, `failed` in a `--stop-on-fail` element.
    fn failed(&self) -> bool {
        self.status.eq_ignore_ascii_case("failure") || self.status.eq_ignore_ascii_case("failed")
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawStep {
    step_type: String,
    #[serde(default)]
    thread: u32,
    #[serde(default)]
    hidden: bool,
    source_location: Option<RawLocation>,
    /// `function-call`/`function-return`: `{ "identifier": …, "displayName": … }`.
    function: Option<RawFunction>,
    lhs: Option<String>,
    value: Option<serde_json::Value>,
}

impl RawStep {
    fn to_step(&self) -> Step {
        let loc = self.source_location.as_ref();
        Step {
            kind: self.step_type.clone(),
            file: loc.and_then(|l| l.file.clone()),
            line: loc.and_then(|l| l.line).map(|n| n.0),
            column: loc.and_then(|l| l.column).map(|n| n.0),
            function: loc.and_then(|l| l.function.clone()),
            callee: self.function.as_ref().and_then(|f| f.identifier.clone()),
            lhs: self.lhs.clone(),
            value: self.value.as_ref().map(render_value),
            thread: self.thread,
            hidden: self.hidden,
        }
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawFunction {
    identifier: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawLocation {
    file: Option<String>,
    function: Option<String>,
    line: Option<Num>,
    column: Option<Num>,
}

/// A number CBMC may print as a JSON string (`"line": "24"`) or as a number.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Num(u32);

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::Number(n) => n
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(Num)
                .ok_or_else(|| D::Error::custom("line/column out of range")),
            serde_json::Value::String(s) => s.trim().parse().map(Num).map_err(D::Error::custom),
            other => Err(D::Error::custom(format!("expected a number, got {other}"))),
        }
    }
}

/// CBMC's printed form of a trace value: its `data` string; structs and arrays (which
/// have `members`/`elements` instead) rendered from their parts; otherwise its `name`
/// (e.g. `unknown`).
/// A pointer value as C: CBMC writes a pointer to a whole object as the object's name
/// (`x`), so it becomes `&x`; `NULL` (also as `((int *)NULL)`) and already-formed
/// expressions (`&a[1]`, `x + 4`) stay as they are.
pub(crate) fn render_pointer(data: &str) -> String {
    if data.contains("NULL") {
        return "NULL".into();
    }
    let object = data
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && data
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_$!@#".contains(c));
    if object && !data.starts_with("INVALID") {
        format!("&{data}")
    } else {
        data.to_string()
    }
}

pub(crate) fn render_value(v: &serde_json::Value) -> String {
    let pointer = v.get("name").and_then(|n| n.as_str()) == Some("pointer");
    match v.get("data") {
        Some(serde_json::Value::String(data)) if pointer => return render_pointer(data),
        Some(serde_json::Value::String(data)) => return data.clone(),
        // Booleans (and numbers) come as JSON values, not strings.
        Some(serde_json::Value::Bool(b)) => return b.to_string(),
        Some(serde_json::Value::Number(n)) => return n.to_string(),
        _ => {}
    }
    let parts = |key: &str, label: &dyn Fn(&serde_json::Value) -> String| {
        v.get(key).and_then(|m| m.as_array()).map(|items| {
            let inner: Vec<String> = items
                .iter()
                .map(|item| {
                    let val = item.get("value").map(render_value).unwrap_or_default();
                    format!("{}={val}", label(item))
                })
                .collect();
            format!("{{ {} }}", inner.join(", "))
        })
    };
    let member = |m: &serde_json::Value| {
        format!(".{}", m.get("name").and_then(|n| n.as_str()).unwrap_or("?"))
    };
    let index = |e: &serde_json::Value| {
        format!(
            "[{}]",
            e.get("index").map(|i| i.to_string()).unwrap_or_default()
        )
    };
    parts("members", &member)
        .or_else(|| parts("elements", &index))
        .or_else(|| v.get("name").and_then(|n| n.as_str()).map(str::to_string))
        .unwrap_or_else(|| v.to_string())
}

/// The phase a CBMC run had reached when it was stopped, from the progress messages of its
/// `--json-ui` output so far (they are written as each phase starts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Reading and type-checking the program, building its GOTO program.
    FrontEnd,
    /// Symbolic execution: unrolling the program into equations.
    SymbolicExecution,
    /// Turning the equations into a propositional formula.
    Formula,
    /// The SAT solver on the formula.
    Solving,
}

impl Phase {
    /// The phase in words ("its symbolic execution").
    pub fn words(self) -> &'static str {
        match self {
            Phase::FrontEnd => "its front end (reading the program)",
            Phase::SymbolicExecution => "its symbolic execution",
            Phase::Formula => "building the formula",
            Phase::Solving => "the SAT solver",
        }
    }
}

/// Seconds CBMC reports it spent in each phase (its `Runtime …` messages at verbosity 8;
/// wall-clock time, summed over the solver calls of one run). `None` for a phase CBMC did
/// not finish.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhaseTimes {
    /// Symbolic execution (`Runtime Symex`).
    pub symex: Option<f64>,
    /// From SSA to the propositional formula (`Runtime Convert SSA`).
    pub convert: Option<f64>,
    /// The SAT solver (`Runtime Solver`; with an external solver also writing and reading
    /// its files).
    pub sat: Option<f64>,
}

/// The [`PhaseTimes`] CBMC's output `stdout` reports.
pub fn phase_times(stdout: &str) -> PhaseTimes {
    let sum = |name: &str| -> Option<f64> {
        let key = format!("\"messageText\": \"Runtime {name}: ");
        let mut total = None;
        for (at, _) in stdout.match_indices(&key) {
            let rest = &stdout[at + key.len()..];
            let number = rest.split('s').next().unwrap_or("");
            if let Ok(v) = number.trim().parse::<f64>() {
                *total.get_or_insert(0.0) += v;
            }
        }
        total
    };
    PhaseTimes {
        symex: sum("Symex"),
        convert: sum("Convert SSA"),
        sat: sum("Solver"),
    }
}

/// The phase in which CBMC ran out of memory, if its output says it did: its errors
/// "SAT checker ran out of memory" (the solver) and "Out of memory" (any phase; CBMC then
/// exits with 6, the status it also gives a program it cannot read). `None` otherwise.
pub fn out_of_memory(stdout: &str, stderr: &str) -> Option<Phase> {
    const SAT: &str = "SAT checker ran out of memory";
    let error = |text: &str| {
        [stdout, stderr].iter().any(|out| {
            out.contains(&format!("\"messageText\": \"{text}\""))
                || out.lines().any(|l| l.trim() == text)
        })
    };
    if error(SAT) {
        Some(Phase::Solving)
    } else if error("Out of memory") {
        Some(phase_reached(stdout))
    } else {
        None
    }
}

/// The phase CBMC's output `stdout` shows it reached last ([`Phase`]).
pub fn phase_reached(stdout: &str) -> Phase {
    let said = |m: &str| stdout.contains(&format!("\"messageText\": \"{m}"));
    if said("Running propositional reduction") || said("Solving with") {
        Phase::Solving
    } else if said("Passing problem to propositional reduction") || said("converting SSA") {
        Phase::Formula
    } else if said("Starting Bounded Model Checking") {
        Phase::SymbolicExecution
    } else {
        Phase::FrontEnd
    }
}
