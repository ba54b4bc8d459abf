//! Where a node, and so a printed line, came from.
//!
//! Every span of the program lives in one offset space. Offsets below [`BUILTIN_BASE`] are
//! offsets into the user's parsed text (read back through its `SourceMap`); the C text ladr
//! embeds and parses itself (the pthread model) is parsed with [`builtin_unit`], which moves
//! its spans to `BUILTIN_BASE` and above, so its lines can never be mistaken for lines of the
//! user's files; a node built without a source (`Span::none()`) is generated code. The
//! printer records an [`Origin`] for every line it writes.
//!
//! ```text
//! span 120..135                        → Origin::Source(120..135)   (the user's text)
//! span BUILTIN_BASE+40..BUILTIN_BASE+52 → Origin::Builtin(40..52)   (offsets in the model's text)
//! Span::none()                          → Origin::Generated
//! ```

use crate::diag::Result;
use crate::syntax::walk::visit_mut::{self, VisitorMut};
use crate::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::convert::Infallible;

/// The first offset of embedded (built-in) C text; far above any user file.
pub const BUILTIN_BASE: usize = 1 << 40;

/// Where a node came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Origin {
    /// The user's program: a span of the parsed text.
    Source(Span),
    /// C text ladr embeds (the pthread model): a span of that text.
    Builtin(Span),
    /// Built by a pass, with no source of its own.
    Generated,
}

impl Origin {
    /// The origin of a node with span `span`.
    pub fn of(span: Span) -> Origin {
        if span.is_none() {
            Origin::Generated
        } else if span.start >= BUILTIN_BASE {
            Origin::Builtin(Span::span(
                span.start - BUILTIN_BASE,
                span.end - BUILTIN_BASE,
            ))
        } else {
            Origin::Source(span)
        }
    }

    /// The span in the user's text, if the node came from there.
    pub fn source(self) -> Option<Span> {
        match self {
            Origin::Source(s) => Some(s),
            _ => None,
        }
    }
}

/// Parses embedded C text (already preprocessed) as built-in code: every node's span is
/// moved into the built-in region. `name` names the text in parse errors.
pub fn builtin_unit(text: &str, name: &str) -> Result<TranslationUnit> {
    let (_, mut unit, _) = crate::frontend::parse_text(text, name)?;
    shift_spans(&mut unit, BUILTIN_BASE);
    Ok(unit)
}

/// Moves the spans of a unit's external declarations, statements, declarations,
/// declarators, type names and expressions (every span the printer and the passes record)
/// `by` bytes up: into the built-in region, or past the texts of the files linked before
/// it (`frontend::link`).
pub fn shift_spans(unit: &mut TranslationUnit, by: usize) {
    let mut shift = Shift(by);
    for ext in &mut unit.0 {
        ext.span = shift.span(ext.span);
        if let ExternalDeclaration::FunctionDefinition(f) = &mut ext.node {
            f.span = shift.span(f.span);
        }
    }
    let Ok(()) = visit_mut::unit(&mut shift, unit);
}

struct Shift(usize);

impl Shift {
    fn span(&self, s: Span) -> Span {
        if s.is_none() {
            s
        } else {
            Span::span(s.start + self.0, s.end + self.0)
        }
    }
}

impl VisitorMut for Shift {
    type Error = Infallible;
    fn expr(&mut self, e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
        e.span = self.span(e.span);
        Ok(Walk::Descend)
    }
    fn stmt(&mut self, s: &mut Node<Statement>) -> std::result::Result<Walk, Infallible> {
        s.span = self.span(s.span);
        Ok(Walk::Descend)
    }
    fn declaration(&mut self, d: &mut Node<Declaration>) -> std::result::Result<Walk, Infallible> {
        d.span = self.span(d.span);
        Ok(Walk::Descend)
    }
    fn declarator(&mut self, d: &mut Node<Declarator>) -> std::result::Result<Walk, Infallible> {
        d.span = self.span(d.span);
        Ok(Walk::Descend)
    }
    fn type_name(&mut self, t: &mut Node<TypeName>) -> std::result::Result<Walk, Infallible> {
        t.span = self.span(t.span);
        Ok(Walk::Descend)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::print_unit;

    #[test]
    fn builtin_lines_are_builtin_and_user_lines_are_source() {
        let unit = builtin_unit("int f(int x) {\n  return x + 1;\n}\n", "<model>").unwrap();
        let p = print_unit(&unit);
        assert!(p.origins.iter().all(|o| !matches!(o, Origin::Source(_))));
        assert!(p.origins.iter().any(|o| matches!(o, Origin::Builtin(_))));
        let (_, unit, _) =
            crate::frontend::parse_text("int g;\nint h(void) { return g; }\n", "t.c").unwrap();
        let p = print_unit(&unit);
        assert!(p.origins.iter().any(|o| matches!(o, Origin::Source(_))));
        assert!(p.origins.iter().all(|o| !matches!(o, Origin::Builtin(_))));
        assert_eq!(Origin::of(Span::none()), Origin::Generated);
    }
}
