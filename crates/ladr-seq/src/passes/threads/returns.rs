//! What each function declared at file scope returns (a value, a pointer to an object, a
//! pointer to a struct the program never completes): what a call of a function without a
//! body is assumed to give.

use super::locals::is_typedef;
use ladr_c::syntax::build::is_function_declarator;
use ladr_c::syntax::build::*;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// What a function declared at file scope returns.
#[derive(Clone, Copy, Default)]
pub(crate) struct Returns {
    /// A value (its type is not `void`).
    pub(crate) value: bool,
    /// A pointer to an object (not `void *`, not a function pointer).
    pub(crate) object: bool,
    /// A pointer to a struct the program never completes (`DIR *`, glibc's
    /// `struct __dirstream`): `sizeof` of its pointee is an error, and the program cannot
    /// look inside it, so a fresh object of one byte stands for it.
    pub(crate) opaque: bool,
    /// `void *`: a pointer the program may use as one to an object of any type.
    pub(crate) void_pointer: bool,
}

impl Returns {
    /// Is a call's result (of function `name`, without a body) a null pointer or a fresh
    /// object: a pointer to an object, or a `void *` that does not point into the call's
    /// arguments ([`crate::model::library::points_into_arguments`])? The bounded check
    /// makes the object (`library_calls.rs`), the static proof assumes the same
    /// (`prove/blocks.rs`).
    pub(crate) fn fresh(&self, name: &str) -> bool {
        self.object || (self.void_pointer && !crate::model::library::points_into_arguments(name))
    }
}

/// The struct (or union) tag a type specifier names, directly or through a typedef.
fn struct_tag<'a>(
    t: &'a TypeSpecifier,
    typedefs: &HashMap<&'a str, &'a TypeSpecifier>,
) -> Option<(&'a str, bool)> {
    match t {
        TypeSpecifier::Struct(st) => st
            .node
            .identifier
            .as_ref()
            .map(|i| (i.node.name.as_str(), st.node.declarations.is_some())),
        TypeSpecifier::TypedefName(n) => typedefs
            .get(n.node.name.as_str())
            .and_then(|t| struct_tag(t, &HashMap::new())),
        _ => None,
    }
}

/// What each function declared at file scope returns.
pub(crate) fn returns_value(decls: &[Node<ExternalDeclaration>]) -> HashMap<String, Returns> {
    let mut out = HashMap::new();
    // Typedefs of one type specifier, and the struct tags the program completes.
    let mut typedefs: HashMap<&str, &TypeSpecifier> = HashMap::new();
    let mut complete: HashSet<&str> = HashSet::new();
    for ext in decls {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let types: Vec<&TypeSpecifier> = d
            .node
            .specifiers
            .iter()
            .filter_map(|s| match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
                _ => None,
            })
            .collect();
        for t in &types {
            if let Some((tag, true)) = struct_tag(t, &HashMap::new()) {
                complete.insert(tag);
            }
        }
        if is_typedef(&d.node) && types.len() == 1 {
            for id in &d.node.declarators {
                if id.node.declarator.node.derived.is_empty() {
                    if let Some(n) = declarator_name(&id.node.declarator.node) {
                        typedefs.insert(n, types[0]);
                    }
                }
            }
        }
    }
    for ext in decls {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let void = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if t.node == TypeSpecifier::Void)
        });
        for id in &d.node.declarators {
            let dd = &id.node.declarator.node;
            if !is_function_declarator(dd) {
                continue;
            }
            let Some(name) = declarator_name(dd) else {
                continue;
            };
            // `void *f(void)` returns a pointer; `T *f(void)` (T not void, or `void **`) a
            // pointer to an object.
            let pointers = dd
                .derived
                .iter()
                .take_while(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
                .count();
            let object = matches!(dd.kind.node, DeclaratorKind::Identifier(_))
                && pointers > 0
                && (!void || pointers > 1);
            let opaque = object
                && pointers == 1
                && d.node.specifiers.iter().any(|s| {
                    matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t)
                        if struct_tag(&t.node, &typedefs)
                            .is_some_and(|(tag, _)| !complete.contains(tag)))
                });
            out.insert(
                name.to_string(),
                Returns {
                    value: !void || pointers > 0,
                    object,
                    opaque,
                    void_pointer: void && pointers == 1,
                },
            );
        }
    }
    out
}
