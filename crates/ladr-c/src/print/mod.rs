//! C printer: the only place in ladr that turns a lang-c AST back into C text.
//!
//! ```text
//! AST of `int (*f)(int); x = (a - (b - c)) * d;`  ──print──▶  same text, one statement a line
//! ```
//!
//! What it does: prints a [`TranslationUnit`] (or a single expression, type name, declaration or
//! statement) as GNU C that gcc accepts, and while printing records for every output line the span
//! of the node that began it ([`Printed::origins`]), so later stages map CBMC's line numbers back
//! to the input by table lookup.
//!
//! Guarantees:
//! - *Meaning-preserving.* lang-c has no parenthesis node, so parentheses are inserted from C's
//!   precedence and associativity (minimal, plus a few safety cases: comma operands, casts of
//!   prefix-unary operands, `-(-x)`, `&(&x)`, `+(+x)`; `sizeof`/`_Alignof` always use parentheses).
//!   A dangling `else` is protected with braces when the then-branch would capture it.
//! - *Deterministic layout.* Two-space indent; every statement and declaration starts its own line;
//!   labels are outdented one level; one blank line follows each function definition. Printing,
//!   parsing the result and printing again gives identical text (tested).
//! - *Total.* No panics on any AST; generated oddities are printed in their closest valid form
//!   (a function declarator without parameters prints `(void)`, a non-compound function body
//!   is braced).
//!
//! Declarator order (checked against lang-c's parser): `Declarator::derived` holds the pointers
//! first, left to right as written, then the array/function suffixes left to right as written; a
//! parenthesised inner declarator is `DeclaratorKind::Declarator`. So `char *(*(*x[2])(void))[4]`
//! is `derived = [Pointer, Array 4]` around `kind = ( [Pointer, Function(void)] around
//! ( [Pointer, Array 2] around x ) )`. The printer writes pointers, kind, suffixes in that order.
//!
//! Needs nothing from earlier passes: any AST lang-c can build is accepted.

mod declarations;
mod declarators;
mod expressions;
mod literals;
mod statements;

use crate::origin::Origin;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// Printed C text plus its line map.
pub struct Printed {
    pub text: String,
    /// origins[i] = where output line i+1 (1-based line numbers) came from: the origin of the
    /// innermost statement / declaration / function definition / external declaration whose
    /// printing began it, or of the enclosing node when the line was started by something
    /// else; [`Origin::Generated`] for blank lines and generated nodes.
    pub origins: Vec<Origin>,
}

/// Prints a whole translation unit with its line map. The text ends with a newline and has
/// exactly `origins.len()` lines.
pub fn print_unit(unit: &TranslationUnit) -> Printed {
    let mut p = Printer::new(false);
    for ext in &unit.0 {
        p.external_declaration(ext);
    }
    p.newline();
    Printed {
        text: p.out,
        origins: p.origins,
    }
}

/// Prints an expression on a single line.
pub fn expr_to_string(e: &Expression) -> String {
    let mut p = Printer::new(true);
    p.expr(e, PREC_COMMA);
    p.finish_flat()
}

/// Prints a type name (as in a cast or `sizeof`) on a single line, without parentheses.
pub fn type_name_to_string(t: &TypeName) -> String {
    let mut p = Printer::new(true);
    p.type_name(t);
    p.finish_flat()
}

/// Prints a declaration with its trailing `;` (multi-line if it defines a struct/union/enum).
pub fn declaration_to_string(d: &Declaration) -> String {
    let mut p = Printer::new(false);
    p.declaration(d);
    p.finish_lines()
}

/// Prints a statement (multi-line for compound statements), without a trailing newline.
pub fn statement_to_string(s: &Statement) -> String {
    let mut p = Printer::new(false);
    p.statement(s, Span::none());
    p.finish_lines()
}

// Precedence levels, higher binds tighter.
const PREC_COMMA: u8 = 0;
const PREC_ASSIGN: u8 = 1;
const PREC_COND: u8 = 2;
const PREC_CAST: u8 = 13;
const PREC_UNARY: u8 = 14;
const PREC_POSTFIX: u8 = 15;
const PREC_PRIMARY: u8 = 16;

const INDENT: &str = "  ";

struct Printer {
    out: String,
    origins: Vec<Origin>,
    /// Spans of the statements/declarations being printed, innermost last.
    stack: Vec<Span>,
    indent: usize,
    /// True when the current output line has been started (indent and origin written).
    line_open: bool,
    /// Single-line mode: line breaks become spaces and no line map is kept.
    flat: bool,
}

impl Printer {
    fn new(flat: bool) -> Printer {
        Printer {
            out: String::new(),
            origins: Vec::new(),
            stack: Vec::new(),
            indent: 0,
            line_open: false,
            flat,
        }
    }

    fn finish_flat(self) -> String {
        self.out.trim_end().to_string()
    }

    fn finish_lines(mut self) -> String {
        self.newline();
        let len = self.out.trim_end().len();
        self.out.truncate(len);
        self.out
    }

    // ---- low-level output -------------------------------------------------------------------

    fn write(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if !self.line_open {
            self.line_open = true;
            if !self.flat {
                for _ in 0..self.indent {
                    self.out.push_str(INDENT);
                }
                self.origins.push(
                    self.stack
                        .last()
                        .map_or(Origin::Generated, |s| Origin::of(*s)),
                );
            }
        }
        self.out.push_str(s);
    }

