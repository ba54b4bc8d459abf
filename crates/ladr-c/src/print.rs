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
    p.nl();
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

fn binary_info(op: &BinaryOperator) -> (&'static str, u8) {
    use BinaryOperator::*;
    match op {
        Index => ("[]", PREC_POSTFIX),
        Multiply => ("*", 12),
        Divide => ("/", 12),
        Modulo => ("%", 12),
        Plus => ("+", 11),
        Minus => ("-", 11),
        ShiftLeft => ("<<", 10),
        ShiftRight => (">>", 10),
        Less => ("<", 9),
        Greater => (">", 9),
        LessOrEqual => ("<=", 9),
        GreaterOrEqual => (">=", 9),
        Equals => ("==", 8),
        NotEquals => ("!=", 8),
        BitwiseAnd => ("&", 7),
        BitwiseXor => ("^", 6),
        BitwiseOr => ("|", 5),
        LogicalAnd => ("&&", 4),
        LogicalOr => ("||", 3),
        Assign => ("=", PREC_ASSIGN),
        AssignMultiply => ("*=", PREC_ASSIGN),
        AssignDivide => ("/=", PREC_ASSIGN),
        AssignModulo => ("%=", PREC_ASSIGN),
        AssignPlus => ("+=", PREC_ASSIGN),
        AssignMinus => ("-=", PREC_ASSIGN),
        AssignShiftLeft => ("<<=", PREC_ASSIGN),
        AssignShiftRight => (">>=", PREC_ASSIGN),
        AssignBitwiseAnd => ("&=", PREC_ASSIGN),
        AssignBitwiseXor => ("^=", PREC_ASSIGN),
        AssignBitwiseOr => ("|=", PREC_ASSIGN),
    }
}

fn expr_prec(e: &Expression) -> u8 {
    match e {
        Expression::Identifier(_)
        | Expression::Constant(_)
        | Expression::StringLiteral(_)
        | Expression::GenericSelection(_)
        | Expression::OffsetOf(_)
        | Expression::VaArg(_)
        | Expression::Statement(_) => PREC_PRIMARY,
        Expression::Member(_) | Expression::Call(_) | Expression::CompoundLiteral(_) => {
            PREC_POSTFIX
        }
        Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => PREC_UNARY,
        Expression::UnaryOperator(u) => match u.node.operator.node {
            UnaryOperator::PostIncrement | UnaryOperator::PostDecrement => PREC_POSTFIX,
            _ => PREC_UNARY,
        },
        Expression::Cast(_) => PREC_CAST,
        Expression::BinaryOperator(b) => binary_info(&b.node.operator.node).1,
        Expression::Conditional(_) => PREC_COND,
        Expression::Comma(c) => match c.len() {
            0 => PREC_PRIMARY,
            1 => expr_prec(&c[0].node),
            _ => PREC_COMMA,
        },
    }
}

fn storage_class(s: &StorageClassSpecifier) -> &'static str {
    match s {
        StorageClassSpecifier::Typedef => "typedef",
        StorageClassSpecifier::Extern => "extern",
        StorageClassSpecifier::Static => "static",
        StorageClassSpecifier::ThreadLocal => "_Thread_local",
        StorageClassSpecifier::Auto => "auto",
        StorageClassSpecifier::Register => "register",
    }
}

fn type_qualifier(q: &TypeQualifier) -> &'static str {
    match q {
        TypeQualifier::Const => "const",
        TypeQualifier::Restrict => "restrict",
        TypeQualifier::Volatile => "volatile",
        TypeQualifier::Nonnull => "_Nonnull",
        TypeQualifier::NullUnspecified => "_Null_unspecified",
        TypeQualifier::Nullable => "_Nullable",
        TypeQualifier::Atomic => "_Atomic",
    }
}

fn ts18661(t: &TS18661FloatType, type_name: bool) -> String {
    let (base, ext) = match t.format {
        TS18661FloatFormat::BinaryInterchange => (if type_name { "_Float" } else { "f" }, ""),
        TS18661FloatFormat::BinaryExtended => (if type_name { "_Float" } else { "f" }, "x"),
        TS18661FloatFormat::DecimalInterchange => (if type_name { "_Decimal" } else { "d" }, ""),
        TS18661FloatFormat::DecimalExtended => (if type_name { "_Decimal" } else { "d" }, "x"),
    };
    format!("{}{}{}", base, t.width, ext)
}

