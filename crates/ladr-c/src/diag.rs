//! Errors that carry a location, and their rendering as codespan diagnostics.
//!
//! Passes report problems as [`Error`] values holding a lang-c [`Span`] of the parsed text;
//! only rendering (in the CLI) turns spans into file/line/column through the
//! [`SourceMap`]. No pass panics on unsupported input and none drops code silently.

use crate::origin::Origin;
use crate::source_map::{Loc, SourceMap};
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;
pub use codespan_reporting::term::termcolor::WriteColor;
use lang_c::span::Span;
use std::sync::Arc;

/// What kind of failure this is; decides the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad command line or unreadable input file (exit 2).
    Usage,
    /// The input is not C that ladr can read (exit 2).
    Syntax,
    /// A construct ladr does not support (exit 2).
    Unsupported,
    /// The back end gave no verdict (exit 3).
    Backend,
    /// The check needed more memory than its budget (`--memory`) (exit 3).
    Resources,
    /// A bug in ladr found by its own checks, such as an invariant a pass broke (exit 3).
    Internal,
}

impl ErrorKind {
    /// The check ran but gave no verdict (back end, memory budget, internal error: exit 3,
    /// verdict `unknown`), rather than refusing its input or command line (exit 2).
    pub fn no_verdict(self) -> bool {
        matches!(
            self,
            ErrorKind::Backend | ErrorKind::Internal | ErrorKind::Resources
        )
    }

    /// The exit status of a run that ended with this error: 3 without a verdict, else 2.
    pub fn exit_status(self) -> u8 {
        if self.no_verdict() {
            3
        } else {
            2
        }
    }
}