    /// Ends the current line (if any text is on it).
    fn newline(&mut self) {
        if self.flat {
            if !self.out.is_empty() && !self.out.ends_with(' ') {
                self.out.push(' ');
            }
            // Keep the line open so no indent is written.
            self.line_open = true;
            return;
        }
        if self.line_open {
            self.out.push('\n');
            self.line_open = false;
        }
    }

    /// Writes an empty line (outside flat mode).
    fn blank_line(&mut self) {
        if self.flat {
            return;
        }
        self.newline();
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
            self.origins.push(Origin::Generated);
        }
    }

    fn push(&mut self, span: Span) {
        self.stack.push(span);
    }

    fn pop(&mut self) {
        self.stack.pop();
    }

    // ---- top level --------------------------------------------------------------------------

    fn external_declaration(&mut self, ext: &Node<ExternalDeclaration>) {
        self.push(ext.span);
        match &ext.node {
            ExternalDeclaration::Declaration(d) => {
                self.push(d.span);
                self.newline();
                self.declaration(&d.node);
                self.newline();
                self.pop();
            }
            ExternalDeclaration::StaticAssert(s) => {
                self.push(s.span);
                self.newline();
                self.static_assert(&s.node);
                self.newline();
                self.pop();
            }
            ExternalDeclaration::FunctionDefinition(f) => {
                self.push(f.span);
                self.function_definition(&f.node);
                self.pop();
                self.blank_line();
            }
        }
        self.pop();
    }

    fn function_definition(&mut self, f: &FunctionDefinition) {
        self.newline();
        // GCC rejects attributes after the declarator of a function definition; they mean the
        // same before the specifiers.
        let attrs: Vec<&Node<Extension>> = f
            .declarator
            .node
            .extensions
            .iter()
            .filter(|e| !matches!(e.node, Extension::AsmLabel(_)))
            .collect();
        for a in &attrs {
            self.extension(&a.node);
            self.write(" ");
        }
        self.decl_specifiers(&f.specifiers);
        if !f.specifiers.is_empty() {
            self.write(" ");
        }
        self.declarator_core(&f.declarator.node);
        for e in &f.declarator.node.extensions {
            if let Extension::AsmLabel(s) = &e.node {
                self.write(" __asm__(");
                self.string_literal(&s.node);
                self.write(")");
            }
        }
        for d in &f.declarations {
            self.push(d.span);
            self.newline();
            self.declaration(&d.node);
            self.pop();
        }
        if !f.declarations.is_empty() {
            self.newline();
        } else {
            self.write(" ");
        }
        self.push(f.statement.span);
        match &f.statement.node {
            Statement::Compound(items) => self.compound_body(items),
            other => {
                self.write("{");
                self.indent += 1;
                self.newline();
                self.statement(other, f.statement.span);
                self.indent -= 1;
                self.newline();
                self.write("}");
            }
        }
        self.pop();
        self.newline();
    }

    fn static_assert(&mut self, s: &StaticAssert) {
        self.write("_Static_assert(");
        self.expr(&s.expression.node, PREC_COND);
        self.write(", ");
        self.string_literal(&s.message.node);
        self.write(");");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lang_c::driver::{parse_preprocessed, Config};

    fn body_of_first_function(src: &str) -> Vec<Node<BlockItem>> {
        let unit = parse_preprocessed(&Config::with_gcc(), src.to_string())
            .unwrap()
            .unit;
        for ext in unit.0 {
            if let ExternalDeclaration::FunctionDefinition(f) = ext.node {
                if let Statement::Compound(items) = f.node.statement.node {
                    return items;
                }
            }
        }
        panic!("no function body")
    }

    /// A then-branch that is an else-less `if` (only a generated AST can hold one) gets braces,
    /// so the `else` stays with the outer `if`.
    #[test]
    fn dangling_else_gets_braces() {
        let mut items = body_of_first_function(
            "int a, b, x, y; void f(void) { if (a) { if (b) x = 1; } else y = 1; }",
        );
        let BlockItem::Statement(s) = &mut items[0].node else {
            panic!()
        };
        let Statement::If(outer) = &mut s.node else {
            panic!()
        };
        let Statement::Compound(inner) = &outer.node.then_statement.node else {
            panic!()
        };
        let BlockItem::Statement(inner_if) = inner[0].node.clone() else {
            panic!()
        };
        *outer.node.then_statement = inner_if;
        assert_eq!(
            statement_to_string(&s.node),
            "if (a) {\n  if (b)\n    x = 1;\n} else\n  y = 1;"
        );
    }

    /// Generated oddities print as valid C instead of panicking.
    #[test]
    fn generated_oddities() {
        let empty = Expression::Comma(Box::default());
        assert_eq!(expr_to_string(&empty), "");
        let d = Declarator {
            kind: Node::new(
                DeclaratorKind::Identifier(Node::new(
                    Identifier { name: "g".into() },
                    Span::none(),
                )),
                Span::none(),
            ),
            derived: vec![Node::new(
                DerivedDeclarator::Function(Node::new(
                    FunctionDeclarator {
                        parameters: vec![],
                        ellipsis: Ellipsis::None,
                    },
                    Span::none(),
                )),
                Span::none(),
            )],
            extensions: vec![],
        };
        let decl = Declaration {
            specifiers: vec![Node::new(
                DeclarationSpecifier::TypeSpecifier(Node::new(TypeSpecifier::Int, Span::none())),
                Span::none(),
            )],
            declarators: vec![Node::new(
                InitDeclarator {
                    declarator: Node::new(d, Span::none()),
                    initializer: None,
                },
                Span::none(),
            )],
        };
        assert_eq!(declaration_to_string(&decl), "int g(void);");
    }
}
