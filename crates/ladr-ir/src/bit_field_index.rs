//! Which member accesses are bit-fields, and where their memory location is: the
//! [`BitAnchor`] of a member expression `s.f` / `p->f`.
//!
//! A member name that is a bit-field in every struct declaring it is one (with the anchor
//! those structs agree on). A name that is a bit-field in one struct and an ordinary member
//! in another (`unsigned flags : 8` in Linux's `struct _ddebug`, `unsigned int flags` in its
//! `wait_queue_t`) is decided by the struct of the accessed object where the declaration of
//! a variable names it (`x.f` with `struct s x`, `p->f` with `struct s *p`, through
//! typedefs); elsewhere it is [`BitAnchor::Unknown`] (the flags on the whole object), which
//! is valid C whether the member is a bit-field or not. Taking `&x.f` of a bit-field would
//! not be (CBMC refuses the program).

use ladr_c::syntax::build::{declarator_name, struct_members};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

use crate::bit_fields::{bit_field_anchors, BitAnchor};

/// The members of one struct: a bit-field's anchor, or `None` for an ordinary member.
type Members = HashMap<String, Option<BitAnchor>>;

/// The bit-fields of a program (see the module's header).
#[derive(Clone, Debug, Default)]
pub struct BitFields {
    /// Member names that are a bit-field in some struct, with their anchor (`Unknown` where
    /// structs disagree).
    by_name: HashMap<String, BitAnchor>,
    /// Member names that are an ordinary member (not a bit-field) in some struct.
    plain: HashSet<String>,
    /// The members of each struct by key (`struct T`, `union T`, or a key of an untagged
    /// one); `None` where two definitions of the key differ.
    structs: HashMap<String, Option<Members>>,
    /// typedef name → key of the struct it names (no pointer, no array).
    typedefs: HashMap<String, String>,
    /// Variable → (key of its struct type, whether it is a pointer to it); `None` where its
    /// declarations disagree.
    vars: HashMap<String, Option<(String, bool)>>,
    /// How many untagged structs have keys.
    untagged: usize,
}

impl BitFields {
    /// The bit-fields of every struct declared in `unit`.
    pub fn of(unit: &TranslationUnit) -> BitFields {
        let mut b = BitFields::default();
        for ext in &unit.0 {
            let Ok(()) = match &ext.node {
                ExternalDeclaration::Declaration(d) => visit::declaration(&mut b, d),
                ExternalDeclaration::StaticAssert(_) => Ok(()),
                ExternalDeclaration::FunctionDefinition(f) => {
                    for s in &f.node.specifiers {
                        let Ok(()) = visit::decl_specifier(&mut b, s);
                    }
                    visit::function(&mut b, f)
                }
            };
        }
        b
    }

    /// Where the memory location of the member `m` starts, when `m` is a bit-field (or may
    /// be one: [`BitAnchor::Unknown`]); `None` for an ordinary member.
    pub fn anchor(&self, m: &MemberExpression) -> Option<BitAnchor> {
        let name = &m.identifier.node.name;
        let anchor = self.by_name.get(name)?;
        if !self.plain.contains(name) {
            return Some(anchor.clone());
        }
        let pointer = m.operator.node == MemberOperator::Indirect;
        let Expression::Identifier(x) = &m.expression.node else {
            return Some(BitAnchor::Unknown);
        };
        let own = match self.vars.get(&x.node.name) {
            Some(Some((key, p))) if *p == pointer => self.structs.get(key),
            _ => None,
        };
        match own {
            Some(Some(members)) => members
                .get(name)
                .cloned()
                .unwrap_or(Some(BitAnchor::Unknown)),
            _ => Some(BitAnchor::Unknown),
        }
    }

