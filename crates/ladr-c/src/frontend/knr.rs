//! K&R-style function definitions rewritten into prototype form, as the front end reads them.
//!
//! ```text
//! unsigned long crc32(crc, buf, len)            unsigned long crc32(unsigned long crc,
//!   unsigned long crc; const unsigned char *buf;  →                   const unsigned char *buf,
//!   unsigned len; { … }                                               unsigned len) { … }
//! ```
//!
//! A parameter without a declaration is `int` (C89's implicit int). The two forms differ
//! only in how a call converts its arguments (default promotions and then conversion to the
//! parameter's type, or conversion to it directly), which gives the same value for every
//! argument a well-defined K&R call passes; the passes then inline the function like any
//! other (they refused K&R definitions with parameters).

use crate::syntax::build::{declarator_name, innermost_mut};
use lang_c::ast::*;
use lang_c::span::Node;

/// Rewrites every K&R definition with parameters of `unit` into prototype form.
pub fn to_prototypes(unit: &mut TranslationUnit) {
    for ext in &mut unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &mut ext.node {
            to_prototype(&mut f.node);
        }
    }
}

fn to_prototype(f: &mut FunctionDefinition) {
    let declarations = std::mem::take(&mut f.declarations);
    let inner = innermost_mut(&mut f.declarator.node);
    let Some(d) = inner
        .derived
        .iter_mut()
        .find(|d| matches!(&d.node, DerivedDeclarator::KRFunction(ids) if !ids.is_empty()))
    else {
        f.declarations = declarations;
        return;
    };
    let DerivedDeclarator::KRFunction(ids) = &d.node else {
        unreachable!("found above")
    };
    let parameters = ids.iter().map(|id| parameter(id, &declarations)).collect();
    d.node = DerivedDeclarator::Function(Node::new(
        FunctionDeclarator {
            parameters,
            ellipsis: Ellipsis::None,
        },
        d.span,
    ));
}

/// The parameter `id` as its declaration in the K&R list declares it (`int id` without one).
fn parameter(
    id: &Node<Identifier>,
    declarations: &[Node<Declaration>],
) -> Node<ParameterDeclaration> {
    for decl in declarations {
        for init in &decl.node.declarators {
            if declarator_name(&init.node.declarator.node) == Some(id.node.name.as_str()) {
                return Node::new(
                    ParameterDeclaration {
                        specifiers: decl.node.specifiers.clone(),
                        declarator: Some(init.node.declarator.clone()),
                        extensions: vec![],
                    },
                    decl.span,
                );
            }
        }
    }
    let int = Node::new(
        DeclarationSpecifier::TypeSpecifier(Node::new(TypeSpecifier::Int, id.span)),
        id.span,
    );
    let declarator = Node::new(
        Declarator {
            kind: Node::new(DeclaratorKind::Identifier(id.clone()), id.span),
            derived: vec![],
            extensions: vec![],
        },
        id.span,
    );
    Node::new(
        ParameterDeclaration {
            specifiers: vec![int],
            declarator: Some(declarator),
            extensions: vec![],
        },
        id.span,
    )
}

#[cfg(test)]
mod tests {
    use crate::frontend::parse_text;
    use crate::print::print_unit;

    #[test]
    fn knr_definitions_become_prototypes() {
        let src =
            "unsigned long crc(c, buf, len, n)\n  unsigned long c; const unsigned char *buf, \
                   b2; unsigned len;\n{ return c + buf[0] + len + n; }\nint g() { return 1; }\n";
        let (_, unit, _) = parse_text(src, "t.i").unwrap();
        let text = print_unit(&unit).text;
        assert!(
            text.contains(
                "unsigned long crc(unsigned long c, const unsigned char *buf, unsigned len, int n)"
            ),
            "{text}"
        );
        assert!(text.contains("int g()"), "{text}");
    }
}