#[derive(Clone, Debug)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
    /// Where, in the parsed text, with a label.
    pub span: Option<(Span, String)>,
    pub notes: Vec<String>,
    /// The source map of the text `span` is in, for errors raised before there is a
    /// program to render them with (syntax errors): rendering prefers it to the caller's.
    pub source: Option<Arc<SourceMap>>,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            span: None,
            notes: vec![],
            source: None,
        }
    }

    /// An unsupported construct at `span`.
    pub fn unsupported(span: Span, what: impl Into<String>) -> Error {
        let what = what.into();
        Error {
            kind: ErrorKind::Unsupported,
            message: format!("unsupported: {what}"),
            span: Some((span, what)),
            notes: vec![],
            source: None,
        }
    }

    pub fn at(mut self, span: Span, label: impl Into<String>) -> Error {
        self.span = Some((span, label.into()));
        self
    }

    /// The error located at bytes `range` of `text`, the contents of `file` as read from
    /// disk (not a preprocessed program: a comment, a config line), with `label` there.
    pub fn in_file(
        mut self,
        file: &str,
        text: &str,
        range: std::ops::Range<usize>,
        label: impl Into<String>,
    ) -> Error {
        let map = SourceMap::new(text, file, vec![]).with_inputs(vec![file.to_string()]);
        self.span = Some((Span::span(range.start, range.end), label.into()));
        self.source = Some(Arc::new(map));
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Error {
        self.notes.push(note.into());
        self
    }

    /// Original location of the error in the user's source, if it has one (an error in
    /// generated or built-in code has none: its offsets are not offsets of `map`'s text).
    pub fn loc(&self, map: &SourceMap) -> Option<Loc> {
        let map = self.source.as_deref().unwrap_or(map);
        let (span, _) = self.span.as_ref()?;
        Origin::of(*span).source().map(|s| map.lookup(s.start))
    }

    /// One-line form `file:line:col: message`.
    pub fn one_line(&self, map: Option<&SourceMap>) -> String {
        match map.or(self.source.as_deref()).and_then(|m| self.loc(m)) {
            Some(l) => format!("{l}: {}", self.message),
            None => self.message.clone(),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Source texts for codespan: the real file when it is readable, else the lines the
/// preprocessed program shows.
pub struct SourceFiles {
    files: SimpleFiles<String, String>,
    ids: Vec<(String, usize)>,
}

/// `text` with the control characters that a terminal would obey (C0 but tab and newline,
/// DEL) shown as the Unicode control pictures, as rustc shows them (ESC → `␛`, BEL → `␇`,
/// DEL → `␡`): source lines, baselines and `ladr.toml` reasons come from the checked
/// repository, and `ESC [2J` or an OSC sequence printed raw would clear the screen, set the
/// window title or plant a link (issue 28).
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |c: char| (c < ' ' && c != '\n' && c != '\t') || c == '\u{7f}';
    if !text.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| match c {
            '\u{7f}' => '\u{2421}',
            c if hidden(c) => char::from_u32(0x2400 + c as u32).unwrap_or('?'),
            c => c,
        })
        .collect()
}

/// The byte offset in `line` as [`visible`] shows it of byte offset `col` of the line as
/// read: each control picture (3 bytes) stands for one byte.
fn shown_column(line: &str, col: usize) -> usize {
    let (mut read, mut shown) = (0, 0);
    for c in line.chars() {
        if read >= col {
            break;
        }
        let picture = ('\u{2400}'..='\u{241f}').contains(&c) || c == '\u{2421}';
        read += if picture { 1 } else { c.len_utf8() };
        shown += c.len_utf8();
    }
    shown
}

impl SourceFiles {
    pub fn new() -> SourceFiles {
        SourceFiles {
            files: SimpleFiles::new(),
            ids: vec![],
        }
    }

    /// The codespan file id for `file`, loading it on first use.
    pub fn id(&mut self, map: &SourceMap, file: &str) -> usize {
        if let Some((_, id)) = self.ids.iter().find(|(f, _)| f == file) {
            return *id;
        }
        let text = visible(&map.source_text(file).unwrap_or_default()).into_owned();
        let id = self.files.add(file.to_string(), text);
        self.ids.push((file.to_string(), id));
        id
    }

    /// Byte range of `loc` (to the end of its token-ish run) in the file's text.
    pub fn range(
        &mut self,
        map: &SourceMap,
        loc: &Loc,
        len: usize,
    ) -> (usize, std::ops::Range<usize>) {
        let id = self.id(map, &loc.file);
        let src = self
            .files
            .get(id)
            .map(|f| f.source().clone())
            .unwrap_or_default();
        let mut start = 0;
        for (n, l) in src.split_inclusive('\n').enumerate() {
            if n + 1 == loc.line as usize {
                let col =
                    shown_column(l, loc.column as usize - 1).min(l.trim_end_matches('\n').len());
                let s = start + col;
                let end = (s + len.max(1))
                    .min(start + l.trim_end_matches('\n').len())
                    .max(s);
                return (id, s..end);
            }
            start += l.len();
        }
        (id, src.len()..src.len())
    }

    pub fn emit<W: WriteColor>(&self, out: &mut W, d: &Diagnostic<usize>) {
        let config = term::Config::default();
        let _ = term::emit_to_write_style(out, &config, &self.files, d);
    }
}

impl Default for SourceFiles {
    fn default() -> Self {
        Self::new()
    }
}

/// Renders `err` as a codespan diagnostic.
pub fn render<W: WriteColor>(out: &mut W, err: &Error, map: Option<&SourceMap>) {
    let mut files = SourceFiles::new();
    let mut d = Diagnostic::error().with_message(&err.message);
    let map = err.source.as_deref().or(map);
    if let (Some(map), Some((span, label))) = (map, &err.span) {
        if let Some(span) = Origin::of(*span).source() {
            let loc = map.lookup(span.start);
            let len = span.end.saturating_sub(span.start);
            let (id, range) = files.range(map, &loc, len);
            d = d.with_labels(vec![Label::primary(id, range).with_message(label)]);
        }
    }
    d = d.with_notes(err.notes.clone());
    files.emit(out, &d);
}

#[cfg(test)]
mod visible_tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_as_pictures() {
        assert_eq!(
            visible("a\u{1b}[2Jb\u{7}\tc\n\u{7f}"),
            "a\u{241b}[2Jb\u{2407}\tc\n\u{2421}"
        );
        assert!(matches!(visible("plain"), std::borrow::Cow::Borrowed(_)));
        let line = "x\u{1b}y = 1;";
        let shown = visible(line);
        // `y` is byte 2 of the line as read, byte 4 as shown.
        assert_eq!(&shown[shown_column(&shown, 2)..][..1], "y");
    }
}