    /// The key of the struct type the specifiers name, registering an untagged definition.
    fn key_of<'a>(&mut self, specs: impl Iterator<Item = &'a TypeSpecifier>) -> Option<String> {
        for t in specs {
            match t {
                TypeSpecifier::Struct(st) => {
                    let kind = ladr_c::syntax::build::struct_keyword(&st.node.kind.node);
                    return Some(match &st.node.identifier {
                        Some(id) => format!("{kind} {}", id.node.name),
                        None => {
                            st.node.declarations.as_ref()?;
                            self.untagged += 1;
                            let key = format!("{kind} #{}", self.untagged);
                            self.define(key.clone(), &st.node);
                            key
                        }
                    });
                }
                TypeSpecifier::TypedefName(n) => return self.typedefs.get(&n.node.name).cloned(),
                _ => {}
            }
        }
        None
    }

    /// Records the members of a struct definition under `key`.
    fn define(&mut self, key: String, st: &StructType) {
        let mut members: Members = bit_field_anchors(st)
            .into_iter()
            .map(|(n, a)| (n, Some(a)))
            .collect();
        for (name, bit_width) in struct_members(st) {
            if let (Some(n), None) = (name, bit_width) {
                self.plain.insert(n.to_string());
                members.insert(n.to_string(), None);
            }
        }
        for (name, anchor) in members.iter() {
            if let Some(anchor) = anchor {
                self.by_name
                    .entry(name.clone())
                    .and_modify(|a| {
                        if a != anchor {
                            *a = BitAnchor::Unknown
                        }
                    })
                    .or_insert_with(|| anchor.clone());
            }
        }
        self.structs
            .entry(key)
            .and_modify(|old| {
                if old.as_ref() != Some(&members) {
                    *old = None
                }
            })
            .or_insert(Some(members));
    }

    /// Records what a declarator of `specs` declares: a typedef of a struct, or a variable of
    /// a struct type or a pointer to one.
    fn declare(&mut self, key: Option<String>, d: &Declarator, is_typedef: bool) {
        let Some(name) = declarator_name(d) else {
            return;
        };
        let plain = matches!(d.kind.node, DeclaratorKind::Identifier(_));
        let shape = match d.derived.iter().map(|x| &x.node).collect::<Vec<_>>()[..] {
            [] if plain => Some(false),
            [DerivedDeclarator::Pointer(_)] if plain => Some(true),
            _ => None,
        };
        let typed = key.zip(shape);
        if is_typedef {
            match typed {
                Some((key, false)) => self.typedefs.insert(name.to_string(), key),
                _ => self.typedefs.remove(name),
            };
            return;
        }
        self.vars
            .entry(name.to_string())
            .and_modify(|old| {
                if *old != typed {
                    *old = None
                }
            })
            .or_insert(typed);
    }
}

/// The type specifiers of a declaration's specifiers.
fn type_specifiers(specs: &[Node<DeclarationSpecifier>]) -> impl Iterator<Item = &TypeSpecifier> {
    specs.iter().filter_map(|s| match &s.node {
        DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
        _ => None,
    })
}

impl Visitor for BitFields {
    type Error = Infallible;

    fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
        let is_typedef = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(sc) if sc.node == StorageClassSpecifier::Typedef)
        });
        let key = self.key_of(type_specifiers(&d.node.specifiers));
        for id in &d.node.declarators {
            self.declare(key.clone(), &id.node.declarator.node, is_typedef);
        }
        Ok(Walk::Descend)
    }

    fn declarator(&mut self, d: &Node<Declarator>) -> Result<Walk, Infallible> {
        for dd in &d.node.derived {
            if let DerivedDeclarator::Function(f) = &dd.node {
                for p in &f.node.parameters {
                    if let Some(pd) = &p.node.declarator {
                        let key = self.key_of(type_specifiers(&p.node.specifiers));
                        self.declare(key, &pd.node, false);
                    }
                }
            }
        }
        Ok(Walk::Descend)
    }

    fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> Result<Walk, Infallible> {
        if let TypeSpecifier::Struct(st) = &t.node {
            if let (Some(id), Some(_)) = (&st.node.identifier, &st.node.declarations) {
                let kind = ladr_c::syntax::build::struct_keyword(&st.node.kind.node);
                self.define(format!("{kind} {}", id.node.name), &st.node);
            }
        }
        Ok(Walk::Descend)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The anchor of the member access that is the expression statement `stmt` in `main`.
    fn anchor_in(src: &str) -> Option<BitAnchor> {
        let (_, unit, _) = ladr_c::frontend::parse_text(src, "t.i").unwrap();
        let b = BitFields::of(&unit);
        let mut found = None;
        ladr_c::syntax::query::for_each_expr(
            &unit,
            ladr_c::syntax::query::Operands::All,
            |e: &Node<Expression>| {
                if let Expression::Member(m) = &e.node {
                    found = Some(b.anchor(&m.node));
                }
            },
        );
        found.expect("a member access")
    }

    #[test]
    fn a_member_that_is_a_bit_field_elsewhere_is_decided_by_its_struct() {
        let structs = "struct d { char *format; unsigned flags : 8; };
             typedef struct w w_t; struct w { unsigned int flags; void *p; };
             typedef struct { int a; unsigned flags : 3; } u_t;";
        let at = |body: &str| anchor_in(&format!("{structs} void f(w_t *q) {{ {body} }}"));
        assert_eq!(at("w_t x; x.flags = 0;"), None);
        assert_eq!(at("q->flags = 0;"), None);
        assert_eq!(
            at("struct d x; x.flags = 0;"),
            Some(BitAnchor::After("format".into()))
        );
        assert_eq!(
            at("u_t x; x.flags = 0;"),
            Some(BitAnchor::After("a".into()))
        );
        // Not known from a declaration: the whole object.
        assert_eq!(at("(*q).flags = 0;"), Some(BitAnchor::Unknown));
        // A name that is a bit-field everywhere keeps its anchor.
        assert_eq!(
            anchor_in("struct d { int x; int b : 3; }; struct d *g; void f(void) { g[0].b = 1; }"),
            Some(BitAnchor::After("x".into()))
        );
    }
}
