//! Refuses a user program that spells a name with ladr's reserved prefix
//! ([`crate::syntax::names::PREFIX`], `__ladr_`). Every generated name carries it, and the
//! passes and the proof read some of them as what ladr made them (the OpenMP lowering's
//! team size and barriers, the model's state): a user object named so could pass for one.
//! C reserves identifiers that begin with two underscores to the implementation, so no
//! conforming program needs one. Checked on the unit as parsed, before the OpenMP lowering
//! adds its own.

use crate::diag::{Error, Result};
use crate::syntax::names::PREFIX;
use crate::syntax::walk::visit::{self, Visitor};
use crate::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// The first name of `unit` that starts with the reserved prefix, as an error at it.
pub(crate) fn check(unit: &TranslationUnit) -> Result<()> {
    struct Find;
    impl Find {
        fn name(name: &str, span: Span) -> std::result::Result<Walk, (Span, String)> {
            if name.starts_with(PREFIX) {
                return Err((span, name.to_string()));
            }
            Ok(Walk::Descend)
        }
    }
    impl Visitor for Find {
        type Error = (Span, String);
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Self::Error> {
            match &e.node {
                Expression::Identifier(i) => Find::name(&i.node.name, e.span),
                Expression::Member(m) => Find::name(&m.node.identifier.node.name, e.span),
                _ => Ok(Walk::Descend),
            }
        }
        fn declarator(&mut self, d: &Node<Declarator>) -> std::result::Result<Walk, Self::Error> {
            match crate::syntax::build::declarator_name(&d.node) {
                Some(n) => Find::name(n, d.span),
                None => Ok(Walk::Descend),
            }
        }
        fn type_specifier(
            &mut self,
            t: &Node<TypeSpecifier>,
        ) -> std::result::Result<Walk, Self::Error> {
            if let TypeSpecifier::Enum(e) = &t.node {
                for x in &e.node.enumerators {
                    Find::name(&x.node.identifier.node.name, x.node.identifier.span)?;
                }
            }
            let name = match &t.node {
                TypeSpecifier::TypedefName(n) => Some(&n.node.name),
                TypeSpecifier::Struct(s) => s.node.identifier.as_ref().map(|i| &i.node.name),
                TypeSpecifier::Enum(e) => e.node.identifier.as_ref().map(|i| &i.node.name),
                _ => None,
            };
            match name {
                Some(n) => Find::name(n, t.span),
                None => Ok(Walk::Descend),
            }
        }
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, Self::Error> {
            match &s.node {
                Statement::Labeled(l) => match &l.node.label.node {
                    Label::Identifier(i) => Find::name(&i.node.name, i.span),
                    _ => Ok(Walk::Descend),
                },
                Statement::Goto(l) => Find::name(&l.node.name, l.span),
                _ => Ok(Walk::Descend),
            }
        }
    }
    visit::unit(&mut Find, unit).map_err(|(span, name)| {
        Error::unsupported(
            span,
            format!("`{name}` begins with `{PREFIX}`, the prefix ladr reserves for the names it generates"),
        )
        .note("C reserves names that begin with two underscores to the implementation: rename it")
    })
}

#[cfg(test)]
mod tests {
    use crate::frontend::parse_part;

    #[test]
    fn a_reserved_name_is_refused_where_it_is() {
        for src in [
            "int __ladr_0_omp_team_size;\nint main(void) { return 0; }\n",
            "int main(void) { int __ladr_x = 1; return __ladr_x; }\n",
            "struct __ladr_s { int a; };\nint main(void) { return 0; }\n",
            "int main(void) { goto __ladr_L1; __ladr_L1: return 0; }\n",
            "enum e { __ladr_A };\nint main(void) { return 0; }\n",
            "struct s { int __ladr_f; };\nint main(void) { return 0; }\n",
        ] {
            let e = parse_part(src, "t.c", 2).err().expect("refused");
            assert!(e.message.contains("`__ladr_"), "{}", e.message);
            assert!(e.span.is_some());
        }
        assert!(parse_part("int ladr_x;\nint main(void) { return ladr_x; }\n", "t.c", 2).is_ok());
    }
}
