//! CBMC's trace steps read in the user's terms, for the trace mapping ([`super::trace`]) and
//! the locks held ([`super::locks`]): the user's span behind a step, a CBMC text in the
//! user's names, the driver's calls of the slot functions (the contexts), positions.

use super::Position;
use crate::{Report, SEQ_FILE};
use ladr_c::source_map::Loc;
use ladr_c::syntax::names;
use ladr_cbmc::names as cbmc_names;
use ladr_cbmc::Step;
use ladr_ir::abi::{self, slot_function};
use lang_c::span::Span;
use std::path::Path;

/// A position of the user's source map as the answer gives it.
pub(crate) fn position(l: &Loc) -> Position {
    Position {
        file: l.file.clone(),
        line: l.line,
        column: l.column,
    }
}

/// A C text from CBMC (an lvalue or a value) in the user's names: renamed locals get their
/// own names back (`__ladr_3_pool` → `pool`) and CBMC's instance suffixes (`x!0@1`) go.
pub(super) fn user_text(text: &str) -> String {
    let text = cbmc_names::without_padding(text);
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(c) = rest.chars().next() {
        if c.is_ascii_alphabetic() || c == '_' {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let word = &rest[..end];
            rest = &rest[end..];
            match word {
                // CBMC's heap objects: `dynamic_object$0`.
                cbmc_names::HEAP_OBJECT => match cbmc_names::heap_object_number(rest) {
                    Some((n, after)) => {
                        out.push_str(&format!("(heap object {n})"));
                        rest = after;
                    }
                    None => out.push_str("(heap object)"),
                },
                w if w == abi::ARGV => out.push_str("(the command-line arguments)"),
                w if names::is_internal(w) => out.push_str("(an object of ladr's model)"),
                w => out.push_str(names::original_name(w)),
            }
            rest = cbmc_names::skip_renaming(rest);
        } else if c.is_ascii_digit() {
            // A number (`1l`, `0x10`): copied whole, so its suffix is not a name.
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
                .unwrap_or(rest.len());
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// (slot, round, start, end) of the driver's calls of slot functions, in trace order; the
/// round (1-based) from the context number the driver sets before each call.
pub(super) fn context_ranges(trace: &[Step], slots: usize) -> Vec<(usize, usize, usize, usize)> {
    let names: Vec<String> = (0..slots).map(slot_function).collect();
    let mut out = vec![];
    let mut open: Option<(usize, usize)> = None;
    let mut round = 1;
    for (i, s) in trace.iter().enumerate() {
        match s.kind.as_str() {
            "assignment" if s.lhs.as_deref() == Some(abi::CONTEXT) => {
                if let Some(cx) = s.unsigned_value() {
                    round = cx as usize / slots.max(1) + 1;
                }
            }
            "function-call" => {
                if let Some(k) = s
                    .callee
                    .as_deref()
                    .and_then(|c| names.iter().position(|n| n == c))
                {
                    open = Some((k, i));
                }
            }
            "function-return" => {
                if let (Some((k, start)), Some(c)) = (open, s.callee.as_deref()) {
                    if names[k] == c {
                        out.push((k, round, start, i));
                        open = None;
                    }
                }
            }
            _ => {}
        }
    }
    if let Some((k, start)) = open {
        out.push((k, round, start, trace.len()));
    }
    out
}

/// The span in the user's source behind a step: its line of the sequential program
/// (1-based) came from the user's text (not from the model, generated code or another file).
pub(super) fn user_span(report: &Report, s: &Step) -> Option<Span> {
    let file = Path::new(s.file.as_deref()?).file_name()?;
    if file != SEQ_FILE {
        return None;
    }
    let line = s.line? as usize;
    let span = report.origins.get(line.checked_sub(1)?)?.source()?;
    (span.end > span.start).then_some(span)
}
