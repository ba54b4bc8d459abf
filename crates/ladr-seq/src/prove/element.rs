//! A lock inside the array element it protects (issue 30): with `struct s { int datum;
//! pthread_mutex_t m; } a[10];`, `lock(&a[i].m); a[i].datum++;` and
//! `p = &a[j]; lock(&p->m); p->datum++;` cannot race, whatever `i` and `j` are.
//!
//! A *key* is an automatic local whose address the program never takes (so only its own
//! call writes it): an index `i` of `a[i]`, or an *element pointer* `p` — a local whose
//! every write gives it `&a[E]` (no cast) for one global array `a` of one dimension,
//! whose elements have the type `p` points to (the same base type, spelled alike, a tag
//! or typedef name the program defines once); a parameter only when, besides, its
//! function is called by name alone (not `main`, no start routine, its address never
//! taken, a prototype of fixed arity) and every call gives it `&a[E]`. `&a[k].m` (`&p->m`), `m` a
//! path of members and constant indices, names the lock [`Lock::Element`]`(a, k, m)`;
//! the walk holds it from the lock until an unlock of any mutex of `a` (two keys may name
//! one element), a write of `k` (a declaration included) or a call (the key is the
//! caller's: it is dropped from call sites and from what a function holds on return).
//!
//! An access of a part of `a[k]` (`a[k].datum`, `p->datum`) other than the memory at `m`,
//! made while `Element(a, k, m)` is held, is recorded holding [`Lock::InElement`]`(a, m)`
//! (and so is `a[3].datum` holding the mutex `a[3].m`). Two accesses of `a` that both hold
//! `InElement(a, m)` and overlap touch one element (a part of an element lies inside it),
//! whose mutex at `m` both hold at that moment: they exclude each other. An index out of
//! bounds, an uninitialised element pointer, are undefined behaviour, as for any access.

use super::decls::{Decls, VarId};
use super::scan::{Scan, Target};
use super::{Lock, Locks, Path, Step};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// A type of one array dimension (`array`) or one pointer of a base type named by one
/// tag or typedef name (`struct s a[10]`, `struct s *p`, `T a[4]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub base: String,
    pub array: bool,
}

/// The [`Shape`] of a declaration's type, if it has one.
pub fn shape(specs: &[Node<DeclarationSpecifier>], declarator: &Declarator) -> Option<Shape> {
    let base = base_name(specs)?;
    if !matches!(declarator.kind.node, DeclaratorKind::Identifier(_)) {
        return None;
    }
    let [only] = declarator.derived.as_slice() else {
        return None;
    };
    let array = match &only.node {
        DerivedDeclarator::Array(_) => true,
        DerivedDeclarator::Pointer(_) => false,
        _ => return None,
    };
    Some(Shape { base, array })
}

/// The base type of a declaration when it is one tag or typedef name (`struct s`, `T`).
fn base_name(specs: &[Node<DeclarationSpecifier>]) -> Option<String> {
    let types = ladr_c::syntax::build::type_specifiers(specs);
    Some(match types[..] {
        [TypeSpecifier::Struct(st)] => {
            let kind = ladr_c::syntax::build::struct_keyword(&st.node.kind.node);
            format!("{kind} {}", st.node.identifier.as_ref()?.node.name)
        }
        [TypeSpecifier::TypedefName(n)] => n.node.name.clone(),
        _ => return None,
    })
}

/// The type of a declaration that is its base type alone (`struct s x`, `T x`: no
/// array, no pointer), spelled as [`Shape::base`].
pub fn plain(specs: &[Node<DeclarationSpecifier>], declarator: &Declarator) -> Option<String> {
    let alone = declarator.derived.is_empty()
        && matches!(declarator.kind.node, DeclaratorKind::Identifier(_));
    alone.then(|| base_name(specs)).flatten()
}

