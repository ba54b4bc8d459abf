//! Declarations and types: declaration specifiers, `struct`/`union`/`enum` bodies, storage
//! classes and qualifiers, and GNU extensions (attributes, asm labels).

use super::literals::ts18661;
use super::{Printer, PREC_COMMA, PREC_COND};
use lang_c::ast::*;
use lang_c::span::Node;

impl Printer {
    pub(super) fn declaration(&mut self, d: &Declaration) {
        self.declaration_no_semi(d);
        self.write(";");
    }

    fn declaration_no_semi(&mut self, d: &Declaration) {
        self.decl_specifiers(&d.specifiers);
        for (i, id) in d.declarators.iter().enumerate() {
            self.write(if i == 0 { " " } else { ", " });
            self.declarator(&id.node.declarator.node);
            if let Some(init) = &id.node.initializer {
                self.write(" = ");
                self.initializer(&init.node);
            }
        }
    }

    pub(super) fn decl_specifiers(&mut self, specs: &[Node<DeclarationSpecifier>]) {
        // `_Atomic` as a qualifier goes first so it is never followed by `(` (which would make it
        // the `_Atomic(type)` specifier).
        let is_atomic_q = |s: &&Node<DeclarationSpecifier>| matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Atomic);
        let ordered = specs
            .iter()
            .filter(is_atomic_q)
            .chain(specs.iter().filter(|s| !is_atomic_q(s)));
        for (i, s) in ordered.enumerate() {
            if i > 0 {
                self.write(" ");
            }
            match &s.node {
                DeclarationSpecifier::StorageClass(c) => self.write(storage_class(&c.node)),
                DeclarationSpecifier::TypeSpecifier(t) => self.type_specifier(&t.node),
                DeclarationSpecifier::TypeQualifier(q) => self.write(type_qualifier(&q.node)),
                DeclarationSpecifier::Function(f) => self.write(match f.node {
                    FunctionSpecifier::Inline => "inline",
                    FunctionSpecifier::Noreturn => "_Noreturn",
                }),
                DeclarationSpecifier::Alignment(a) => self.alignment(&a.node),
                DeclarationSpecifier::Extension(exts) => self.extensions(exts),
            }
        }
    }

    pub(super) fn spec_qualifiers(&mut self, specs: &[Node<SpecifierQualifier>]) {
        let is_atomic_q = |s: &&Node<SpecifierQualifier>| matches!(&s.node, SpecifierQualifier::TypeQualifier(q) if q.node == TypeQualifier::Atomic);
        let ordered = specs
            .iter()
            .filter(is_atomic_q)
            .chain(specs.iter().filter(|s| !is_atomic_q(s)));
        for (i, s) in ordered.enumerate() {
            if i > 0 {
                self.write(" ");
            }
            match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => self.type_specifier(&t.node),
                SpecifierQualifier::TypeQualifier(q) => self.write(type_qualifier(&q.node)),
                SpecifierQualifier::Extension(exts) => self.extensions(exts),
            }
        }
    }

    fn alignment(&mut self, a: &AlignmentSpecifier) {
        self.write("_Alignas(");
        match a {
            AlignmentSpecifier::Type(t) => self.type_name(&t.node),
            AlignmentSpecifier::Constant(e) => self.expr(&e.node, PREC_COND),
        }
        self.write(")");
    }

    fn type_specifier(&mut self, t: &TypeSpecifier) {
        match t {
            TypeSpecifier::Void => self.write("void"),
            TypeSpecifier::Char => self.write("char"),
            TypeSpecifier::Short => self.write("short"),
            TypeSpecifier::Int => self.write("int"),
            TypeSpecifier::Long => self.write("long"),
            TypeSpecifier::Float => self.write("float"),
            TypeSpecifier::Double => self.write("double"),
            TypeSpecifier::Signed => self.write("signed"),
            TypeSpecifier::Unsigned => self.write("unsigned"),
            TypeSpecifier::Bool => self.write("_Bool"),
            TypeSpecifier::Complex => self.write("_Complex"),
            TypeSpecifier::Atomic(tn) => {
                self.write("_Atomic(");
                self.type_name(&tn.node);
                self.write(")");
            }
            TypeSpecifier::Struct(s) => self.struct_type(&s.node),
            TypeSpecifier::Enum(e) => self.enum_type(&e.node),
            TypeSpecifier::TypedefName(id) => self.write(&id.node.name),
            TypeSpecifier::TypeOf(t) => {
                self.write("__typeof__(");
                match &t.node {
                    TypeOf::Expression(e) => self.expr(&e.node, PREC_COMMA),
                    TypeOf::Type(tn) => self.type_name(&tn.node),
                }
                self.write(")");
            }
            TypeSpecifier::TS18661Float(f) => self.write(&ts18661(f, true)),
        }
    }

    fn struct_type(&mut self, s: &StructType) {
        self.write(crate::syntax::build::struct_keyword(&s.kind.node));
        if let Some(id) = &s.identifier {
            self.write(" ");
            self.write(&id.node.name);
        }
        if let Some(decls) = &s.declarations {
            self.write(" {");
            self.indent += 1;
            for d in decls {
                self.newline();
                match &d.node {
                    StructDeclaration::Field(f) => self.struct_field(&f.node),
                    StructDeclaration::StaticAssert(sa) => self.static_assert(&sa.node),
                }
            }
            self.indent -= 1;
            self.newline();
            self.write("}");
        }
    }

    fn struct_field(&mut self, f: &StructField) {
        self.spec_qualifiers(&f.specifiers);
        for (i, d) in f.declarators.iter().enumerate() {
            self.write(if i == 0 { " " } else { ", " });
            if let Some(decl) = &d.node.declarator {
                self.declarator_core(&decl.node);
            }
            if let Some(w) = &d.node.bit_width {
                self.write(" : ");
                self.expr(&w.node, PREC_COND);
            }
            if let Some(decl) = &d.node.declarator {
                self.declarator_extensions(&decl.node.extensions);
            }
        }
        self.write(";");
    }

    fn enum_type(&mut self, e: &EnumType) {
        self.write("enum");
        if let Some(id) = &e.identifier {
            self.write(" ");
            self.write(&id.node.name);
        }
        if !e.enumerators.is_empty() {
            self.write(" {");
            self.indent += 1;
            let n = e.enumerators.len();
            for (i, en) in e.enumerators.iter().enumerate() {
                self.newline();
                self.write(&en.node.identifier.node.name);
                if !en.node.extensions.is_empty() {
                    self.write(" ");
                    self.extensions(&en.node.extensions);
                }
                if let Some(v) = &en.node.expression {
                    self.write(" = ");
                    self.expr(&v.node, PREC_COND);
                }
                if i + 1 < n {
                    self.write(",");
                }
            }
            self.indent -= 1;
            self.newline();
            self.write("}");
        }
    }

    pub(super) fn extensions(&mut self, exts: &[Node<Extension>]) {
        for (i, e) in exts.iter().enumerate() {
            if i > 0 {
                self.write(" ");
            }
            self.extension(&e.node);
        }
    }

    pub(super) fn extension(&mut self, e: &Extension) {
        match e {
            Extension::Attribute(a) => {
                self.write("__attribute__((");
                self.write(&a.name.node);
                if !a.arguments.is_empty() {
                    self.write("(");
                    self.expr_list(&a.arguments);
                    self.write(")");
                }
                self.write("))");
            }
            Extension::AsmLabel(s) => {
                self.write("__asm__(");
                self.string_literal(&s.node);
                self.write(")");
            }
            Extension::AvailabilityAttribute(a) => {
                self.write("__attribute__((availability(");
                self.write(&a.node.platform.node.name);
                for c in &a.node.clauses {
                    self.write(", ");
                    match &c.node {
                        AvailabilityClause::Introduced(v) => {
                            self.write("introduced=");
                            self.availability_version(&v.node);
                        }
                        AvailabilityClause::Deprecated(v) => {
                            self.write("deprecated=");
                            self.availability_version(&v.node);
                        }
                        AvailabilityClause::Obsoleted(v) => {
                            self.write("obsoleted=");
                            self.availability_version(&v.node);
                        }
                        AvailabilityClause::Unavailable => self.write("unavailable"),
                        AvailabilityClause::Message(s) => {
                            self.write("message=");
                            self.string_literal(&s.node);
                        }
                        AvailabilityClause::Replacement(s) => {
                            self.write("replacement=");
                            self.string_literal(&s.node);
                        }
                    }
                }
                self.write(")))");
            }
        }
    }

    fn availability_version(&mut self, v: &AvailabilityVersion) {
        self.write(&v.major);
        if let Some(m) = &v.minor {
            self.write(".");
            self.write(m);
        }
        if let Some(s) = &v.subminor {
            self.write(".");
            self.write(s);
        }
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

pub(super) fn type_qualifier(q: &TypeQualifier) -> &'static str {
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
