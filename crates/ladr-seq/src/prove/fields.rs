//! Members told apart through pointers (issue 30, `docs/decisions/static.md`, "Members
//! told apart through pointers"): the member path of an access through a pointer
//! declared as a pointer to one tag or typedef name ([`Scan::typed_part`], kept by
//! [`super::objects`] for the objects surely of that type at their start), and the moves
//! of arithmetic members of such objects, which shift no pointer ([`member_shifts`]).

use super::heap::{NodeId, Obj};
use super::scan::Scan;
use super::{Path, Step};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeSet, HashSet};

impl<'a> Scan<'_, 'a> {
    /// The dimensions of `e` when it is a member (`x.f`, `p->f`) that every struct
    /// naming a member `f` declares as an array.
    pub fn array_member(&self, e: &Node<Expression>) -> Option<usize> {
        let Expression::Member(m) = &e.node else {
            return None;
        };
        let depth = self.decls.ir.field_depth(&m.node.identifier.node.name)?;
        (depth > 0).then_some(depth)
    }

    /// The part `path` of `*base` with the pointee type it is read at, when `base` is a
    /// variable declared as a pointer to one tag or typedef name the program defines
    /// once (`struct s *q`): [`super::objects`] keeps the part for the objects surely of
    /// that type at their start. None: the access is of the whole object.
    pub fn typed_part(&self, base: &Node<Expression>, path: Path) -> Option<(Path, String)> {
        let Expression::Identifier(i) = &base.node else {
            return None;
        };
        let shape = self.decls.vars[self.lookup(&i.node.name)?].shape.as_ref()?;
        let typed = !shape.array && !self.decls.redefined_tags.contains(&shape.base);
        (typed && !path.is_empty()).then(|| (path, shape.base.clone()))
    }

    /// `p->f` (`p` declared as a pointer to one tag or typedef name `T` the program
    /// defines once) or `v.f` (`v` declared `T`), also `p->g.f`, `v.g.f`, `f` an
    /// arithmetic member of no union and no bit-field: the node of the objects it lies
    /// in, and `T`.
    pub fn typed_member(&mut self, e: &'a Node<Expression>) -> Option<(NodeId, String)> {
        let Expression::Member(m) = &e.node else {
            return None;
        };
        let f = &m.node.identifier.node.name;
        if !self.decls.arithmetic_fields.contains(f) || self.decls.overlapping_fields.contains(f) {
            return None;
        }
        // Down through members (`p->in.f`): one member of the outermost object.
        let mut m = m;
        while m.node.operator.node == MemberOperator::Direct {
            match &m.node.expression.node {
                Expression::Member(outer) => m = outer,
                _ => break,
            }
        }
        let Expression::Identifier(i) = &m.node.expression.node else {
            return None;
        };
        let var = &self.decls.vars[self.lookup(&i.node.name)?];
        let t = if m.node.operator.node == MemberOperator::Indirect {
            let shape = var.shape.as_ref().filter(|s| !s.array)?;
            shape.base.clone()
        } else {
            var.plain.clone()?
        };
        if self.decls.redefined_tags.contains(&t) {
            return None;
        }
        Some((self.address(e), t))
    }
}

/// `step` followed by `rest`.
pub fn prepend(step: Step, rest: Path) -> Path {
    let mut p = Vec::with_capacity(rest.len() + 1);
    p.push(step);
    p.extend(rest);
    p
}

/// Is a cast to `t` one to a non-pointer type (an integer, a typedef name), not `void`?
/// A pointer converted so moves as a number the points-to does not follow.
pub fn integer_cast(t: &TypeName) -> bool {
    let pointer = t.declarator.as_ref().is_some_and(|d| {
        d.node
            .derived
            .iter()
            .any(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
    });
    let void = t.specifiers.iter().any(|s| {
        matches!(&s.node, SpecifierQualifier::TypeSpecifier(x) if x.node == TypeSpecifier::Void)
    });
    !pointer && !void
}

/// The arithmetic members moved ([`super::heap::PointsTo::member_shifts`]) by the
/// points-to `pts`; every variable their values may point to is added to `shifted`
/// (what [`super::lockptr`] reads: all of them count there).
pub fn member_shifts(
    shifts: &BTreeSet<(NodeId, NodeId, String)>,
    pts: &[BTreeSet<Obj>],
    shifted: &mut HashSet<super::decls::VarId>,
) -> Vec<(Vec<Obj>, Vec<Obj>, String)> {
    let out: Vec<(Vec<Obj>, Vec<Obj>, String)> = shifts
        .iter()
        .map(|(base, moved, t)| {
            let objects = pts[*base as usize].iter().copied().collect();
            let values: Vec<Obj> = pts[*moved as usize].iter().copied().collect();
            (objects, values, t.clone())
        })
        .collect();
    for (_, values, _) in &out {
        for o in values {
            if let Obj::Var(v) = o {
                shifted.insert(*v);
            }
        }
    }
    out
}