fn constant_text(c: &Constant) -> String {
    match c {
        Constant::Integer(i) => {
            let prefix = match i.base {
                IntegerBase::Decimal => "",
                IntegerBase::Octal => "0",
                IntegerBase::Hexadecimal => "0x",
                IntegerBase::Binary => "0b",
            };
            let mut s = format!("{}{}", prefix, i.number);
            if i.suffix.unsigned {
                s.push('u');
            }
            match i.suffix.size {
                IntegerSize::Int => {}
                IntegerSize::Long => s.push('l'),
                IntegerSize::LongLong => s.push_str("ll"),
            }
            if i.suffix.imaginary {
                s.push('i');
            }
            s
        }
        Constant::Float(f) => {
            let prefix = match f.base {
                FloatBase::Decimal => "",
                FloatBase::Hexadecimal => "0x",
            };
            let mut s = format!("{}{}", prefix, f.number);
            match &f.suffix.format {
                FloatFormat::Float => s.push('f'),
                FloatFormat::Double => {}
                FloatFormat::LongDouble => s.push('l'),
                FloatFormat::TS18661Format(t) => s.push_str(&ts18661(t, false)),
            }
            if f.suffix.imaginary {
                s.push('i');
            }
            s
        }
        Constant::Character(c) => c.clone(),
    }
}

