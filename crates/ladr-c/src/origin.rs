//! Where a node, and so a printed line, came from.
//!
//! Every span of the program lives in one offset space. Offsets below [`BUILTIN_BASE`] are
//! offsets into the user's parsed text (read back through its `SourceMap`); the C text ladr
//! embeds and parses itself (the pthread model) is parsed with
//! [`crate::frontend::builtin_unit`], which moves its spans to `BUILTIN_BASE` and above, so its
//! lines can never be mistaken for lines of the user's files; a node built without a source
//! (`Span::none()`) is generated code. The printer records an [`Origin`] for every line it
//! writes.
//!
//! This module is the lowest of the C layer's bookkeeping: it uses only the AST walker, and
//! `diag` and `frontend` build on it.
//!
//! ```text
//! span 120..135                        → Origin::Source(120..135)   (the user's text)
//! span BUILTIN_BASE+40..BUILTIN_BASE+52 → Origin::Builtin(40..52)   (offsets in the model's text)
//! Span::none()                          → Origin::Generated
//! ```

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

/// Moves the spans of a unit's external declarations, statements, declarations,
/// declarators, type names and expressions, and of the nodes inside them that the passes
/// and diagnostics read (calls, identifiers, operators, initialisers, labels) `by` bytes up: into the built-in region, or past the texts of the files linked before
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

impl Shift {
    fn node<T>(&self, n: &mut Node<T>) {
        n.span = self.span(n.span);
    }

    /// The spans of an initializer that the walk does not hand to a hook (the expressions
    /// in it are shifted by the `expr` hook).
    fn initializer(&self, i: &mut Node<Initializer>) {
        self.node(i);
        if let Initializer::List(items) = &mut i.node {
            for it in items {
                self.init_item(it);
            }
        }
    }

    fn init_item(&self, it: &mut Node<InitializerListItem>) {
        self.node(it);
        for d in &mut it.node.designation {
            self.node(d);
            match &mut d.node {
                Designator::Member(m) => self.node(m),
                Designator::Range(r) => self.node(r),
                Designator::Index(_) => {}
            }
        }
        self.initializer(&mut it.node.initializer);
    }
}

impl VisitorMut for Shift {
    type Error = Infallible;
    fn expr(&mut self, e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
        e.span = self.span(e.span);
        // The nodes inside an expression that are not expressions themselves.
        match &mut e.node {
            Expression::Identifier(i) => self.node(i),
            Expression::Constant(c) => self.node(c),
            Expression::StringLiteral(l) => self.node(l),
            Expression::GenericSelection(g) => {
                self.node(g);
                for a in &mut g.node.associations {
                    self.node(a);
                }
            }
            Expression::Member(m) => {
                self.node(m);
                self.node(&mut m.node.operator);
                self.node(&mut m.node.identifier);
            }
            Expression::Call(c) => self.node(c),
            Expression::CompoundLiteral(c) => {
                self.node(c);
                for it in &mut c.node.initializer_list {
                    self.init_item(it);
                }
            }
            Expression::SizeOfTy(x) => self.node(x),
            Expression::SizeOfVal(x) => self.node(x),
            Expression::AlignOf(x) => self.node(x),
            Expression::UnaryOperator(u) => {
                self.node(u);
                self.node(&mut u.node.operator);
            }
            Expression::Cast(c) => self.node(c),
            Expression::BinaryOperator(b) => {
                self.node(b);
                self.node(&mut b.node.operator);
            }
            Expression::Conditional(c) => self.node(c),
            Expression::Comma(_) => {}
            Expression::OffsetOf(o) => {
                self.node(o);
                self.node(&mut o.node.designator);
                for m in &mut o.node.designator.node.members {
                    self.node(m);
                }
            }
            Expression::VaArg(v) => self.node(v),
            Expression::Statement(_) => {}
        }
        Ok(Walk::Descend)
    }
    fn stmt(&mut self, s: &mut Node<Statement>) -> std::result::Result<Walk, Infallible> {
        s.span = self.span(s.span);
        match &mut s.node {
            Statement::Labeled(l) => {
                self.node(l);
                self.node(&mut l.node.label);
                if let Label::Identifier(i) = &mut l.node.label.node {
                    self.node(i);
                }
            }
            Statement::Goto(i) => self.node(i),
            Statement::If(x) => self.node(x),
            Statement::Switch(x) => self.node(x),
            Statement::While(x) => self.node(x),
            Statement::DoWhile(x) => self.node(x),
            Statement::For(f) => {
                self.node(f);
                self.node(&mut f.node.initializer);
            }
            Statement::Asm(a) => self.node(a),
            _ => {}
        }
        Ok(Walk::Descend)
    }
    fn declaration(&mut self, d: &mut Node<Declaration>) -> std::result::Result<Walk, Infallible> {
        d.span = self.span(d.span);
        for sp in &mut d.node.specifiers {
            self.node(sp);
        }
        for i in &mut d.node.declarators {
            self.node(i);
            if let Some(init) = &mut i.node.initializer {
                self.initializer(init);
            }
        }
        Ok(Walk::Descend)
    }
    fn declarator(&mut self, d: &mut Node<Declarator>) -> std::result::Result<Walk, Infallible> {
        d.span = self.span(d.span);
        self.node(&mut d.node.kind);
        if let DeclaratorKind::Identifier(i) = &mut d.node.kind.node {
            self.node(i);
        }
        for x in &mut d.node.derived {
            self.node(x);
        }
        Ok(Walk::Descend)
    }
    fn type_name(&mut self, t: &mut Node<TypeName>) -> std::result::Result<Walk, Infallible> {
        t.span = self.span(t.span);
        Ok(Walk::Descend)
    }
    fn type_specifier(
        &mut self,
        t: &mut Node<TypeSpecifier>,
    ) -> std::result::Result<Walk, Infallible> {
        t.span = self.span(t.span);
        Ok(Walk::Descend)
    }
}
