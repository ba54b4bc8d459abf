//! Declarators (pointers, the declared name, array and function suffixes; see the module
//! header of [`super`] for their order), type names and initializers.

use super::declarations::type_qualifier;
use super::{Printer, PREC_ASSIGN, PREC_COND};
use lang_c::ast::*;
use lang_c::span::Node;

impl Printer {
    /// Declarator extensions, printed after the declarator: asm labels first (GCC wants them
    /// before attributes).
    pub(super) fn declarator_extensions(&mut self, exts: &[Node<Extension>]) {
        for e in exts {
            if matches!(e.node, Extension::AsmLabel(_)) {
                self.write(" ");
                self.extension(&e.node);
            }
        }
        for e in exts {
            if !matches!(e.node, Extension::AsmLabel(_)) {
                self.write(" ");
                self.extension(&e.node);
            }
        }
    }

    pub(super) fn declarator(&mut self, d: &Declarator) {
        self.declarator_core(d);
        self.declarator_extensions(&d.extensions);
    }

    fn declarator_is_empty(d: &Declarator) -> bool {
        matches!(d.kind.node, DeclaratorKind::Abstract)
            && d.derived.is_empty()
            && d.extensions.is_empty()
    }

    /// Pointers, then the kind, then the suffixes (see the module header); no extensions.
    pub(super) fn declarator_core(&mut self, d: &Declarator) {
        let mut space_before_kind = false;
        for dd in &d.derived {
            let (star, quals) = match &dd.node {
                DerivedDeclarator::Pointer(q) => ("*", q),
                DerivedDeclarator::Block(q) => ("^", q),
                _ => continue,
            };
            if space_before_kind {
                self.write(" ");
            }
            self.write(star);
            space_before_kind = self.pointer_qualifiers(quals);
        }
        match &d.kind.node {
            DeclaratorKind::Abstract => {}
            DeclaratorKind::Identifier(id) => {
                if space_before_kind {
                    self.write(" ");
                }
                self.write(&id.node.name);
            }
            DeclaratorKind::Declarator(inner) => {
                if space_before_kind {
                    self.write(" ");
                }
                self.write("(");
                self.declarator(&inner.node);
                self.write(")");
            }
        }
        for dd in &d.derived {
            match &dd.node {
                DerivedDeclarator::Pointer(_) | DerivedDeclarator::Block(_) => {}
                DerivedDeclarator::Array(a) => self.array_declarator(&a.node),
                DerivedDeclarator::Function(f) => {
                    self.write("(");
                    self.parameters(&f.node);
                    self.write(")");
                }
                DerivedDeclarator::KRFunction(ids) => {
                    self.write("(");
                    for (i, id) in ids.iter().enumerate() {
                        if i > 0 {
                            self.write(", ");
                        }
                        self.write(&id.node.name);
                    }
                    self.write(")");
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
            self.write(if any { " " } else { "" });
            match &q.node {
                PointerQualifier::TypeQualifier(t) => self.write(type_qualifier(&t.node)),
                PointerQualifier::Extension(e) => self.extensions(e),
            }
            any = true;
        }
        any
    }

    fn array_declarator(&mut self, a: &ArrayDeclarator) {
        self.write("[");
        let mut first = true;
        if let ArraySize::StaticExpression(_) = a.size {
            self.write("static");
            first = false;
        }
        for q in &a.qualifiers {
            if !first {
                self.write(" ");
            }
            self.write(type_qualifier(&q.node));
            first = false;
        }
        match &a.size {
            ArraySize::Unknown => {}
            ArraySize::VariableUnknown => {
                if !first {
                    self.write(" ");
                }
                self.write("*");
            }
            ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                if !first {
                    self.write(" ");
                }
                self.expr(&e.node, PREC_ASSIGN);
            }
        }
        self.write("]");
    }

    fn parameters(&mut self, f: &FunctionDeclarator) {
        if f.parameters.is_empty() && f.ellipsis == Ellipsis::None {
            self.write("void");
            return;
        }
        for (i, p) in f.parameters.iter().enumerate() {
            if i > 0 {
                self.write(", ");
            }
            self.decl_specifiers(&p.node.specifiers);
            if let Some(d) = &p.node.declarator {
                if !Self::declarator_is_empty(&d.node) {
                    self.write(" ");
                    self.declarator(&d.node);
                }
            }
            if !p.node.extensions.is_empty() {
                self.write(" ");
                self.extensions(&p.node.extensions);
            }
        }
        if f.ellipsis == Ellipsis::Some {
            if !f.parameters.is_empty() {
                self.write(", ");
            }
            self.write("...");
        }
    }

    pub(super) fn type_name(&mut self, t: &TypeName) {
        self.spec_qualifiers(&t.specifiers);
        if let Some(d) = &t.declarator {
            if !Self::declarator_is_empty(&d.node) {
                self.write(" ");
                self.declarator(&d.node);
            }
        }
    }

    pub(super) fn initializer(&mut self, i: &Initializer) {
        match i {
            Initializer::Expression(e) => self.expr(&e.node, PREC_ASSIGN),
            Initializer::List(items) => self.initializer_list(items),
        }
    }

    pub(super) fn initializer_list(&mut self, items: &[Node<InitializerListItem>]) {
        self.write("{");
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.write(", ");
            }
            for d in &item.node.designation {
                match &d.node {
                    Designator::Index(e) => {
                        self.write("[");
                        self.expr(&e.node, PREC_COND);
                        self.write("]");
                    }
                    Designator::Member(id) => {
                        self.write(".");
                        self.write(&id.node.name);
                    }
                    Designator::Range(r) => {
                        self.write("[");
                        self.expr(&r.node.from.node, PREC_COND);
                        self.write(" ... ");
                        self.expr(&r.node.to.node, PREC_COND);
                        self.write("]");
                    }
                }
            }
            if !item.node.designation.is_empty() {
                self.write(" = ");
            }
            self.initializer(&item.node.initializer.node);
        }
        self.write("}");
    }
}