/// True when `s`, printed as the then-branch of an `if` with an `else`, would end in an `if`
/// without `else` and so capture that `else`.
fn ends_in_open_if(s: &Statement) -> bool {
    match s {
        Statement::If(i) => match &i.node.else_statement {
            None => true,
            Some(e) => ends_in_open_if(&e.node),
        },
        Statement::Labeled(l) => ends_in_open_if(&l.node.statement.node),
        Statement::While(w) => ends_in_open_if(&w.node.statement.node),
        Statement::For(f) => ends_in_open_if(&f.node.statement.node),
        Statement::Switch(sw) => ends_in_open_if(&sw.node.statement.node),
        _ => false,
    }
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
        self.nl();
        let len = self.out.trim_end().len();
        self.out.truncate(len);
        self.out
    }

    // ---- low-level output -------------------------------------------------------------------

    fn w(&mut self, s: &str) {
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
    fn nl(&mut self) {
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
        self.nl();
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
                self.nl();
                self.declaration(&d.node);
                self.nl();
                self.pop();
            }
            ExternalDeclaration::StaticAssert(s) => {
                self.push(s.span);
                self.nl();
                self.static_assert(&s.node);
                self.nl();
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
        self.nl();
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
            self.w(" ");
        }
        self.decl_specifiers(&f.specifiers);
        if !f.specifiers.is_empty() {
            self.w(" ");
        }
        self.declarator_core(&f.declarator.node);
        for e in &f.declarator.node.extensions {
            if let Extension::AsmLabel(s) = &e.node {
                self.w(" __asm__(");
                self.string_literal(&s.node);
                self.w(")");
            }
        }
        for d in &f.declarations {
            self.push(d.span);
            self.nl();
            self.declaration(&d.node);
            self.pop();
        }
        if !f.declarations.is_empty() {
            self.nl();
        } else {
            self.w(" ");
        }
        self.push(f.statement.span);
        match &f.statement.node {
            Statement::Compound(items) => self.compound_body(items),
            other => {
                self.w("{");
                self.indent += 1;
                self.nl();
                self.statement(other, f.statement.span);
                self.indent -= 1;
                self.nl();
                self.w("}");
            }
        }
        self.pop();
        self.nl();
    }

    fn static_assert(&mut self, s: &StaticAssert) {
        self.w("_Static_assert(");
        self.expr(&s.expression.node, PREC_COND);
        self.w(", ");
        self.string_literal(&s.message.node);
        self.w(");");
    }

    // ---- declarations -----------------------------------------------------------------------

    fn declaration(&mut self, d: &Declaration) {
        self.declaration_no_semi(d);
        self.w(";");
    }

    fn declaration_no_semi(&mut self, d: &Declaration) {
        self.decl_specifiers(&d.specifiers);
        for (i, id) in d.declarators.iter().enumerate() {
            self.w(if i == 0 { " " } else { ", " });
            self.declarator(&id.node.declarator.node);
            if let Some(init) = &id.node.initializer {
                self.w(" = ");
                self.initializer(&init.node);
            }
        }
    }

    fn decl_specifiers(&mut self, specs: &[Node<DeclarationSpecifier>]) {
        // `_Atomic` as a qualifier goes first so it is never followed by `(` (which would make it
        // the `_Atomic(type)` specifier).
        let is_atomic_q = |s: &&Node<DeclarationSpecifier>| matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Atomic);
        let ordered = specs
            .iter()
            .filter(is_atomic_q)
            .chain(specs.iter().filter(|s| !is_atomic_q(s)));
        for (i, s) in ordered.enumerate() {
            if i > 0 {
                self.w(" ");
            }
            match &s.node {
                DeclarationSpecifier::StorageClass(c) => self.w(storage_class(&c.node)),
                DeclarationSpecifier::TypeSpecifier(t) => self.type_specifier(&t.node),
                DeclarationSpecifier::TypeQualifier(q) => self.w(type_qualifier(&q.node)),
                DeclarationSpecifier::Function(f) => self.w(match f.node {
                    FunctionSpecifier::Inline => "inline",
                    FunctionSpecifier::Noreturn => "_Noreturn",
                }),
                DeclarationSpecifier::Alignment(a) => self.alignment(&a.node),
                DeclarationSpecifier::Extension(exts) => self.extensions(exts),
            }
        }
    }

    fn spec_qualifiers(&mut self, specs: &[Node<SpecifierQualifier>]) {
        let is_atomic_q = |s: &&Node<SpecifierQualifier>| matches!(&s.node, SpecifierQualifier::TypeQualifier(q) if q.node == TypeQualifier::Atomic);
        let ordered = specs
            .iter()
            .filter(is_atomic_q)
            .chain(specs.iter().filter(|s| !is_atomic_q(s)));
        for (i, s) in ordered.enumerate() {
            if i > 0 {
                self.w(" ");
            }
            match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => self.type_specifier(&t.node),
                SpecifierQualifier::TypeQualifier(q) => self.w(type_qualifier(&q.node)),
                SpecifierQualifier::Extension(exts) => self.extensions(exts),
            }
        }
    }

    fn alignment(&mut self, a: &AlignmentSpecifier) {
        self.w("_Alignas(");
        match a {
            AlignmentSpecifier::Type(t) => self.type_name(&t.node),
            AlignmentSpecifier::Constant(e) => self.expr(&e.node, PREC_COND),
        }
        self.w(")");
    }

    fn type_specifier(&mut self, t: &TypeSpecifier) {
        match t {
            TypeSpecifier::Void => self.w("void"),
            TypeSpecifier::Char => self.w("char"),
            TypeSpecifier::Short => self.w("short"),
            TypeSpecifier::Int => self.w("int"),
            TypeSpecifier::Long => self.w("long"),
            TypeSpecifier::Float => self.w("float"),
            TypeSpecifier::Double => self.w("double"),
            TypeSpecifier::Signed => self.w("signed"),
            TypeSpecifier::Unsigned => self.w("unsigned"),
            TypeSpecifier::Bool => self.w("_Bool"),
            TypeSpecifier::Complex => self.w("_Complex"),
            TypeSpecifier::Atomic(tn) => {
                self.w("_Atomic(");
                self.type_name(&tn.node);
                self.w(")");
            }
            TypeSpecifier::Struct(s) => self.struct_type(&s.node),
            TypeSpecifier::Enum(e) => self.enum_type(&e.node),
            TypeSpecifier::TypedefName(id) => self.w(&id.node.name),
            TypeSpecifier::TypeOf(t) => {
                self.w("__typeof__(");
                match &t.node {
                    TypeOf::Expression(e) => self.expr(&e.node, PREC_COMMA),
                    TypeOf::Type(tn) => self.type_name(&tn.node),
                }
                self.w(")");
            }
            TypeSpecifier::TS18661Float(f) => self.w(&ts18661(f, true)),
        }
    }

    fn struct_type(&mut self, s: &StructType) {
        self.w(match s.kind.node {
            StructKind::Struct => "struct",
            StructKind::Union => "union",
        });
        if let Some(id) = &s.identifier {
            self.w(" ");
            self.w(&id.node.name);
        }
        if let Some(decls) = &s.declarations {
            self.w(" {");
            self.indent += 1;
            for d in decls {
                self.nl();
                match &d.node {
                    StructDeclaration::Field(f) => self.struct_field(&f.node),
                    StructDeclaration::StaticAssert(sa) => self.static_assert(&sa.node),
                }
            }
            self.indent -= 1;
            self.nl();
            self.w("}");
        }
    }

    fn struct_field(&mut self, f: &StructField) {
        self.spec_qualifiers(&f.specifiers);
        for (i, d) in f.declarators.iter().enumerate() {
            self.w(if i == 0 { " " } else { ", " });
            if let Some(decl) = &d.node.declarator {
                self.declarator_core(&decl.node);
            }
            if let Some(w) = &d.node.bit_width {
                self.w(" : ");
                self.expr(&w.node, PREC_COND);
            }
            if let Some(decl) = &d.node.declarator {
                self.declarator_extensions(&decl.node.extensions);
            }
        }
        self.w(";");
    }

    fn enum_type(&mut self, e: &EnumType) {
        self.w("enum");
        if let Some(id) = &e.identifier {
            self.w(" ");
            self.w(&id.node.name);
        }
        if !e.enumerators.is_empty() {
            self.w(" {");
            self.indent += 1;
            let n = e.enumerators.len();
            for (i, en) in e.enumerators.iter().enumerate() {
                self.nl();
                self.w(&en.node.identifier.node.name);
                if !en.node.extensions.is_empty() {
                    self.w(" ");
                    self.extensions(&en.node.extensions);
                }
                if let Some(v) = &en.node.expression {
                    self.w(" = ");
                    self.expr(&v.node, PREC_COND);
                }
                if i + 1 < n {
                    self.w(",");
                }
            }
            self.indent -= 1;
            self.nl();
            self.w("}");
        }
    }

    fn extensions(&mut self, exts: &[Node<Extension>]) {
        for (i, e) in exts.iter().enumerate() {
            if i > 0 {
                self.w(" ");
            }
            self.extension(&e.node);
        }
    }

    fn extension(&mut self, e: &Extension) {
        match e {
            Extension::Attribute(a) => {
                self.w("__attribute__((");
                self.w(&a.name.node);
                if !a.arguments.is_empty() {
                    self.w("(");
                    self.expr_list(&a.arguments);
                    self.w(")");
                }
                self.w("))");
            }
            Extension::AsmLabel(s) => {
                self.w("__asm__(");
                self.string_literal(&s.node);
                self.w(")");
            }
            Extension::AvailabilityAttribute(a) => {
                self.w("__attribute__((availability(");
                self.w(&a.node.platform.node.name);
                for c in &a.node.clauses {
                    self.w(", ");
                    match &c.node {
                        AvailabilityClause::Introduced(v) => {
                            self.w("introduced=");
                            self.availability_version(&v.node);
                        }
                        AvailabilityClause::Deprecated(v) => {
                            self.w("deprecated=");
                            self.availability_version(&v.node);
                        }
                        AvailabilityClause::Obsoleted(v) => {
                            self.w("obsoleted=");
                            self.availability_version(&v.node);
                        }
                        AvailabilityClause::Unavailable => self.w("unavailable"),
                        AvailabilityClause::Message(s) => {
                            self.w("message=");
                            self.string_literal(&s.node);
                        }
                        AvailabilityClause::Replacement(s) => {
                            self.w("replacement=");
                            self.string_literal(&s.node);
                        }
                    }
                }
                self.w(")))");
            }
        }
    }

    fn availability_version(&mut self, v: &AvailabilityVersion) {
        self.w(&v.major);
        if let Some(m) = &v.minor {
            self.w(".");
            self.w(m);
        }
        if let Some(s) = &v.subminor {
            self.w(".");
            self.w(s);
        }
    }

    /// Declarator extensions, printed after the declarator: asm labels first (GCC wants them
    /// before attributes).
    fn declarator_extensions(&mut self, exts: &[Node<Extension>]) {
        for e in exts {
            if matches!(e.node, Extension::AsmLabel(_)) {
                self.w(" ");
                self.extension(&e.node);
            }
        }
        for e in exts {
            if !matches!(e.node, Extension::AsmLabel(_)) {
                self.w(" ");
                self.extension(&e.node);
            }
        }
    }

    fn declarator(&mut self, d: &Declarator) {
        self.declarator_core(d);
        self.declarator_extensions(&d.extensions);
    }

    fn declarator_is_empty(d: &Declarator) -> bool {
        matches!(d.kind.node, DeclaratorKind::Abstract)
            && d.derived.is_empty()
            && d.extensions.is_empty()
    }

    /// Pointers, then the kind, then the suffixes (see the module header); no extensions.
    fn declarator_core(&mut self, d: &Declarator) {
        let mut space_before_kind = false;
        for dd in &d.derived {
            let (star, quals) = match &dd.node {
                DerivedDeclarator::Pointer(q) => ("*", q),
                DerivedDeclarator::Block(q) => ("^", q),
                _ => continue,
            };
            if space_before_kind {
                self.w(" ");
            }
            self.w(star);
            space_before_kind = self.pointer_qualifiers(quals);
        }
        match &d.kind.node {
            DeclaratorKind::Abstract => {}
            DeclaratorKind::Identifier(id) => {
                if space_before_kind {
                    self.w(" ");
                }
                self.w(&id.node.name);
            }
            DeclaratorKind::Declarator(inner) => {
                if space_before_kind {
                    self.w(" ");
                }
                self.w("(");
                self.declarator(&inner.node);
                self.w(")");
            }
        }
        for dd in &d.derived {
            match &dd.node {
                DerivedDeclarator::Pointer(_) | DerivedDeclarator::Block(_) => {}
                DerivedDeclarator::Array(a) => self.array_declarator(&a.node),
                DerivedDeclarator::Function(f) => {
                    self.w("(");
                    self.parameters(&f.node);
                    self.w(")");
                }
                DerivedDeclarator::KRFunction(ids) => {
                    self.w("(");
                    for (i, id) in ids.iter().enumerate() {
                        if i > 0 {
                            self.w(", ");
                        }
                        self.w(&id.node.name);
                    }
                    self.w(")");
                }
            }
        }
    }

    /// Writes pointer qualifiers (after `*`); returns whether any were written.
    fn pointer_qualifiers(&mut self, quals: &[Node<PointerQualifier>]) -> bool {
        let is_atomic = |q: &&Node<PointerQualifier>| matches!(&q.node, PointerQualifier::TypeQualifier(t) if t.node == TypeQualifier::Atomic);
        let ordered = quals
            .iter()
            .filter(is_atomic)
            .chain(quals.iter().filter(|q| !is_atomic(q)));
        let mut any = false;
        for q in ordered {
            self.w(if any { " " } else { "" });
            match &q.node {
                PointerQualifier::TypeQualifier(t) => self.w(type_qualifier(&t.node)),
                PointerQualifier::Extension(e) => self.extensions(e),
            }
            any = true;
        }
        any
    }

    fn array_declarator(&mut self, a: &ArrayDeclarator) {
        self.w("[");
        let mut first = true;
        if let ArraySize::StaticExpression(_) = a.size {
            self.w("static");
            first = false;
        }
        for q in &a.qualifiers {
            if !first {
                self.w(" ");
            }
            self.w(type_qualifier(&q.node));
            first = false;
        }
        match &a.size {
            ArraySize::Unknown => {}
            ArraySize::VariableUnknown => {
                if !first {
                    self.w(" ");
                }
                self.w("*");
            }
            ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                if !first {
                    self.w(" ");
                }
                self.expr(&e.node, PREC_ASSIGN);
            }
        }
        self.w("]");
    }

    fn parameters(&mut self, f: &FunctionDeclarator) {
        if f.parameters.is_empty() && f.ellipsis == Ellipsis::None {
            self.w("void");
            return;
        }
        for (i, p) in f.parameters.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.decl_specifiers(&p.node.specifiers);
            if let Some(d) = &p.node.declarator {
                if !Self::declarator_is_empty(&d.node) {
                    self.w(" ");
                    self.declarator(&d.node);
                }
            }
            if !p.node.extensions.is_empty() {
                self.w(" ");
                self.extensions(&p.node.extensions);
            }
        }
        if f.ellipsis == Ellipsis::Some {
            if !f.parameters.is_empty() {
                self.w(", ");
            }
            self.w("...");
        }
    }

    fn type_name(&mut self, t: &TypeName) {
        self.spec_qualifiers(&t.specifiers);
        if let Some(d) = &t.declarator {
            if !Self::declarator_is_empty(&d.node) {
                self.w(" ");
                self.declarator(&d.node);
            }
        }
    }

    fn initializer(&mut self, i: &Initializer) {
        match i {
            Initializer::Expression(e) => self.expr(&e.node, PREC_ASSIGN),
            Initializer::List(items) => self.initializer_list(items),
        }
    }

    fn initializer_list(&mut self, items: &[Node<InitializerListItem>]) {
        self.w("{");
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            for d in &item.node.designation {
                match &d.node {
                    Designator::Index(e) => {
                        self.w("[");
                        self.expr(&e.node, PREC_COND);
                        self.w("]");
                    }
                    Designator::Member(id) => {
                        self.w(".");
                        self.w(&id.node.name);
                    }
                    Designator::Range(r) => {
                        self.w("[");
                        self.expr(&r.node.from.node, PREC_COND);
                        self.w(" ... ");
                        self.expr(&r.node.to.node, PREC_COND);
                        self.w("]");
                    }
                }
            }
            if !item.node.designation.is_empty() {
                self.w(" = ");
            }
            self.initializer(&item.node.initializer.node);
        }
        self.w("}");
    }

    fn string_literal(&mut self, s: &StringLiteral) {
        if s.is_empty() {
            self.w("\"\"");
        }
        for (i, piece) in s.iter().enumerate() {
            if i > 0 {
                self.w(" ");
            }
            self.w(piece);
        }
    }

    // ---- statements -------------------------------------------------------------------------

    /// Prints `s` starting on a new line; `span` is its origin.
    fn statement(&mut self, s: &Statement, span: Span) {
        self.push(span);
        self.nl();
        self.statement_here(s);
        self.pop();
    }

    fn statement_node(&mut self, s: &Node<Statement>) {
        self.statement(&s.node, s.span);
    }

    /// `{ items }` with `{` on the current line.
    fn compound_body(&mut self, items: &[Node<BlockItem>]) {
        self.w("{");
        self.indent += 1;
        for item in items {
            match &item.node {
                BlockItem::Declaration(d) => {
                    self.push(d.span);
                    self.nl();
                    self.declaration(&d.node);
                    self.pop();
                }
                BlockItem::StaticAssert(sa) => {
                    self.push(sa.span);
                    self.nl();
                    self.static_assert(&sa.node);
                    self.pop();
                }
                BlockItem::Statement(s) => self.statement_node(s),
            }
        }
        self.indent -= 1;
        self.nl();
        self.w("}");
    }

    /// The body of `if`/`while`/`for`/`switch`/`do`: a compound stays on the header line,
    /// anything else goes indented on the next line. Returns whether it was a compound (so the
    /// caller can put `else`/`while` after the `}`).
    fn body(&mut self, s: &Node<Statement>, force_braces: bool) -> bool {
        match &s.node {
            Statement::Compound(items) => {
                self.w(" ");
                self.push(s.span);
                self.compound_body(items);
                self.pop();
                true
            }
            _ if force_braces => {
                self.w(" {");
                self.indent += 1;
                self.statement_node(s);
                self.indent -= 1;
                self.nl();
                self.w("}");
                true
            }
            _ => {
                self.indent += 1;
                self.statement_node(s);
                self.indent -= 1;
                false
            }
        }
    }

    fn statement_here(&mut self, s: &Statement) {
        match s {
            Statement::Labeled(l) => {
                let saved = self.indent;
                self.indent = saved.saturating_sub(1);
                match &l.node.label.node {
                    Label::Identifier(id) => {
                        self.w(&id.node.name);
                        self.w(":");
                    }
                    Label::Case(e) => {
                        self.w("case ");
                        self.expr(&e.node, PREC_COND);
                        self.w(":");
                    }
                    Label::CaseRange(r) => {
                        self.w("case ");
                        self.expr(&r.node.low.node, PREC_COND);
                        self.w(" ... ");
                        self.expr(&r.node.high.node, PREC_COND);
                        self.w(":");
                    }
                    Label::Default => self.w("default:"),
                }
                self.nl();
                self.indent = saved;
                self.statement_node(&l.node.statement);
            }
            Statement::Compound(items) => self.compound_body(items),
            Statement::Expression(e) => {
                if let Some(e) = e {
                    self.expr(&e.node, PREC_COMMA);
                }
                self.w(";");
            }
            Statement::If(i) => {
                self.w("if (");
                self.expr(&i.node.condition.node, PREC_COMMA);
                self.w(")");
                let has_else = i.node.else_statement.is_some();
                let force = has_else && ends_in_open_if(&i.node.then_statement.node);
                let braced = self.body(&i.node.then_statement, force);
                if let Some(e) = &i.node.else_statement {
                    if braced {
                        self.w(" else");
                    } else {
                        self.nl();
                        self.w("else");
                    }
                    self.body(e, false);
                }
            }
            Statement::Switch(sw) => {
                self.w("switch (");
                self.expr(&sw.node.expression.node, PREC_COMMA);
                self.w(")");
                self.body(&sw.node.statement, false);
            }
            Statement::While(wh) => {
                self.w("while (");
                self.expr(&wh.node.expression.node, PREC_COMMA);
                self.w(")");
                self.body(&wh.node.statement, false);
            }
            Statement::DoWhile(d) => {
                self.w("do");
                if self.body(&d.node.statement, false) {
                    self.w(" ");
                } else {
                    self.nl();
                }
                self.w("while (");
                self.expr(&d.node.expression.node, PREC_COMMA);
                self.w(");");
            }
            Statement::For(f) => {
                self.w("for (");
                match &f.node.initializer.node {
                    ForInitializer::Empty => self.w(";"),
                    ForInitializer::Expression(e) => {
                        self.expr(&e.node, PREC_COMMA);
                        self.w(";");
                    }
                    ForInitializer::Declaration(d) => self.declaration(&d.node),
                    ForInitializer::StaticAssert(sa) => self.static_assert(&sa.node),
                }
                if let Some(c) = &f.node.condition {
                    self.w(" ");
                    self.expr(&c.node, PREC_COMMA);
                }
                self.w(";");
                if let Some(st) = &f.node.step {
                    self.w(" ");
                    self.expr(&st.node, PREC_COMMA);
                }
                self.w(")");
                self.body(&f.node.statement, false);
            }
            Statement::Goto(id) => {
                self.w("goto ");
                self.w(&id.node.name);
                self.w(";");
            }
            Statement::Continue => self.w("continue;"),
            Statement::Break => self.w("break;"),
            Statement::Return(e) => {
                self.w("return");
                if let Some(e) = e {
                    self.w(" ");
                    self.expr(&e.node, PREC_COMMA);
                }
                self.w(";");
            }
            Statement::Asm(a) => self.asm(&a.node),
        }
    }

    fn asm(&mut self, a: &AsmStatement) {
        match a {
            AsmStatement::GnuBasic(s) => {
                self.w("__asm__(");
                self.string_literal(&s.node);
                self.w(");");
            }
            AsmStatement::GnuExtended(x) => {
                self.w("__asm__ ");
                if let Some(q) = &x.qualifier {
                    self.w(type_qualifier(&q.node));
                    self.w(" ");
                }
                self.w("(");
                self.string_literal(&x.template.node);
                // Always at least one `:` so it stays an extended asm.
                self.w(" : ");
                self.asm_operands(&x.outputs);
                if !x.inputs.is_empty() || !x.clobbers.is_empty() {
                    self.w(" : ");
                    self.asm_operands(&x.inputs);
                }
                if !x.clobbers.is_empty() {
                    self.w(" : ");
                    for (i, c) in x.clobbers.iter().enumerate() {
                        if i > 0 {
                            self.w(", ");
                        }
                        self.string_literal(&c.node);
                    }
                }
                self.w(");");
            }
        }
    }

    fn asm_operands(&mut self, ops: &[Node<GnuAsmOperand>]) {
        for (i, op) in ops.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            if let Some(n) = &op.node.symbolic_name {
                self.w("[");
                self.w(&n.node.name);
                self.w("] ");
            }
            self.string_literal(&op.node.constraints.node);
            self.w(" (");
            self.expr(&op.node.variable_name.node, PREC_COMMA);
            self.w(")");
        }
    }

    // ---- expressions ------------------------------------------------------------------------

    fn expr_list(&mut self, es: &[Node<Expression>]) {
        for (i, e) in es.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.expr(&e.node, PREC_ASSIGN);
        }
    }

    /// Prints `e` in a context that needs precedence at least `min`, parenthesizing otherwise.
    fn expr(&mut self, e: &Expression, min: u8) {
        if expr_prec(e) < min {
            self.w("(");
            self.expr_inner(e);
            self.w(")");
        } else {
            self.expr_inner(e);
        }
    }

    fn expr_inner(&mut self, e: &Expression) {
        match e {
            Expression::Identifier(id) => self.w(&id.node.name),
            Expression::Constant(c) => self.w(&constant_text(&c.node)),
            Expression::StringLiteral(s) => self.string_literal(&s.node),
            Expression::GenericSelection(g) => {
                self.w("_Generic(");
                self.expr(&g.node.expression.node, PREC_ASSIGN);
                for a in &g.node.associations {
                    self.w(", ");
                    match &a.node {
                        GenericAssociation::Type(t) => {
                            self.type_name(&t.node.type_name.node);
                            self.w(": ");
                            self.expr(&t.node.expression.node, PREC_ASSIGN);
                        }
                        GenericAssociation::Default(d) => {
                            self.w("default: ");
                            self.expr(&d.node, PREC_ASSIGN);
                        }
                    }
                }
                self.w(")");
            }
            Expression::Member(m) => {
                self.expr(&m.node.expression.node, PREC_POSTFIX);
                self.w(match m.node.operator.node {
                    MemberOperator::Direct => ".",
                    MemberOperator::Indirect => "->",
                });
                self.w(&m.node.identifier.node.name);
            }
            Expression::Call(c) => {
                self.expr(&c.node.callee.node, PREC_POSTFIX);
                self.w("(");
                self.expr_list(&c.node.arguments);
                self.w(")");
            }
            Expression::CompoundLiteral(c) => {
                self.w("(");
                self.type_name(&c.node.type_name.node);
                self.w(")");
                self.initializer_list(&c.node.initializer_list);
            }
            Expression::SizeOfTy(s) => {
                self.w("sizeof(");
                self.type_name(&s.node.0.node);
                self.w(")");
            }
            Expression::SizeOfVal(s) => {
                self.w("sizeof(");
                self.expr(&s.node.0.node, PREC_COMMA);
                self.w(")");
            }
            Expression::AlignOf(a) => {
                self.w("_Alignof(");
                self.type_name(&a.node.0.node);
                self.w(")");
            }
            Expression::UnaryOperator(u) => self.unary(&u.node),
            Expression::Cast(c) => {
                self.w("(");
                self.type_name(&c.node.type_name.node);
                self.w(")");
                let operand = &c.node.expression.node;
                if expr_prec(operand) == PREC_UNARY {
                    // `(T)(-x)`: not needed by C, but clearer and never ambiguous.
                    self.w("(");
                    self.expr_inner(operand);
                    self.w(")");
                } else {
                    self.expr(operand, PREC_CAST);
                }
            }
            Expression::BinaryOperator(b) => {
                let (op, prec) = binary_info(&b.node.operator.node);
                if b.node.operator.node == BinaryOperator::Index {
                    self.expr(&b.node.lhs.node, PREC_POSTFIX);
                    self.w("[");
                    self.expr(&b.node.rhs.node, PREC_COMMA);
                    self.w("]");
                } else if prec == PREC_ASSIGN {
                    self.expr(&b.node.lhs.node, PREC_UNARY);
                    self.w(" ");
                    self.w(op);
                    self.w(" ");
                    self.expr(&b.node.rhs.node, PREC_ASSIGN);
                } else {
                    self.expr(&b.node.lhs.node, prec);
                    self.w(" ");
                    self.w(op);
                    self.w(" ");
                    self.expr(&b.node.rhs.node, prec + 1);
                }
            }
            Expression::Conditional(c) => {
                self.expr(&c.node.condition.node, PREC_COND + 1);
                self.w(" ? ");
                self.expr(&c.node.then_expression.node, PREC_ASSIGN);
                self.w(" : ");
                self.expr(&c.node.else_expression.node, PREC_COND);
            }
            Expression::Comma(es) => {
                for (i, e) in es.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.expr(&e.node, PREC_ASSIGN);
                }
            }
            Expression::OffsetOf(o) => {
                self.w("__builtin_offsetof(");
                self.type_name(&o.node.type_name.node);
                self.w(", ");
                self.w(&o.node.designator.node.base.node.name);
                for m in &o.node.designator.node.members {
                    match &m.node {
                        OffsetMember::Member(id) => {
                            self.w(".");
                            self.w(&id.node.name);
                        }
                        OffsetMember::IndirectMember(id) => {
                            self.w("->");
                            self.w(&id.node.name);
                        }
                        OffsetMember::Index(e) => {
                            self.w("[");
                            self.expr(&e.node, PREC_COMMA);
                            self.w("]");
                        }
                    }
                }
                self.w(")");
            }
            Expression::VaArg(v) => {
                self.w("__builtin_va_arg(");
                self.expr(&v.node.va_list.node, PREC_ASSIGN);
                self.w(", ");
                self.type_name(&v.node.type_name.node);
                self.w(")");
            }
            Expression::Statement(s) => {
                self.w("(");
                self.push(s.span);
                match &s.node {
                    Statement::Compound(items) => self.compound_body(items),
                    other => {
                        self.w("{");
                        self.indent += 1;
                        self.statement(other, s.span);
                        self.indent -= 1;
                        self.nl();
                        self.w("}");
                    }
                }
                self.pop();
                self.w(")");
            }
        }
    }

    fn unary(&mut self, u: &UnaryOperatorExpression) {
        use UnaryOperator::*;
        let operand = &u.operand.node;
        let (op, postfix) = match u.operator.node {
            PostIncrement => ("++", true),
            PostDecrement => ("--", true),
            PreIncrement => ("++", false),
            PreDecrement => ("--", false),
            Address => ("&", false),
            Indirection => ("*", false),
            Plus => ("+", false),
            Minus => ("-", false),
            Complement => ("~", false),
            Negate => ("!", false),
        };
        if postfix {
            self.expr(operand, PREC_POSTFIX);
            self.w(op);
            return;
        }
        self.w(op);
        let min = match u.operator.node {
            PreIncrement | PreDecrement => PREC_UNARY,
            _ => PREC_CAST,
        };
        // Would the operand's first character fuse with the operator (`--x`, `&&x`, `++x`)?
        let fuses = expr_prec(operand) >= min && matches!(op, "+" | "-" | "&" | "++" | "--") && {
            let first = first_char(operand);
            first == op.chars().next()
        };
        if fuses {
            self.w("(");
            self.expr_inner(operand);
            self.w(")");
        } else {
            self.expr(operand, min);
        }
    }
}

/// First character `e` prints as (when printed without outer parentheses).
fn first_char(e: &Expression) -> Option<char> {
    match e {
        Expression::UnaryOperator(u) => match u.node.operator.node {
            UnaryOperator::PostIncrement | UnaryOperator::PostDecrement => {
                if expr_prec(&u.node.operand.node) >= PREC_POSTFIX {
                    first_char(&u.node.operand.node)
                } else {
                    Some('(')
                }
            }
            UnaryOperator::PreIncrement | UnaryOperator::Plus => Some('+'),
            UnaryOperator::PreDecrement | UnaryOperator::Minus => Some('-'),
            UnaryOperator::Address => Some('&'),
            UnaryOperator::Indirection => Some('*'),
            UnaryOperator::Complement => Some('~'),
            UnaryOperator::Negate => Some('!'),
        },
        Expression::Constant(c) => constant_text(&c.node).chars().next(),
        _ => None,
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
