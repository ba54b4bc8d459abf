//! Declarations the inliner writes for a call: the result temporary of the callee's return
//! type, and the top-level qualifiers dropped from an object assigned after its declaration.

use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use lang_c::ast::*;
use lang_c::span::Node;

/// The declaration of a result temporary of `f`'s return type; None for `void`.
pub(super) fn result_declaration(
    f: &FunctionDefinition,
    names: &mut Names,
) -> Option<(String, Node<Declaration>)> {
    let span = f.declarator.span;
    let mut specs: Vec<_> = f
        .specifiers
        .iter()
        .filter(|s| {
            !matches!(
                s.node,
                DeclarationSpecifier::StorageClass(_)
                    | DeclarationSpecifier::Function(_)
                    | DeclarationSpecifier::Extension(_)
                    | DeclarationSpecifier::Alignment(_)
            )
        })
        .cloned()
        .collect();
    let mut d = f.declarator.node.clone();
    d.extensions.clear();
    let r = names.temp();
    {
        let inner = innermost_mut(&mut d);
        if let Some(n) = declarator_name_mut(inner) {
            n.name = r.clone();
        }
        if let Some(pos) = inner.derived.iter().position(|x| {
            matches!(
                x.node,
                DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
            )
        }) {
            inner.derived.remove(pos);
        }
    }
    fn no_derived(d: &Declarator) -> bool {
        d.derived.is_empty()
            && match &d.kind.node {
                DeclaratorKind::Declarator(i) => no_derived(&i.node),
                _ => true,
            }
    }
    let is_void = no_derived(&d)
        && specs.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t)
                if matches!(t.node, TypeSpecifier::Void))
        });
    if is_void {
        return None;
    }
    if specs.is_empty() {
        // Implicit int (old C).
        specs.push(spec(TypeSpecifier::Int, span));
    }
    strip_top_qualifiers(&mut specs, &mut d);
    Some((r, declare(specs, node(d, span), None, span)))
}

/// Drops top-level `const`/`volatile` of the declared object (it is assigned after its
/// declaration).
pub(super) fn strip_top_qualifiers(
    specs: &mut Vec<Node<DeclarationSpecifier>>,
    d: &mut Declarator,
) {
    let inner = innermost_mut(d);
    let pointer_outermost = inner
        .derived
        .iter()
        .all(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
        && !inner.derived.is_empty();
    let plain =
        inner.derived.is_empty() && matches!(inner.kind.node, DeclaratorKind::Identifier(_));
    if plain {
        specs.retain(|s| {
            !matches!(&s.node, DeclarationSpecifier::TypeQualifier(q)
                if matches!(q.node, TypeQualifier::Const))
        });
    } else if pointer_outermost {
        if let Some(Node {
            node: DerivedDeclarator::Pointer(qs),
            ..
        }) = inner.derived.last_mut()
        {
            qs.retain(|q| {
                !matches!(&q.node, PointerQualifier::TypeQualifier(t)
                    if matches!(t.node, TypeQualifier::Const))
            });
        }
    }
}