/// The struct and union tags with more than one definition, and the typedef names
/// declared more than once, spelled as [`Shape::base`]: one spelling may be two types.
pub fn redefined_tags(unit: &TranslationUnit) -> HashSet<String> {
    #[derive(Default)]
    struct Count {
        seen: HashSet<String>,
        twice: HashSet<String>,
    }
    impl Count {
        fn add(&mut self, name: String) {
            if !self.seen.insert(name.clone()) {
                self.twice.insert(name);
            }
        }
    }
    impl Visitor for Count {
        type Error = Infallible;
        fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> Result<Walk, Infallible> {
            if let TypeSpecifier::Struct(st) = &t.node {
                if let (Some(id), Some(_)) = (&st.node.identifier, &st.node.declarations) {
                    let kind = ladr_c::syntax::build::struct_keyword(&st.node.kind.node);
                    self.add(format!("{kind} {}", id.node.name));
                }
            }
            Ok(Walk::Descend)
        }
        fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
            if ladr_c::syntax::build::is_typedef(&d.node) {
                for init in &d.node.declarators {
                    if let Some(n) =
                        ladr_c::syntax::build::declarator_name(&init.node.declarator.node)
                    {
                        self.add(n.to_string());
                    }
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut count = Count::default();
    let Ok(()) = visit::unit(&mut count, unit);
    count.twice
}

/// `locks` without the keyed element locks and the walk's facts about locals (the keys
/// and the guard variables are one call's locals).
pub fn without_keyed(mut locks: Locks) -> Locks {
    locks.retain(|l| {
        !matches!(
            l,
            Lock::Element(..)
                | Lock::Fresh(_)
                | Lock::FreshParam(_)
                | Lock::Guarded(..)
                | Lock::Compare(..)
        )
    });
    locks
}

/// The element pointers of the program, once the discovery has seen every write, every
/// call and every address taken: local → array. A parameter is one when its function is
/// called only by name (not `main`, no start routine, its address never taken) and every
/// call gives it `&a[E]`, and every write in its body too.
pub fn element_pointers(decls: &Decls, routines: &HashSet<&str>) -> HashMap<VarId, VarId> {
    let from_calls = |p: &super::decls::Var| -> Option<VarId> {
        let f = p.function.as_deref()?;
        let called_by_name_only = f != "main"
            && !routines.contains(f)
            && decls
                .function_targets
                .as_ref()
                .is_some_and(|t| !t.contains(f))
            && !decls
                .element_arguments
                .contains_key(&(f.to_string(), usize::MAX));
        if !called_by_name_only {
            return None;
        }
        *decls.element_arguments.get(&(f.to_string(), p.position?))?
    };
    decls
        .vars
        .iter()
        .enumerate()
        .filter_map(|(p, pv)| {
            let written = decls.element_writes.get(&p).copied();
            let a = match (pv.parameter, written) {
                (false, Some(a)) => a?,
                (true, None) => from_calls(pv)?,
                (true, Some(w)) => from_calls(pv).filter(|a| w == Some(*a))?,
                (false, None) => return None,
            };
            let av = &decls.vars[a];
            let (ps, ashape) = (pv.shape.as_ref()?, av.shape.as_ref()?);
            let fits = pv.automatic
                && !decls.escaped.contains(&p)
                && !ps.array
                && ashape.array
                && ps.base == ashape.base
                && !decls.redefined_tags.contains(&ps.base);
            fits.then_some((p, a))
        })
        .collect()
}

/// Do the parts `x` and `y` (of one element) surely share no memory? They differ first
/// in two members that overlap no other, or in two constant indices.
fn apart(x: &[Step], y: &[Step], decls: &Decls) -> bool {
    for (s, t) in x.iter().zip(y) {
        match (s, t) {
            _ if s == t
                && !matches!(
                    s,
                    Step::Index(None)
                        | Step::Own
                        | Step::Fresh
                        | Step::Iter(..)
                        | Step::Inv(..)
                        | Step::Base(..)
                        | Step::Table(..)
                        | Step::Window(..)
                ) => {}
            (Step::Field(f), Step::Field(g)) => {
                let shared = &decls.overlapping_fields;
                return !shared.contains(f) && !shared.contains(g);
            }
            (Step::Index(Some(_)), Step::Index(Some(_))) => return true,
            _ => return false,
        }
    }
    false
}

impl<'a> Scan<'_, 'a> {
    /// `a` of `&a[E]` (no cast), when `a` is a global array of one dimension with a
    /// [`Shape`].
    pub fn element_address(&self, e: &Node<Expression>) -> Option<VarId> {
        let Expression::UnaryOperator(u) = &e.node else {
            return None;
        };
        let Expression::BinaryOperator(b) = &u.node.operand.node else {
            return None;
        };
        let Expression::Identifier(i) = &b.node.lhs.node else {
            return None;
        };
        if u.node.operator.node != UnaryOperator::Address
            || b.node.operator.node != BinaryOperator::Index
        {
            return None;
        }
        let a = self.lookup(&i.node.name)?;
        let var = &self.decls.vars[a];
        let global = !var.automatic && !var.thread_local;
        (global && var.depth == Some(1) && var.shape.as_ref().is_some_and(|s| s.array)).then_some(a)
    }

    /// A call of `callee` (with a body) by name: what each argument gives its parameter.
    pub fn element_arguments(&mut self, callee: &str, args: &[Node<Expression>]) {
        let n = match self.decls.arity.get(callee) {
            Some(Some((n, false))) => *n,
            _ => {
                let all = (callee.to_string(), usize::MAX);
                self.decls.element_arguments.insert(all, None);
                return;
            }
        };
        for k in 0..n.max(args.len()) {
            let given = args.get(k).and_then(|a| self.element_address(a));
            self.decls
                .element_arguments
                .entry((callee.to_string(), k))
                .and_modify(|old| {
                    if *old != given {
                        *old = None
                    }
                })
                .or_insert(given);
        }
    }

    /// A write of variable `v` (`given`: the array whose element's address it is given,
    /// if that is all): it is no longer the key of a held element lock.
    pub fn wrote(&mut self, v: VarId, given: Option<VarId>) {
        self.decls
            .element_writes
            .entry(v)
            .and_modify(|old| {
                if *old != given {
                    *old = None
                }
            })
            .or_insert(given);
        self.forget_key(v);
    }

    /// `v` is written or declared anew: no held element lock has it as key any more.
    pub fn forget_key(&mut self, v: VarId) {
        if let Some(locks) = &mut self.state {
            locks.retain(|l| !matches!(l, Lock::Element(_, k, _) if *k == v));
        }
    }

    /// `p->f` of an element pointer `p`: its array and `p`.
    pub fn element_pointer_member(
        &self,
        m: &'a MemberExpression,
    ) -> Option<(VarId, &'a Node<Expression>)> {
        let Expression::Identifier(p) = &m.expression.node else {
            return None;
        };
        if m.operator.node != MemberOperator::Indirect {
            return None;
        }
        let p_var = self.lookup(&p.node.name)?;
        let a = self.decls.element_pointers.get(&p_var)?;
        Some((*a, &m.expression))
    }

    /// The key of a part of an element (`a[i]…`: `i`; `p->…`: `p`), if it is one.
    pub fn element_key(&self, e: &'a Node<Expression>) -> Option<VarId> {
        match &e.node {
            Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
                self.element_key(&m.node.expression)
            }
            Expression::Member(m) => {
                let (_, p) = self.element_pointer_member(&m.node)?;
                let Expression::Identifier(p) = &p.node else {
                    return None;
                };
                self.lookup(&p.node.name)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let Expression::Identifier(_) = &b.node.lhs.node else {
                    return self.element_key(&b.node.lhs);
                };
                let Expression::Identifier(i) = &b.node.rhs.node else {
                    return None;
                };
                let k = self.lookup(&i.node.name)?;
                let var = &self.decls.vars[k];
                (var.automatic
                    && var.array == super::decls::Tri::No
                    && !self.decls.escaped.contains(&k))
                .then_some(k)
            }
            _ => None,
        }
    }

    /// The element lock `&a[k].m` or `&p->m` names, if it is one.
    pub fn element_lock_of(&self, arg: &'a Node<Expression>) -> Option<Lock> {
        let Expression::UnaryOperator(u) = &arg.node else {
            return None;
        };
        if u.node.operator.node != UnaryOperator::Address {
            return None;
        }
        let (a, path, _) = self.part(&u.node.operand)?;
        let var = &self.decls.vars[a];
        let [Step::Index(None), inside @ ..] = path.as_slice() else {
            return None;
        };
        let named = !inside.is_empty() && inside.iter().all(|s| *s != Step::Index(None));
        if !named || var.automatic || var.thread_local {
            return None;
        }
        let key = self.element_key(&u.node.operand)?;
        Some(Lock::Element(a, key, inside.to_vec()))
    }

    /// The locks an access of `path` in `target` (whose element key is `key`) records:
    /// `locks` less the keyed element locks, plus [`Lock::InElement`] for each mutex held
    /// inside the element accessed, apart from the part accessed.
    pub fn recorded_locks(
        &self,
        target: Target,
        path: &Path,
        key: Option<VarId>,
        locks: &Locks,
    ) -> Locks {
        let mut out = without_keyed(locks.clone());
        let (Target::Var(a), [Step::Index(first), accessed @ ..]) = (target, path.as_slice())
        else {
            return out;
        };
        if accessed.is_empty() || self.decls.vars[a].depth != Some(1) {
            return out;
        }
        for l in locks {
            let inside = match (l, first) {
                (Lock::Element(b, k, m), None) if *b == a && Some(*k) == key => m,
                (Lock::Mutex(b, m), Some(c))
                    if *b == a && m.first() == Some(&Step::Index(Some(*c))) =>
                {
                    &m[1..]
                }
                _ => continue,
            };
            if !inside.is_empty() && apart(accessed, inside, self.decls) {
                out.insert(Lock::InElement(a, inside.to_vec()));
            }
        }
        out
    }
}
